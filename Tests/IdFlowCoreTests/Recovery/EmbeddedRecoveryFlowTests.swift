import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The embedded sign-in meeting the recorded expired and expiring password documents (Tests/Fixtures/okta-idx):
/// the new password goes to `reenroll-authenticator` (never the old one), a weak one is never sent, a script without
/// one stops with the option to add, and an expiring password is skipped with a warning.
@Suite struct EmbeddedRecoveryFlowTests {
    static let newPassword = "N3w-Passw0rd-2026!"
    let flow = EmbeddedLoginFlowTests()

    /// The recorded sign-in whose right password (s3cret) is answered with `document`; the new password (or `skip`)
    /// then ends it with the recorded interaction code.
    func engine(_ document: String) throws -> RoutedTransport {
        try flow.identityEngine(passed: document) { request in
            let passcode = request.jsonBody?["credentials"]?["passcode"]?.stringValue
            switch request.route {
            case "POST /idp/idx/challenge/answer" where passcode == Self.newPassword, "POST /idp/idx/skip":
                return RecordedIdentityEngine.reply("04-success-with-interaction-code.json")
            default:
                return nil
            }
        }
    }

    func passcodesSent(_ transport: RoutedTransport) -> [String?] {
        transport.requests.filter { $0.route.hasSuffix("/challenge/answer") }.map { $0.jsonBody?["credentials"]?["passcode"]?.stringValue }
    }

    func login(newPassword: String?, identifier: String = "jo@example.com") -> EmbeddedLogin {
        var login = EmbeddedLogin(answers: IDX.AnswerSet(["identifier": identifier, "credentials.passcode": "s3cret"]))
        login.newPassword = NewPassword(given: newPassword.map(Secret.init))
        return login
    }

    @Test func anExpiredPasswordIsReplacedAndTheSignInEnds() async throws {
        let transport = try engine("password-expired-reenroll-authenticator.json")
        let output = try await login(newPassword: Self.newPassword).run(flow.context(transport))
        #expect(output.passwordChanged)
        #expect(output.passwordWarning == nil)
        #expect(passcodesSent(transport) == ["s3cret", Self.newPassword], "the old password answered the challenge only")
    }

    @Test func withoutANewPasswordAScriptStopsAtTheReenrollFormNamingTheOption() async throws {
        let transport = try engine("password-expired-reenroll-authenticator.json")
        let error = await failure { () throws(IdFlowError) in try await login(newPassword: nil).run(flow.context(transport)) }
        guard let pending = error?.idxPending else {
            Issue.record("expected the pending form, got \(String(describing: error))")
            return
        }
        #expect(pending.remediation == "reenroll-authenticator")
        #expect(pending.transaction != nil, "the transaction is kept for --resume")
        #expect(error?.hint?.contains("--new-password-file") == true)
        #expect(passcodesSent(transport) == ["s3cret"])
    }

    /// The recording publishes an 8-character minimum and no part of the username.
    @Test(arguments: [("jo@example.com", "Short1!"), ("joanna@example.com", "Joanna-Passw0rd-1!")])
    func aNewPasswordBreakingThePublishedRulesIsNeverSent(identifier: String, candidate: String) async throws {
        let transport = try engine("password-expired-reenroll-authenticator.json")
        let error = await failure { () throws(IdFlowError) in
            try await login(newPassword: candidate, identifier: identifier).run(flow.context(transport))
        }
        #expect(error?.exitStatus == .rejected)
        #expect(error?.hint?.contains("not accepted") == true, "\(String(describing: error))")
        #expect(passcodesSent(transport) == ["s3cret"], "the weak password was sent")
    }

    @Test func anExpiringPasswordIsSkippedWithItsWarning() async throws {
        let transport = try engine("password-expiry-warning.json")
        let output = try await login(newPassword: nil).run(flow.context(transport))
        #expect(output.passwordWarning?.daysToExpiry == 4)
        #expect(output.passwordWarning?.message.contains("4 days") == true)
        #expect(!output.passwordChanged)
        #expect(transport.requests.contains { $0.route == "POST /idp/idx/skip" })
    }

    @Test func anExpiringPasswordIsChangedWhenANewOneIsGiven() async throws {
        let transport = try engine("password-expiry-warning.json")
        let output = try await login(newPassword: Self.newPassword).run(flow.context(transport))
        #expect(output.passwordChanged)
        #expect(output.passwordWarning == nil)
        #expect(!transport.requests.contains { $0.route == "POST /idp/idx/skip" })
    }
}
