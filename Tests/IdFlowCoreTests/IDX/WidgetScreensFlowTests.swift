import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The sign-in widget's recordings (Tests/Fixtures/okta-idx-widget) of the screens after the password: a
/// grace-period enrollment (skipped, or enrolled with `--enroll-now`), consent (granted with `--consent`, refused,
/// or a script stopped), and Okta Verify's methods (push or code, FastPass refused by name).
@Suite struct WidgetScreensFlowTests {
    let flows = EmbeddedLoginFlowTests()

    /// A widget recording, served as the recorded org would.
    static func widget(_ name: String, status: Int = 200) -> RoutedTransport.Reply {
        RecordedIdentityEngine.reply("../okta-idx-widget/\(name)", status: status)
    }

    /// The recorded password sign-in whose right password leads to the widget's `afterPassword`; `more` answers
    /// the routes after it.
    func engine(afterPassword: String, more: @escaping @Sendable (HTTPRequest) -> RoutedTransport.Reply? = { _ in nil }) throws
        -> RoutedTransport
    {
        try flows.identityEngine(passed: "../okta-idx-widget/\(afterPassword)", more: more)
    }

    static let signIn = ["identifier": "jo@example.com", "credentials.passcode": "s3cret"]

    func run(_ login: EmbeddedLogin, _ transport: RoutedTransport, messages: Locked<[String]> = Locked([])) async -> IdFlowError? {
        let context = TestContext.make(transport: transport, configuration: flows.context(transport).configuration, messages: messages)
        return await failure { () throws(IdFlowError) in _ = try await login.run(context) }
    }

    // MARK: Grace periods

    @Test func aGracePeriodEnrollmentIsSkippedAndSaysUntilWhen() async throws {
        let transport = try engine(afterPassword: "authenticator-enroll-grace-period-with-skip.json") { request in
            request.route == "POST /idp/idx/skip" ? RecordedIdentityEngine.reply("04-success-with-interaction-code.json") : nil
        }
        let messages = Locked<[String]>([])
        let error = await run(EmbeddedLogin(answers: IDX.AnswerSet(Self.signIn)), transport, messages: messages)

        #expect(error == nil, "\(String(describing: error))")
        #expect(transport.requests.contains { $0.route == "POST /idp/idx/skip" })
        #expect(!transport.requests.contains { $0.route == "POST /idp/idx/credential/enroll" })
        let said = try #require(messages.current.first { $0.contains("skipped enrolling") })
        #expect(said.contains("Okta Phone (until 2022-12-16T05:00:00.000Z)"), "\(said)")
        #expect(said.contains("--enroll-now"))
    }

    @Test func aGraceBySkipCountSaysHowManySkipsAreLeft() async throws {
        let transport = try engine(afterPassword: "authenticator-enroll-grace-period-login-count-with-skip.json") { request in
            request.route == "POST /idp/idx/skip" ? RecordedIdentityEngine.reply("04-success-with-interaction-code.json") : nil
        }
        let messages = Locked<[String]>([])
        let error = await run(EmbeddedLogin(answers: IDX.AnswerSet(Self.signIn)), transport, messages: messages)

        #expect(error == nil, "\(String(describing: error))")
        let said = try #require(messages.current.first { $0.contains("skipped enrolling") })
        #expect(said.contains("Okta Phone (3 more skips)") && said.contains("(FIDO2) (1 more skip)"), "\(said)")
    }

    /// `--enroll-now` does not skip: the enrollment is asked for like any other (here a script stops at it).
    @Test func enrollNowTakesTheEnrollmentInstead() async throws {
        let transport = try engine(afterPassword: "authenticator-enroll-grace-period-with-skip.json")
        var login = EmbeddedLogin(answers: IDX.AnswerSet(Self.signIn))
        login.enrollNow = true
        let error = await run(login, transport)

        #expect(error?.idxPending?.remediation == "select-authenticator-enroll", "\(String(describing: error))")
        #expect(!transport.requests.contains { $0.route == "POST /idp/idx/skip" })
    }

