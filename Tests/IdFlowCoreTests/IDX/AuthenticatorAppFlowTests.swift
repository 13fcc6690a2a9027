import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import OneTimePasscode
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `--totp-secret-file` on the recorded Google Authenticator documents: the enrollment keeps the seed and
/// confirms it with a computed code, a sign-in answers with the next code when the server says one was used,
/// and a script without the file stops with a hint instead of printing the seed.
@Suite struct AuthenticatorAppFlowTests {
    static let recordedSeed = "AANACLY3MX6EHKJJ"
    let flows = EmbeddedLoginFlowTests()

    func seedFile() throws -> TOTPSeedFile {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("totp-flow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return TOTPSeedFile(directory.appendingPathComponent("jo.totp"))
    }

    /// The recorded Identity Engine whose identify answers `afterIdentify` and whose code form answers with each
    /// reply of `codeReplies` in turn (then success); the codes received are kept in `codes`.
    /// `now` is the client's frozen clock, which the ID token is issued at.
    func identityEngine(afterIdentify: String, codeReplies: [String] = [], codes: Locked<[String]>, now: Date = Date()) throws
        -> RoutedTransport
    {
        let engine = try flows.identityEngine(issuedAt: now)
        let replies = Locked(codeReplies)
        return RoutedTransport { request in
            switch request.route {
            case "POST /idp/idx/identify": return RecordedIdentityEngine.reply(afterIdentify)
            case "POST /idp/idx/challenge/answer":
                let credentials = request.jsonBody?["credentials"]
                codes.withLock { $0.append(credentials?["passcode"]?.stringValue ?? credentials?["totp"]?.stringValue ?? "") }
                let next = replies.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                return RecordedIdentityEngine.reply(next ?? "04-success-with-interaction-code.json", status: next == nil ? 200 : 400)
            default: return engine.answer(request)
            }
        }
    }

    @Test func anEnrollmentKeepsTheSeedAndIsConfirmedWithItsCode() async throws {
        let codes = Locked<[String]>([])
        let now = Date()
        let transport = try identityEngine(afterIdentify: "google-otp-enroll-qrcode.json", codes: codes, now: now)
        let messages = Locked<[String]>([])
        var context = TestContext.make(transport: transport, configuration: flows.context(transport).configuration, messages: messages)
        context.now = { now }
        let file = try seedFile()

        let output = try await EmbeddedLogin(answers: IDX.AnswerSet(["identifier": "jo@example.com"]), totpSecretFile: file).run(context)

        #expect(output.response.refreshToken == "CCY4M4fR3")
        #expect(try file.read().base32 == Self.recordedSeed)
        let totp = TOTP(secret: try #require(TOTPSecret(base32: Self.recordedSeed)))
        #expect(codes.current == [totp.code(at: now)])
        #expect(messages.current.contains { $0.contains("kept the seed of Google Authenticator in \(file.url.path)") })
        #expect(!messages.current.contains { $0.contains(Self.recordedSeed) }, "the seed is never shown")
    }

    @Test func aSignInAnswersWithTheNextCodeWhenTheServerSaysTheCodeWasUsed() async throws {
        let codes = Locked<[String]>([])
        // A moment just before a step ends: the retry waits for the next step, a fraction of a second here.
        let now = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 30).rounded(.down) * 30 + 29.9)
        let transport = try identityEngine(
            afterIdentify: "google-otp-challenge.json", codeReplies: ["error-google-otp-used-passcode.json"], codes: codes, now: now)
        var context = TestContext.make(transport: transport, configuration: flows.context(transport).configuration)
        context.now = { now }
        let file = try seedFile()
        try file.create(try #require(TOTPSecret(base32: Self.recordedSeed)))

        _ = try await EmbeddedLogin(answers: IDX.AnswerSet(["identifier": "jo@example.com"]), totpSecretFile: file).run(context)

        let totp = TOTP(secret: try file.read())
        #expect(codes.current == [totp.code(at: now), totp.code(forStep: totp.step(at: now) + 1)])
    }

    @Test func aScriptWithoutASeedFileStopsAtTheEnrollmentWithAHintAndNoSeed() async throws {
        let codes = Locked<[String]>([])
        let transport = try identityEngine(afterIdentify: "google-otp-enroll-qrcode.json", codes: codes)
        let context = flows.context(transport)
        let error = await failure { () throws(IdFlowError) in
            try await EmbeddedLogin(answers: IDX.AnswerSet(["identifier": "jo@example.com"])).run(context)
        }
        guard let pending = error?.idxPending else {
            Issue.record("expected the pending form, got \(String(describing: error))")
            return
        }
        #expect(pending.remediation == "enroll-authenticator")
        #expect(error?.hint?.contains("--totp-secret-file") == true)
        let printed = String(decoding: try JSONEncoder().encode(pending), as: UTF8.self)
        #expect(!printed.contains(Self.recordedSeed) && !printed.contains("iVBORw0KGgo"), "\(printed)")
        #expect(codes.current.isEmpty)
    }

    /// `--answer methodType=push` fills the method of the authenticator being chosen (`authenticator.methodType`).
    @Test func aNestedFieldIsAnsweredByItsOwnName() throws {
        let document = try IDX.Document(data: try Fixtures.data("okta-idx/okta-verify-select-method-push-totp.json"))
        let form = try #require(document.remediations.first { $0.name == "authenticator-verification-data" })
        let filled = form.fill(IDX.AnswerSet(["methodType": "push"]), in: document)
        #expect(filled.isComplete)
        #expect(filled.used == ["methodType"])
        #expect(filled.body["authenticator"]?["methodType"] == "push")
    }
}

/// The security question's two ways to enroll (a predefined question or one's own) are options of `credentials`:
/// the answers given for an option's own fields choose it, so a script needs no label to pick one.
struct SecurityQuestionFormTests {
    func enrollForm() throws -> (IDX.Document, IDX.Remediation) {
        let document = try IDX.Document(data: try Fixtures.data("okta-idx/security-question-enroll.json"))
        return (document, try #require(document.remediations.first { $0.name == "enroll-authenticator" }))
    }

    @Test func aPredefinedQuestionIsChosenByItsKey() throws {
        let (document, form) = try enrollForm()
        let filled = form.fill(IDX.AnswerSet(["credentials.questionKey": "disliked_food", "credentials.answer": "kale"]), in: document)
        #expect(filled.isComplete)
        #expect(filled.body["credentials"] == ["questionKey": "disliked_food", "answer": "kale"])
    }

    @Test func anOwnQuestionIsChosenByGivingIt() throws {
        let (document, form) = try enrollForm()
        let filled = form.fill(IDX.AnswerSet(["credentials.question": "Who?", "answer": "Nobody"]), in: document)
        #expect(filled.isComplete)
        #expect(filled.body["credentials"] == ["questionKey": "custom", "question": "Who?", "answer": "Nobody"])
    }

    @Test func anAnswerAloneChoosesNothing() throws {
        let (document, form) = try enrollForm()
        let filled = form.fill(IDX.AnswerSet(["credentials.answer": "kale"]), in: document)
        #expect(!filled.isComplete)
        #expect(filled.missing.map(\.name) == ["credentials"])
    }
}
