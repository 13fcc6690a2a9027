import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// The real error bodies recorded from Okta (Tests/Fixtures/okta-core) map to the contract's exit codes.
struct ErrorBodyDecodingTests {
    @Test(arguments: [
        ("error-E0000004-authentication-failed.json", 401, IdFlowExitCode.authentication),
        ("error-E0000007-user-not-found.json", 404, IdFlowExitCode.notFound),
        ("error-E0000038-reactivate-staged-user.json", 403, IdFlowExitCode.rejected),
        ("error-E0000079-wrong-authn-state.json", 403, IdFlowExitCode.rejected),
    ])
    func errorBodiesMapToExitCodes(file: String, status: Int, exit: IdFlowExitCode) throws {
        let response = HTTPResponse(
            status: status, headers: ["content-type": "application/json"], body: try Fixtures.data("okta-core/\(file)"),
            url: URL(string: "https://test.okta.com/api/v1/x")!)
        let error = response.failure()
        guard case .okta(_, let body, _) = error else {
            Issue.record("expected an Okta error, got \(error)")
            return
        }
        #expect(file.contains(body.errorCode))
        #expect(error.exitStatus == exit)
        let report = ErrorReport(error)
        #expect(report.error.httpStatus == status)
        #expect(report.error.errorCode == body.errorCode)
        #expect(report.error.errorSummary == body.errorSummary)
    }

    @Test func wrongStateErrorKeepsItsCause() throws {
        let body = try JSONDecoder().decode(OktaErrorBody.self, from: Fixtures.data("okta-core/error-E0000079-wrong-authn-state.json"))
        #expect(body.causeSummaries == ["This operation is not allowed in the current authentication state."])
    }

    @Test func rateLimitBodyDecodes() throws {
        let body = try JSONDecoder().decode(OktaErrorBody.self, from: Fixtures.data("okta-core/error-E0000047-rate-limit.json"))
        #expect(body.errorCode == "E0000047")
        #expect(IdFlowError.rateLimited(attempts: 4, body: body).exitStatus == .server)
    }

    @Test func oauthErrorBodyMapsToAuthenticationFailure() throws {
        let response = HTTPResponse(
            status: 400, headers: ["content-type": "application/json"],
            body: try Fixtures.data("okta-core/oauth-error-invalid-grant-pkce.json"),
            url: URL(string: "https://test.okta.com/oauth2/default/v1/token")!)
        let error = response.failure()
        #expect(error == .oauth(status: 400, body: OAuthErrorBody(error: "invalid_grant", errorDescription: "PKCE verification failed.")))
        #expect(error.exitStatus == .authentication)
    }

    /// An OAuth error whose description is spelled `errorDescription`, as an SDK's recording of the Identity
    /// Engine's `/interact` error has it: the description still reaches the user; the standard key wins.
    @Test func anOAuthErrorDescriptionInCamelCaseIsRead() throws {
        let camel = try JSONDecoder().decode(OAuthErrorBody.self, from: try Fixtures.data("okta-idx/error-interact.json"))
        #expect(camel.error == "invalid_request")
        #expect(camel.errorDescription?.hasPrefix("PKCE code challenge is required") == true)
        let both = try JSONDecoder().decode(
            OAuthErrorBody.self, from: Data(#"{"error": "x", "error_description": "standard", "errorDescription": "camel"}"#.utf8))
        #expect(both.errorDescription == "standard")
    }
}
