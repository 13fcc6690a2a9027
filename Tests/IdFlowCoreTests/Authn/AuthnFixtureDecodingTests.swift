import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// The client decodes the real Authn responses recorded from Okta (Tests/Fixtures/okta-core).
struct AuthnFixtureDecodingTests {
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
}
