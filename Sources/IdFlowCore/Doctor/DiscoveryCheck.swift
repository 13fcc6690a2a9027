import Foundation
import IdFlowFoundation

/// The issuer's discovery document: fetched, naming the configured issuer exactly, and which flows its
/// endpoints make possible.
enum DiscoveryCheck {
    /// The document at `{issuer}/.well-known/openid-configuration` as published, whatever issuer it names (the
    /// check compares), and its grant types.
    static func fetch(_ issuer: URL, http: HTTPClient) async throws(IdFlowError) -> (OpenIDConfiguration, published: JSONValue) {
        let url = issuer.appendingPathComponent(".well-known/openid-configuration")
        let response = try await http.send(.get(url))
        guard response.status != 404 else {
            throw .notFound(
                "no discovery document at \(url.absoluteString)", hint: "check --issuer (Okta: {org}/oauth2/default or the org URL)")
        }
        guard response.isSuccess else { throw response.failure(hint: "the issuer's discovery document could not be fetched") }
        let document = try response.decode(OpenIDConfiguration.self)
        return (document, (try? JSONValue(data: response.body)) ?? .null)
    }

    static func run(configuration: Configuration, http: HTTPClient) async -> DoctorCheck {
        let issuer: URL
        let document: OpenIDConfiguration
        let published: JSONValue
        do throws(IdFlowError) {
            issuer = try configuration.requireIssuer()
            (document, published) = try await fetch(issuer, http: http)
        } catch {
            return .failed("discovery", error, kind: kindOfFetchFailure(error))
        }
        guard document.issuer == issuer.absoluteString else {
            return DoctorCheck(
                "discovery", .fail,
                "the discovery document names the issuer \(document.issuer), but the configured issuer is \(issuer.absoluteString)",
                fix: "use exactly \(document.issuer) as --issuer (or IDFLOW_ISSUER, profile key issuer)", kind: .security)
        }
        func yes(_ present: Bool) -> String { present ? "yes" : "no" }
        func strings(_ key: String) -> [String] { published[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        let grants = strings("grant_types_supported")
        // The Identity Engine is Okta's: a profile for another provider (an issuer, no org URL) is not probed for it.
        let idx =
            configuration.isOpenIDProviderProfile
            ? "n/a (an issuer without an org URL: a profile for any OpenID provider)"
            : await identityEngine(issuer: issuer, grants: grants, http: http)
        let dpop = strings("dpop_signing_alg_values_supported")
        var flows = [
            "PKCE \(yes(true))", "device grant \(yes(document.deviceAuthorizationEndpoint != nil))",
            "IDX \(idx)", "introspection \(yes(document.introspectionEndpoint != nil))",
            "revocation \(yes(document.revocationEndpoint != nil))",
            "DPoP \(dpop.isEmpty ? "no" : dpop.joined(separator: " "))",
            "PAR \(yes(published["pushed_authorization_request_endpoint"]?.stringValue != nil))",
        ]
        if !grants.isEmpty { flows.append("grants \(grants.joined(separator: " "))") }
        var endpoints = ["authorization", "token", "jwks"]
        if document.userinfoEndpoint != nil { endpoints.append("userinfo") }
        if document.deviceAuthorizationEndpoint != nil { endpoints.append("device_authorization") }
        if document.introspectionEndpoint != nil { endpoints.append("introspection") }
        if document.revocationEndpoint != nil { endpoints.append("revocation") }
        if document.endSessionEndpoint != nil { endpoints.append("end_session") }
        return DoctorCheck(
            "discovery", .ok,
            "issuer \(document.issuer) as configured; endpoints: \(endpoints.joined(separator: ", ")); flows: \(flows.joined(separator: ", "))"
        )
    }

    /// Whether the embedded sign-in (`--embedded`, the Identity Engine's interaction code) can work: `yes`, `no`
    /// or `unknown`, with why.
    ///
    /// Okta's discovery documents do not list `interaction_code` in `grant_types_supported`, Identity Engine orgs'
    /// included (the recorded `oidc-openid-configuration-*.json`): the grant is switched on for the org ("Embedded
    /// widget sign-in support") and per app, and its endpoint is `{issuer}/v1/interact`, named by no document. A
    /// document that does list it is believed; otherwise one POST with no client and no challenge asks the interact
    /// endpoint itself: an Identity Engine org refuses it with an OAuth error (400 or 401: the endpoint exists; the
    /// app must still have the Interaction Code grant), a Classic org has no such endpoint (404). It starts nothing.
    static func identityEngine(issuer: URL, grants: [String], http: HTTPClient) async -> String {
        if grants.contains("interaction_code") { return "yes" }
        var http = http
        http.retryPolicy = RetryPolicy(maxRetries: 0)
        guard let response = try? await http.send(.form(IDX.interactURL(issuer: issuer), fields: [])) else {
            return "unknown (the interact endpoint did not answer)"
        }
        switch response.status {
        case 400, 401:
            return "yes (its interact endpoint answers; the app needs the Interaction Code grant)"
        case 404:
            return "no (no interact endpoint: not an Identity Engine org)"
        default:
            return "unknown (the interact endpoint answered \(response.status))"
        }
    }

    /// A document that is missing or unreadable is the configuration's fault (exit 3), a connection failure the
    /// network's.
    static func kindOfFetchFailure(_ error: IdFlowError) -> IdFlowExitCode {
        DoctorCheck.kind(of: error)
    }
}
