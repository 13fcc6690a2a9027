import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// The recorded recovery documents (Tests/Fixtures/okta-core, okta-idx) read the way the recovery flows need them:
/// the password rules a new password is checked against, the days left of a warned password, the links followed.
struct RecoveryFixtureTests {
    func authn(_ file: String) throws -> AuthnTransaction {
        try JSONDecoder().decode(AuthnTransaction.self, from: Fixtures.data("okta-core/\(file)"))
    }

    func idx(_ file: String) throws -> IDX.Document {
        try IDX.Document(json: try JSONValue(data: Fixtures.data("okta-idx/\(file)")))
    }

    @Test func anExpiredPasswordTransactionPublishesItsRulesAndChangePasswordLink() throws {
        let expired = try authn("authn-password-expired.json")
        #expect(expired.status == "PASSWORD_EXPIRED")
        #expect(expired.links?.next?.href.hasSuffix("/api/v1/authn/credentials/change_password") == true)
        #expect(expired.links?.skip == nil, "an expired password cannot be skipped")
        let rules = try #require(expired.embedded?.policy?.complexity)
        #expect(rules.minLength == 8)
        #expect(!rules.failedRules("short", login: nil).isEmpty)
        #expect(rules.failedRules("Long-Enough-1", login: nil).isEmpty)
    }

    @Test func aWarnedPasswordSaysHowManyDaysAreLeftAndCanBeSkipped() throws {
        let warned = try authn("authn-password-warn.json")
        #expect(warned.status == "PASSWORD_WARN")
        #expect(warned.embedded?.policy?.expiration?.passwordExpireDays != nil)
        #expect(warned.links?.skip?.href.hasSuffix("/api/v1/authn/skip") == true)
        #expect(warned.embedded?.policy?.complexity?.excludeUsername == true)
    }

    /// One of Okta's examples writes `excludeUsername` as the string "true".
    @Test func excludeUsernameIsReadAsABooleanOrAString() throws {
        for raw in [#"{"excludeUsername": true}"#, #"{"excludeUsername": "true"}"#] {
            let rules = try JSONDecoder().decode(PasswordRules.self, from: Data(raw.utf8))
            #expect(rules.excludeUsername == true, "\(raw)")
            #expect(
                rules.failedRules("jo.doe-Passw0rd", login: "jo.doe@example.com") == ["Passwords must not contain parts of your username."])
        }
    }

    @Test func theIdentityEngineResetFormPublishesTheSameRules() throws {
        let document = try idx("password-expired-reenroll-authenticator.json")
        #expect(document.remediations.contains { $0.name == "reenroll-authenticator" })
        let rules = try #require(PasswordRules(identityEngineSettings: document.resolve("$.currentAuthenticator")?["settings"]))
        #expect(rules.minLength.map { $0 > 0 } == true)
        #expect(!rules.summary.isEmpty)
        #expect(!rules.failedRules("a", login: nil).isEmpty)
    }

    @Test func theExpiryWarningOffersSkipAndSaysWhen() throws {
        let document = try idx("password-expiry-warning.json")
        #expect(document.remediations.contains { $0.name == "reenroll-authenticator-warning" })
        #expect(document.form(named: "skip") != nil)
        #expect(document.messages.contains { $0.key == "idx.password.expiring.message" })
    }

    @Test func theUnlockAndRecoveryEntriesAreOfferedOnTheIdentifyDocument() throws {
        let document = try idx("identify-with-recover-and-unlock-account.json")
        #expect(document.form(named: "recover") != nil)
        #expect(document.form(named: "unlock-account") != nil)
        let unlocked = try idx("unlock-account-success.json")
        #expect(unlocked.remediations.isEmpty)
        #expect(unlocked.messages.contains { $0.key == "oie.selfservice.unlock_user.success.message" })
    }

    /// The new password a script gives is checked before it is sent; without one a script is told which option to add.
    @Test func aScriptsNewPasswordIsCheckedAndAMissingOneNamesTheOption() throws {
        let context = TestContext.make(transport: ScriptedTransport([]))
        let rules = PasswordRules(minLength: 8, minLowerCase: 1, minUpperCase: 1, minNumber: 1, minSymbol: 0, excludeUsername: true)
        #expect(throws: IdFlowError.self) {
            try NewPassword(given: Secret("weakpass")).candidate(
                rules: rules, login: "jo@example.com", refused: nil, situation: "expired", retryHint: "again", context: context)
        }
        do {
            _ = try NewPassword().candidate(
                rules: rules, login: nil, refused: nil, situation: "expired", retryHint: "again", context: context)
            Issue.record("a script without a new password was not stopped")
        } catch {
            #expect(error.exitStatus == .rejected)
            #expect(error.hint?.contains("--new-password-file") == true)
        }
        let good = try NewPassword(given: Secret("Str0nger-Pass")).candidate(
            rules: rules, login: "jo@example.com", refused: nil, situation: "expired", retryHint: "again", context: context)
        #expect(good.value == "Str0nger-Pass")
    }
}
