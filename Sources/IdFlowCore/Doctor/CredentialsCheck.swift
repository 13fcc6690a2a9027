import Foundation
import IdFlowFoundation

/// The management credentials, accepted by a harmless read (`GET /api/v1/users?limit=1`): the API token, or in
/// PrivateKey mode the service app's token (got, or taken from the cache, as any command would). Never printed.
enum CredentialsCheck {
    static func run(configuration: Configuration, http: HTTPClient) async -> DoctorCheck {
        if configuration.isOpenIDProviderProfile, configuration.apiToken == nil {
            return DoctorCheck(
                "credentials", .skipped,
                "an issuer without an org URL: a profile for any OpenID provider, which has no management API to check")
        }
        if configuration.managementMode == .apiToken, configuration.apiToken == nil {
            return DoctorCheck(
                "credentials", .skipped,
                "no API token configured (OKTA_CLIENT_TOKEN, --api-token-file, okta.yaml), and not in PrivateKey mode")
        }
        do throws(IdFlowError) {
            let api = UsersAPI(
                http: http, orgURL: try configuration.requireOrgURL(),
                credentials: try configuration.managementCredentials(http: http, now: { Date() }))
            let status = try await api.send { UsersProbeRequest(orgURL: api.orgURL, authorization: $0) }
            switch configuration.managementMode {
            case .apiToken:
                return DoctorCheck("credentials", .ok, "the API token is accepted (GET /api/v1/users?limit=1 answered \(status))")
            case .privateKey:
                let dpop = configuration.serviceApp.dpop ? " DPoP-bound" : ""
                return DoctorCheck(
                    "credentials", .ok,
                    "the service app \(configuration.serviceApp.clientID ?? "")'s\(dpop) token is accepted (GET /api/v1/users?limit=1 answered \(status))"
                )
            }
        } catch {
            return .failed("credentials", error)
        }
    }
}

/// `GET /api/v1/users?limit=1`: the cheapest call that needs the management credentials; answers its status.
struct UsersProbeRequest: APIRequest {
    var orgURL: URL
    var authorization: ManagementAuthorization

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        authorization.authorize(.get(OrgEndpoint(orgURL: orgURL).url(["api", "v1", "users"], query: [("limit", "1")])))
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> Int {
        guard response.isSuccess else {
            throw response.failure(
                hint:
                    "the credentials were refused: for an API token create a new one (Security > API > Tokens); for a service app check its key and granted scopes"
            )
        }
        return response.status
    }
}
