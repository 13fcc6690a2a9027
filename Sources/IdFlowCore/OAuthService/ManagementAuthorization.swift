import Foundation
import IdFlowFoundation

/// How one management request (`/api/v1/…`) carries its credentials, decided before it is built so the request
/// stays a value a test can inspect: the API token, or the service app's access token, Bearer or DPoP-bound.
public enum ManagementAuthorization: Sendable, Equatable {
    case apiToken(Secret)
    case accessToken(AccessTokenPresentation)

    /// Adds the `Authorization` header, and for a bound token the proof `HTTPClient` signs per attempt (with `ath`).
    func authorize(_ request: HTTPRequest) -> HTTPRequest {
        switch self {
        case .apiToken(let token):
            var request = request
            request.headers["Authorization"] = "SSWS \(token.value)"
            return request
        case .accessToken(let presentation):
            return presentation.present(request)
        }
    }
}

/// Where the management calls of a run get their authorization: the API token (SSWS mode), or a service app's
/// session (PrivateKey mode) that gets and renews its token.
public enum ManagementCredentials: Sendable {
    case apiToken(Secret)
    case serviceApp(ServiceAppSession)

    /// The authorization for the next request, and the service app token it came from (to renew it when refused).
    func authorization() async throws(IdFlowError) -> (ManagementAuthorization, ServiceAppToken?) {
        switch self {
        case .apiToken(let token): return (.apiToken(token), nil)
        case .serviceApp(let session):
            let token = try await session.token()
            return (Self.authorization(token), token)
        }
    }

    static func authorization(_ token: ServiceAppToken) -> ManagementAuthorization {
        if token.tokenType.lowercased() == "dpop", let key = token.key { return .accessToken(.dpop(token: token.accessToken, key: key)) }
        return .accessToken(.bearer(token.accessToken))
    }
}

extension Configuration {
    /// The management credentials this configuration chose: the API token, or the service app of PrivateKey mode
    /// with its token cached in the profile's state directory.
    func managementCredentials(
        http: HTTPClient, now: @escaping @Sendable () -> Date, bearerInPlaceOfDPoP: BearerInPlaceOfDPoP = .refused,
        warn: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(IdFlowError) -> ManagementCredentials {
        switch managementMode {
        case .apiToken:
            return .apiToken(try requireAPIToken())
        case .privateKey:
            let clientID = try serviceApp.requireClientID()
            return .serviceApp(
                ServiceAppSession(
                    http: http, orgURL: try requireOrgURL(), clientID: clientID, scopes: serviceApp.scopes, dpop: serviceApp.dpop,
                    key: try serviceApp.requirePrivateKey(),
                    cache: ServiceAppTokenCache(profileDirectory: profileDirectory, clientID: clientID), now: now,
                    bearerInPlaceOfDPoP: bearerInPlaceOfDPoP, warn: warn))
        }
    }
}

extension IdFlowContext {
    public func managementCredentials() throws(IdFlowError) -> ManagementCredentials {
        try configuration.managementCredentials(http: http, now: now, bearerInPlaceOfDPoP: bearerInPlaceOfDPoP, warn: notice)
    }

    /// Whether management calls can be made at all (an API token, or PrivateKey mode), for flows that only
    /// use them to explain something better.
    var canCallManagementAPI: Bool {
        configuration.managementMode == .privateKey || configuration.apiToken != nil
    }
}