    /// Once the grace is over Okta offers no `skip`: the enrollment proceeds as any enrollment does.
    @Test func aGraceThatIsOverIsEnrolledAsAnyOther() async throws {
        let transport = try engine(afterPassword: "authenticator-enroll-grace-period.json")
        let messages = Locked<[String]>([])
        let error = await run(EmbeddedLogin(answers: IDX.AnswerSet(Self.signIn)), transport, messages: messages)

        #expect(error?.idxPending?.remediation == "select-authenticator-enroll", "\(String(describing: error))")
        #expect(!messages.current.contains { $0.contains("skipped") })
    }

    // MARK: Consent

    @Test func consentIsGrantedWithTheFlag() async throws {
        let transport = try engine(afterPassword: "consent-enduser.json") { request in
            request.route == "POST /idp/idx/consent" ? RecordedIdentityEngine.reply("04-success-with-interaction-code.json") : nil
        }
        var login = EmbeddedLogin(answers: IDX.AnswerSet(Self.signIn))
        login.consent = true
        let error = await run(login, transport)

        #expect(error == nil, "\(String(describing: error))")
        let sent = try #require(transport.requests.first { $0.route == "POST /idp/idx/consent" })
        #expect(sent.jsonBody?["consent"] == .bool(true))
    }

    /// `granular-consent` hides its `consent` field; the scopes the recording marks are sent as they are.
    @Test func granularConsentIsGrantedWithTheScopesAsRecorded() async throws {
        let transport = try engine(afterPassword: "consent-granular.json") { request in
            request.route == "POST /idp/idx/consent" ? RecordedIdentityEngine.reply("04-success-with-interaction-code.json") : nil
        }
        var login = EmbeddedLogin(answers: IDX.AnswerSet(Self.signIn))
        login.consent = true
        let error = await run(login, transport)

        #expect(error == nil, "\(String(describing: error))")
        let sent = try #require(transport.requests.first { $0.route == "POST /idp/idx/consent" })
        #expect(sent.jsonBody?["consent"] == .bool(true))
        #expect(sent.jsonBody?["optedScopes"]?["email"] == .bool(true), "\(String(describing: sent.jsonBody))")
    }

    @Test func aScriptWithoutTheFlagStopsWithExit8NamingIt() async throws {
        let transport = try engine(afterPassword: "consent-enduser.json")
        let error = await run(EmbeddedLogin(answers: IDX.AnswerSet(Self.signIn)), transport)

        #expect(error?.exitStatus.rawValue == 8, "\(String(describing: error))")
        #expect(error?.message.contains("email, phone") == true, "\(String(describing: error?.message))")
        #expect(error?.hint?.contains("--consent") == true)
        #expect(!transport.requests.contains { $0.route == "POST /idp/idx/consent" })
    }

    /// `--answer consent=…` takes a yes or a no; any other word is refused before anything is sent, not read as
    /// a refusal that would end the sign-in on the server.
    @Test func aConsentAnswerThatIsNeitherYesNorNoIsRefused() async throws {
        let transport = try engine(afterPassword: "consent-enduser.json")
        let error = await run(EmbeddedLogin(answers: IDX.AnswerSet(Self.signIn.merging(["consent": "maybe"]) { $1 })), transport)

        #expect(error?.exitStatus.rawValue == 64, "\(String(describing: error))")
        #expect(error?.hint?.contains("consent=true or consent=false") == true)
        #expect(!transport.requests.contains { $0.route == "POST /idp/idx/consent" })
    }

    /// A person who says no at the terminal: `consent: false` is sent, the server ends the sign-in as recorded,
    /// and the run exits 8 with the server's words.
    @Test func aRefusalAtTheTerminalIsSentAndEndsTheSignIn() async throws {
        let transport = try engine(afterPassword: "consent-enduser.json") { request in
            request.route == "POST /idp/idx/consent" ? Self.widget("terminal-enduser-email-consent-denied.json") : nil
        }
        let lines = Locked<[String]>([])
        var context = TestContext.make(transport: transport, configuration: flows.context(transport).configuration)
        context.console = Console(
            standardOutput: { _ in }, standardError: { data in lines.withLock { $0.append(String(decoding: data, as: UTF8.self)) } },
            readStandardInput: { Data() }, readLine: { nil }, isInteractive: true, promptLine: { _ in "n" })
        let error = await failure { () throws(IdFlowError) in
            _ = try await EmbeddedLogin(answers: IDX.AnswerSet(Self.signIn)).run(context)
        }

        #expect(error?.exitStatus.rawValue == 8, "\(String(describing: error))")
        #expect(error?.message.contains("Operation cancelled by user.") == true)
        #expect(lines.current.contains { $0.contains("email: View your email address.") }, "the scopes are shown before asking")
        let sent = try #require(transport.requests.first { $0.route == "POST /idp/idx/consent" })
        #expect(sent.jsonBody?["consent"] == .bool(false))
    }

