import Foundation
import HTTPTypes
import Hummingbird

/// `/api/v1/*` with an OAuth access token instead of SSWS (okta-core.md §H5): a client-credentials token of the org
/// authorization server, `Authorization: Bearer` when unbound, `Authorization: DPoP` with a `DPoP` proof (`ath`, the
/// token's key, this request's `htm`/`htu`, no replay; no nonce required, as at Okta) when bound. Reads (GET, HEAD)
/// need `okta.users.read` or `okta.users.manage`, everything else `okta.users.manage`.
struct ManagementAPIAuthorization {
    let state: SandboxState

    static let readScope = "okta.users.read"
    static let manageScope = "okta.users.manage"

    /// The scope a call needs, as the challenge names it.
    static func requiredScope(_ method: HTTPRequest.Method) -> String {
        [.get, .head].contains(method) ? readScope : manageScope
    }

    /// The scopes any of which lets the call through.
    static func acceptedScopes(_ method: HTTPRequest.Method) -> Set<String> {
        [.get, .head].contains(method) ? [readScope, manageScope] : [manageScope]
    }

    /// Whether the header names an OAuth scheme this check handles.
    static func handles(_ authorization: String) -> Bool {
        let scheme = authorization.prefix { $0 != " " }.lowercased()
        return scheme == "bearer" || scheme == "dpop"
    }

    /// Returns when the request's token may make this call; throws the challenge otherwise.
    func authorize(_ request: Request) async throws {
        let orgURL = await state.orgURL
        let header = request.headers[.authorization] ?? ""
        let scheme = header.prefix { $0 != " " }.lowercased()
        let token = header.dropFirst(scheme.count).trimmingCharacters(in: .whitespaces)
        var challenge = OktaResourceChallenge(
            scheme: scheme == "dpop" ? "DPoP" : "Bearer", orgURL: orgURL, scope: Self.requiredScope(request.method),
            resource: request.uri.path)
        let proofHeader: String?
        do {
            proofHeader = try VerifiedDPoPProof.header(of: request.headers)
        } catch {
            throw challenge.refusing(.badRequest, "invalid_dpop_proof", error.description)
        }
        var known = await state.activeServiceAccessToken(value: token, server: .org)
        if known == nil, let claims = try await state.signingKey().verified(token, as: ServiceAccessTokenClaims.self) {
            known = await state.activeServiceAccessToken(claims, server: .org)
        }
        guard let record = known else {
            throw challenge.refusing(.unauthorized, "invalid_token", "The access token is invalid.", body: .invalidToken)
        }
        if let bound = record.dpopThumbprint {
            challenge.scheme = "DPoP"
            try await challenge.requireProof(request, accessToken: token, boundTo: bound, usesDPoP: scheme == "dpop", state: state)
        } else if scheme == "dpop" || proofHeader != nil {
            throw challenge.refusing(.unauthorized, "invalid_token", "The presented access_token is not DPoP bound.", body: .invalidToken)
        }
        guard !Self.acceptedScopes(request.method).isDisjoint(with: record.scopes) else {
            // §H7: Okta may send no body here; the sandbox keeps Okta's E0000006 so SSWS-era clients still read one.
            throw challenge.refusing(
                .forbidden, "insufficient_scope", "The access token provided does not contain the required scopes.",
                body: OktaErrorResponse(.forbidden, "E0000006", "You do not have permission to perform the requested action"))
        }
    }
}

/// A refusal of an OAuth token by one of Okta's own resources (`/api/v1`, `/oauth2/v1/userinfo`):
/// `WWW-Authenticate` as Okta writes it (§H5), scheme = the token type, with `authorization_uri`, `realm`, `scope`,
/// `error`, `error_description` and `resource`, and `algs` first for DPoP. The body is the given Okta error
/// (the management API's E0000011 for a bad token, E0000006 for a missing scope) or else the OAuth error.
struct OktaResourceChallenge: HTTPResponseError, Sendable {
    var scheme: String
    let orgURL: String
    let scope: String
    let resource: String
    var status: HTTPResponse.Status = .unauthorized
    var error = ""
    var errorDescription = ""
    var body: OktaErrorResponse?

    init(scheme: String, orgURL: String, scope: String, resource: String) {
        self.scheme = scheme
        self.orgURL = orgURL
        self.scope = scope
        self.resource = resource
    }

    func refusing(
        _ status: HTTPResponse.Status, _ error: String, _ description: String, body: OktaErrorResponse? = nil
    ) -> OktaResourceChallenge {
        var refusal = self
        refusal.status = status
        refusal.error = error
        refusal.errorDescription = description
        refusal.body = body
        return refusal
    }

    /// A bound token's missing or bad proof (§H5): 400 `invalid_request` or `invalid_dpop_proof`.
    func refusing(_ refusal: BoundTokenProof.Refusal) -> OktaResourceChallenge {
        switch refusal {
        case .missing: return refusing(.badRequest, "invalid_request", "The resource request requires a DPoP proof.")
        case .rejected(let rejected): return refusing(.badRequest, "invalid_dpop_proof", rejected.description)
        // Okta's resources require no nonce; the protected resource words its own challenge.
        case .nonce: return refusing(.unauthorized, "use_dpop_nonce", "Resource server requires nonce in DPoP proof")
        }
    }

    /// RFC 9449 §7 at one of Okta's own resources: a bound token comes with the `DPoP` scheme and a proof of its key;
    /// each refusal is this challenge's.
    func requireProof(
        _ request: Request, accessToken: String, boundTo thumbprint: String, usesDPoP: Bool, state: SandboxState
    ) async throws {
        guard usesDPoP else {
            throw refusing(
                .badRequest, "invalid_request",
                "The resource request must use the DPoP authentication scheme when using a DPoP bound token.")
        }
        do {
            try await BoundTokenProof.check(request, accessToken: accessToken, boundTo: thumbprint, state: state)
        } catch {
            throw refusing(error)
        }
    }

    var headerValue: String {
        var parameters: [(String, String)] = []
        if scheme == "DPoP" { parameters.append(("algs", ClientPublicKey.algorithms.joined(separator: " "))) }
        parameters += [
            ("authorization_uri", orgURL + "/oauth2/v1/authorize"), ("realm", orgURL), ("scope", scope), ("error", error),
            ("error_description", errorDescription), ("resource", resource),
        ]
        return scheme + " " + parameters.map { "\($0)=\"\($1.replacingOccurrences(of: "\"", with: "\\\""))\"" }.joined(separator: ", ")
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response: Response
        if let body {
            response = try body.response(from: request, context: context)
            response.status = status
        } else {
            response = .json(["error": .string(error), "error_description": .string(errorDescription)], status: status)
        }
        response.headers[.wwwAuthenticate] = headerValue
        return response
    }
}
