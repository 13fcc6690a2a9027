import Foundation

/// The management API token, accepted by a harmless read (`GET /api/v1/users?limit=1`); the token itself is
/// never printed.
enum CredentialsCheck {
    static func run(configuration: Configuration, http: HTTPClient) async -> DoctorCheck {
        guard let token = configuration.apiToken else {
            return DoctorCheck("credentials", .skipped, "no API token configured (OKTA_CLIENT_TOKEN, --api-token-file, okta.yaml)")
        }
        do throws(IdFlowError) {
            let org = try configuration.requireOrgURL()
            var components = URLComponents(url: org.appendingPathComponent("api/v1/users"), resolvingAgainstBaseURL: false)
            components?.queryItems = [URLQueryItem(name: "limit", value: "1")]
            guard let url = components?.url else { throw .internalFailure("cannot build the users URL of \(org)") }
            let response = try await http.send(
                .get(url, headers: ["Authorization": "SSWS \(token.value)", "Accept": "application/json"]))
            guard response.isSuccess else {
                throw response.failure(
                    hint: "the API token was refused: create a new one (Security > API > Tokens) and set OKTA_CLIENT_TOKEN")
            }
            return DoctorCheck("credentials", .ok, "the API token is accepted (GET /api/v1/users?limit=1 answered \(response.status))")
        } catch {
            return .failed("credentials", error)
        }
    }
}