    // MARK: Okta Verify's methods

    /// Okta Verify chosen without a method: a push (the number challenge shown apart), polled until approved.
    @Test func oktaVerifyIsAPushUnlessTheAnswersSayOtherwise() async throws {
        let transport = try engine(afterPassword: "authenticator-verification-select-authenticator-without-signed-nonce.json") { request in
            switch request.route {
            case "POST /idp/idx/challenge": return Self.widget("authenticator-verification-number-challenge.json")
            case "POST /idp/idx/challenge/poll": return RecordedIdentityEngine.reply("04-success-with-interaction-code.json")
            default: return nil
            }
        }
        let messages = Locked<[String]>([])
        let error = await run(
            EmbeddedLogin(answers: IDX.AnswerSet(Self.signIn.merging(["authenticator": "okta_verify"]) { $1 })), transport,
            messages: messages)

        #expect(error == nil, "\(String(describing: error))")
        let chosen = try #require(transport.requests.first { $0.route == "POST /idp/idx/challenge" })
        #expect(chosen.jsonBody?["authenticator"]?["methodType"] == "push", "\(String(describing: chosen.jsonBody))")
        #expect(messages.current.contains { $0.contains("asks for the number 10") })
        #expect(messages.current.contains { $0.trimmingCharacters(in: .whitespacesAndNewlines) == "10" }, "the number on a line of its own")
    }

    @Test func theCodeIsChosenByAnswer() async throws {
        let transport = try engine(afterPassword: "authenticator-verification-select-authenticator-without-signed-nonce.json") { request in
            switch request.route {
            case "POST /idp/idx/challenge": return Self.widget("authenticator-verification-okta-verify-totp.json")
            case "POST /idp/idx/challenge/answer" where request.jsonBody?["credentials"]?["totp"] != nil:
                return RecordedIdentityEngine.reply("04-success-with-interaction-code.json")
            default: return nil
            }
        }
        let answers = Self.signIn.merging(["authenticator": "okta_verify", "methodType": "totp", "credentials.totp": "123456"]) { $1 }
        let error = await run(EmbeddedLogin(answers: IDX.AnswerSet(answers)), transport)

        #expect(error == nil, "\(String(describing: error))")
        let chosen = try #require(transport.requests.first { $0.route == "POST /idp/idx/challenge" })
        #expect(chosen.jsonBody?["authenticator"]?["methodType"] == "totp")
        #expect(transport.requests.contains { $0.jsonBody?["credentials"]?["totp"] == "123456" })
    }

    /// FastPass asked for by answer, or the only method Okta Verify offers, or a challenge already waiting for it:
    /// refused by name with the way that works, nothing sent for it.
    @Test(arguments: [
        ("authenticator-verification-okta-verify-totp.json", ["authenticator": "okta_verify", "authenticator.methodType": "signed_nonce"]),
        ("authenticator-verification-select-authenticator.json", ["authenticator": "okta_verify"]),
        ("authenticator-verification-okta-verify-signed-nonce-loopback.json", [:]),
    ])
    func fastPassIsRefusedByName(_ recording: String, _ extra: [String: String]) async throws {
        let transport = try engine(afterPassword: recording)
        let error = await run(EmbeddedLogin(answers: IDX.AnswerSet(Self.signIn.merging(extra) { $1 })), transport)

        #expect(error?.message.contains("signed_nonce") == true, "\(String(describing: error))")
        #expect(error?.hint?.contains("login-pkce --browser") == true)
        #expect(!transport.requests.contains { $0.route == "POST /idp/idx/challenge" || $0.route.hasSuffix("/poll") })
    }
}
