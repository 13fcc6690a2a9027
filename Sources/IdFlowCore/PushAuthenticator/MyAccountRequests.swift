import Foundation
import IdFlowFoundation

/// The requests of the MyAccount app-authenticators protocol (devices.md §1–§7), one value per call.
public enum MyAccount {
    /// `Accept` (and PATCH's `Content-Type`) carry the protocol version the SDK speaks.
    public static let accept = "application/json; okta-version=1.0.0"
    public static let mergePatch = "application/merge-patch+json; okta-version=1.0.0"

    /// The scopes the maintenance token is asked for: read for the pending list, manage for push-token updates.
    public static let maintenanceScopes =
        "okta.myAccount.appAuthenticator.maintenance.manage okta.myAccount.appAuthenticator.maintenance.read"

    static let tokenHint =
        "the access token is missing, expired, or lacks okta.myAccount.appAuthenticator.manage; log in with --scope \"openid profile offline_access okta.myAccount.appAuthenticator.manage\" (or `idflow refresh`)"

    static func json(_ method: String, _ url: URL, body: JSONValue, headers: [String: String]) throws(IdFlowError) -> HTTPRequest {
        do {
            return try .json(method, url, body: body, headers: headers)
        } catch {
            throw .internalFailure("cannot encode a MyAccount request: \(error)")
        }
    }

    /// A non-2xx answer, with the token hint on 401/403.
    static func failure(_ response: HTTPResponse, hint: String = tokenHint) -> IdFlowError {
        response.failure(hint: [401, 403].contains(response.status) ? hint : nil)
    }
}

/// `GET {org}/.well-known/okta-organization`, no Authorization (§1a).
struct OktaOrganizationRequest: APIRequest {
    var orgURL: URL

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        .get(OrgEndpoint(orgURL: orgURL).url([".well-known", "okta-organization"]), headers: ["Content-Type": "application/json"])
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> OktaOrganization {
        guard response.isSuccess else { throw response.failure(hint: "check --org-url: it must be the Okta org itself") }
        return try response.decode(OktaOrganization.self)
    }
}

/// `GET {org}/.well-known/app-authenticator-configuration?oauthClientId=…` with the user's Bearer token (§1b).
struct AppAuthenticatorConfigurationRequest: APIRequest {
    var orgURL: URL
    var clientID: String
    var accessToken: Secret

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        let url = OrgEndpoint(orgURL: orgURL).url([".well-known", "app-authenticator-configuration"], query: [("oauthClientId", clientID)])
        return HTTPRequest(method: "GET", url: url, headers: ["Authorization": "Bearer \(accessToken.value)", "Accept": MyAccount.accept])
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> [AppAuthenticatorConfiguration] {
        guard response.isSuccess else { throw MyAccount.failure(response) }
        return try response.decode([AppAuthenticatorConfiguration].self)
    }
}

/// `POST {appAuthenticatorEnrollEndpoint}` with the enrollment body of §2b; never retried once sent.
struct EnrollAuthenticatorRequest: APIRequest {
    var url: URL
    var accessToken: Secret
    var body: JSONValue

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        try MyAccount.json(
            "POST", url, body: body,
            headers: ["Authorization": "Bearer \(accessToken.value)", "Content-Type": "application/json", "Accept": MyAccount.accept])
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> AppAuthenticatorEnrollment {
        guard response.isSuccess else {
            if case .okta(let status, let body, nil) = response.failure(), body.errorCode == "E0000158" {
                throw .okta(
                    status: status, body: body, hint: "the org's policy requires a user-verification key: add --user-verification and a PIN"
                )
            }
            throw MyAccount.failure(response)
        }
        return try response.decode(AppAuthenticatorEnrollment.self)
    }
}

