import Foundation
import IdFlowCore
import IdFlowTestSupport
import Testing

/// The client decodes the real responses recorded from Okta (Tests/Fixtures/okta-core).
struct OktaFixtureDecodingTests {
    @Test(arguments: [
        "user-staged-create-activate-false-classic.json", "user-staged-create-activate-false-oie.json",
        "user-active-get-oie.json", "user-suspended-get-oie.json",
    ])
    func decodesUsers(file: String) throws {
        let user = try JSONDecoder().decode(OktaUser.self, from: Fixtures.data("okta-core/\(file)"))
        #expect(user.id.hasPrefix("00u"))
        #expect(user.id.count == 20)
        #expect(user.profile.login.contains("@"))
        let expected = file.contains("staged") ? "STAGED" : file.contains("active") ? "ACTIVE" : "SUSPENDED"
        #expect(user.status == expected)
    }

    @Test(arguments: ["user-activate-sendemail-false-classic.json", "user-activate-sendemail-false-oie.json"])
    func activationLinkCarriesTheSameTokenAsTheTokenField(file: String) throws {
        let activation = try JSONDecoder().decode(UserActivationToken.self, from: Fixtures.data("okta-core/\(file)"))
        let token = try #require(activation.activationToken)
        let url = try #require(activation.activationUrl)
        let (parsed, org) = try ActivationToken.parse(activationURL: url)
        #expect(parsed.secret.value == token)
        #expect(org.absoluteString == "https://test.okta.com")
        #expect(try ActivationToken(token).secret.value == token)
    }

    @Test func passwordResetTransactionForAccountActivation() throws {
        let transaction = try JSONDecoder().decode(
            AuthnTransaction.self, from: Fixtures.data("okta-core/authn-password-reset-account-activation.json"))
        #expect(transaction.status == "PASSWORD_RESET")
        #expect(transaction.recoveryType == "ACCOUNT_ACTIVATION")
        #expect(transaction.stateToken?.hasPrefix("00") == true)
        #expect(transaction.links?.next?.name == "resetPassword")
        #expect(transaction.links?.next?.href.hasSuffix("/api/v1/authn/credentials/reset_password") == true)
        #expect(transaction.user?.profile?.login == "dade.murphy@example.com")
        #expect(transaction.embedded?.policy?.complexity?.minLength == 8)
    }

    @Test func successTransactionHasSessionTokenAndNoStateToken() throws {
        let transaction = try JSONDecoder().decode(AuthnTransaction.self, from: Fixtures.data("okta-core/authn-success.json"))
        #expect(transaction.status == "SUCCESS")
        #expect(transaction.sessionToken == "test_session_token")
        #expect(transaction.stateToken == nil)
        #expect(transaction.user?.id == "test_id")
    }

    @Test func mfaRequiredListsThePushFactor() throws {
        let transaction = try JSONDecoder().decode(AuthnTransaction.self, from: Fixtures.data("okta-core/authn-mfa-required.json"))
        #expect(transaction.status == "MFA_REQUIRED")
        #expect(transaction.embedded?.factors?.contains { $0.factorType == "push" } == true)
    }

    @Test(arguments: [
        ("authn-mfa-enroll.json", "MFA_ENROLL"), ("authn-recovery.json", "RECOVERY"),
        ("authn-mfa-challenge-push-waiting.json", "MFA_CHALLENGE"), ("authn-mfa-challenge-push-rejected.json", "MFA_CHALLENGE"),
        ("authn-mfa-challenge-push-timeout.json", "MFA_CHALLENGE"),
    ])
    func decodesEveryOtherAuthnState(file: String, status: String) throws {
        let transaction = try JSONDecoder().decode(AuthnTransaction.self, from: Fixtures.data("okta-core/\(file)"))
        #expect(transaction.status == status)
    }

    @Test func pushChallengeResultsAreRead() throws {
        let waiting = try JSONDecoder().decode(
            AuthnTransaction.self, from: Fixtures.data("okta-core/authn-mfa-challenge-push-waiting.json"))
        let rejected = try JSONDecoder().decode(
            AuthnTransaction.self, from: Fixtures.data("okta-core/authn-mfa-challenge-push-rejected.json"))
        #expect(waiting.factorResult == "WAITING")
        #expect(waiting.links?.next?.name == "poll")
        #expect(rejected.factorResult == "REJECTED")
        #expect(rejected.links?.next?.name == "verify")
    }

    /// Each recorded error body becomes the error line and exit code a script relies on.
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
}