/// `PATCH {org}/idp/myaccount/app-authenticators/{id}` with a merge patch of `methods.push` (§3a). Key
/// changes answer the full enrollment; a push-token change may answer anything 2xx (nil then).
struct UpdateEnrollmentRequest: APIRequest {
    var url: URL
    var accessToken: Secret
    var push: JSONValue

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        try MyAccount.json(
            "PATCH", url, body: ["methods": ["push": push]],
            headers: ["Authorization": "Bearer \(accessToken.value)", "Content-Type": MyAccount.mergePatch, "Accept": MyAccount.mergePatch])
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> AppAuthenticatorEnrollment? {
        guard response.isSuccess else { throw MyAccount.failure(response) }
        guard !response.body.isEmpty else { return nil }
        return try? JSONDecoder().decode(AppAuthenticatorEnrollment.self, from: response.body)
    }
}

/// `DELETE {org}/idp/myaccount/app-authenticators/{id}` (§3b). The error codes of §8 that say the
/// enrollment, device or user is already gone or suspended count as deleted; the code is returned.
struct DeleteEnrollmentRequest: APIRequest {
    var url: URL
    var accessToken: Secret

    /// Codes after which the SDK removes the enrollment locally as if the delete had succeeded.
    static let goneCodes: Set<String> = ["E0000154", "E0000156", "E0000153", "E0000008", "E0000152", "E0000155", "E0000180"]

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        HTTPRequest(method: "DELETE", url: url, headers: ["Authorization": "Bearer \(accessToken.value)", "Accept": MyAccount.accept])
    }

    /// nil when the server deleted it; the error code when it counts as deleted anyway.
    func decode(_ response: HTTPResponse) throws(IdFlowError) -> String? {
        if response.isSuccess { return nil }
        let failure = MyAccount.failure(response)
        if case .okta(_, let body, _) = failure, Self.goneCodes.contains(body.errorCode) { return body.errorCode }
        throw failure
    }
}

/// `POST {org}/oauth2/v1/token` with the jwt-bearer grant (§7b): the PoP key's assertion buys a maintenance
/// token, so no user token is needed after enrollment. No Authorization header; never retried.
struct MaintenanceTokenRequest: APIRequest {
    var orgURL: URL
    var clientID: String
    var scope: String
    var assertion: String

    init(orgURL: URL, clientID: String, scope: String = MyAccount.maintenanceScopes, assertion: String) {
        self.orgURL = orgURL
        self.clientID = clientID
        self.scope = scope
        self.assertion = assertion
    }

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        .form(
            OrgEndpoint(orgURL: orgURL).url(["oauth2", "v1", "token"]),
            fields: [
                ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("client_id", clientID), ("scope", scope),
                ("assertion", assertion),
            ])
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> MaintenanceToken {
        guard response.isSuccess else {
            throw response.failure(
                hint: "the org no longer accepts this enrollment's key (deleted or reset?); `idflow enroll list --check` shows which")
        }
        return try response.decode(MaintenanceToken.self)
    }
}

/// `GET {methods.push.links.pending.href}` with a Bearer token (§4): the pending challenges, entries the
/// SDK would drop already dropped.
struct PendingChallengesRequest: APIRequest {
    var url: URL
    var accessToken: Secret

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        HTTPRequest(method: "GET", url: url, headers: ["Authorization": "Bearer \(accessToken.value)", "Accept": MyAccount.accept])
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> [PushChallenge] {
        guard response.isSuccess else { throw MyAccount.failure(response, hint: "the maintenance token was refused") }
        return try PushChallenge.pendingList(response.body)
    }
}

/// `POST {verificationUri}` with `{"method", "challengeResponse"}` and no Authorization (§6a). Returns the
/// status: 200 verified, 204 denied. Never retried: a response is single-use.
struct ChallengeVerifyRequest: APIRequest {
    var url: URL
    var method: String
    var challengeResponse: String

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        try MyAccount.json(
            "POST", url, body: ["method": .string(method), "challengeResponse": .string(challengeResponse)],
            headers: ["Content-Type": "application/json", "Accept": MyAccount.accept])
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> Int {
        guard response.isSuccess else {
            if response.status == 404 {
                throw .notFound(
                    "the server knows no open challenge at \(Redactor.url(url.absoluteString))",
                    hint: "it was answered, expired or never existed; `idflow challenges` lists what is pending")
            }
            throw response.failure()
        }
        return response.status
    }
}
