import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// Every screen Okta's sign-in widget draws (its 398 recorded server responses, Tests/Fixtures/okta-idx-widget) read by
/// `login-pkce --embedded` run as a script: the document answers the introspection, and the walker's first step is
/// recorded. Each ends in exactly one of three ways (a form to answer, a step idflow takes itself, a stop by name
/// with its exit code), and the table of what idflow does with each remediation and authenticator,
/// docs/idx-screens.md, is that result rendered: a changed outcome fails here until the table is recorded again
/// (`RECORD_SNAPSHOTS=1`).
@Suite struct WidgetCorpusTests {
    @Test func everyDocumentEndsInAnAnswerAnActionOrANamedStop() async throws {
        let files = try WidgetCorpus.responses()
        #expect(files.count == 398, "the corpus holds 399 files, one of them the widget's own fixture")
        var walked: [WidgetScreen] = []
        for file in files {
            if ProcessInfo.processInfo.environment["WIDGET_CORPUS_TRACE"] != nil {
                FileHandle.standardError.write(Data("walking \(file)\n".utf8))
            }
            let screen = await WidgetScreen.walk(file)
            walked.append(screen)
            // Never raw JSON before a person: not in the error line's message or hint, not in the progress lines.
            for line in [screen.message, screen.hint ?? ""] + screen.progress {
                #expect(!WidgetScreen.looksLikeJSON(line), "\(file): a person would read JSON: \(line)")
            }
            // The walk took one step: a form sent, or none before the stop.
            #expect(screen.sent.count <= 1, "\(file): sent \(screen.sent.joined(separator: ", "))")
            if screen.outcome.kind == .stop {
                #expect(!screen.outcome.reason.isEmpty, "\(file): a stop says why")
            }
        }
        let table = WidgetScreenTable(screens: walked).markdown
        let docs = SnapshotDirectory(Fixtures.packageRoot.appendingPathComponent("docs", isDirectory: true))
        if let mismatch = try docs.mismatch(table, named: "idx-screens.md") {
            Issue.record(Comment(rawValue: mismatch))
        }
    }

    /// `register --embedded` reads the same documents: it signs up where `select-enroll-profile` is offered and says
    /// so where not; none crashes, loops or shows JSON to a person either.
    @Test func registerReadsEveryDocumentToo() async throws {
        for file in try WidgetCorpus.responses() {
            let screen = await WidgetScreen.walk(file, signUp: true)
            for line in [screen.message, screen.hint ?? ""] + screen.progress {
                #expect(!WidgetScreen.looksLikeJSON(line), "\(file): a person would read JSON: \(line)")
            }
            #expect(screen.sent.count <= 1, "\(file): sent \(screen.sent.joined(separator: ", "))")
            let offersSignUp = screen.document?.remediations.contains { $0.name == "select-enroll-profile" } == true
            // An answer that is a document (not a 429 the client waits out, not a server error) is read for its forms.
            if screen.document != nil, screen.status != 429, screen.status < 500, !offersSignUp {
                #expect(screen.message.contains("no self-service sign-up"), "\(file): \(screen.message)")
            }
        }
    }

    /// A script meets an identity provider's page: exit 3, the page to open in the JSON it reads and on stderr.
    @Test func anIdentityProvidersPageIsPrintedForABrowserToFinish() async throws {
        let screen = await WidgetScreen.walk("identify-with-only-one-third-party-idp.json")
        let stop = try #require(screen.stop)
        #expect(screen.outcome.exit == 3 && stop.remediation == "redirect-idp")
        let url = try #require(stop.url)
        #expect(url.hasPrefix(RecordedIdentityEngine.org + "/"))
        #expect(screen.progress.contains { $0.contains(url) }, "a person sees the page to open")
    }

    /// FastPass's probe and the device assurance screen: stopped by name, the way on named, Okta's words kept.
    @Test func screensOnlyOktaVerifyAnswersNameTheBrowserAndKeepOktasMessages() async throws {
        let probe = try #require(await WidgetScreen.walk("identify-with-device-probing-loopback.json").stop)
        #expect(probe.remediation == "device-challenge-poll" && probe.hint?.contains("login-pkce --browser") == true)
        let assurance = try #require(await WidgetScreen.walk("device-assurance-grace-period-one-option.json").stop)
        #expect(assurance.remediation == "device-assurance-grace-period")
        #expect(assurance.messages.map(\.severity) == ["WARNING", "ERROR", "ERROR", "ERROR"])
        #expect(assurance.message.contains("Update to Android 100"), "the fix Okta names is said")
        #expect(assurance.hint?.contains("--remediation device-assurance-grace-period") == true)
        // A script reads Okta's messages, with their class, in the error line; stdout stays empty (no pending form).
        let line = ErrorReport(.stopped(assurance)).error
        #expect(line.causes?.first?.hasPrefix("WARNING: Your device doesn't meet the security requirements") == true)
        #expect(line.exitCode == 3 && IdFlowError.stopped(assurance).standardOutputDocument == nil)
    }

    @Test func thePlaygroundStatusRuleIsTheOneTheIndexStates() {
        #expect(WidgetCorpus.status(of: "error-429-too-many-request.json") == 429)
        #expect(WidgetCorpus.status(of: "error-authenticator-verification-tac.json") == 403)
        #expect(WidgetCorpus.status(of: "error-empty-response.json") == 403)
        #expect(WidgetCorpus.status(of: "identify.json") == 200)
    }
}

/// One document walked: its outcome, what the walker sent after the introspection, and what a person was told.
struct WidgetScreen {
    enum Kind: String, CaseIterable {
        /// A form a script answers (exit 3, the fields on stdout) or a person fills in at prompts.
        case answer
        /// A step idflow takes itself: a form it fills, a poll, the interaction code exchanged.
        case action
        /// A stop naming the step and why, with its exit code.
        case stop
    }

    struct Outcome: Equatable {
        var kind: Kind
        /// The exit code of an answer or a stop; nil for an action (the walk goes on).
        var exit: Int?
        /// The form taken or stopped at; `-` for a stop on a document that offers none.
        var remediation: String
        var reason: String
    }

    var file: String
    var status: Int
    var document: IDX.Document?
    var outcome: Outcome
    var sent: [String]
    var message: String
    var hint: String?
    var progress: [String]
    /// The named stop, when the walk ended in one.
    var stop: IDX.UnsupportedStep?

    static let introspect = "POST /idp/idx/introspect"

    static func walk(_ file: String, signUp: Bool = false) async -> WidgetScreen {
        let transport = WidgetCorpus.transport(serving: file)
        let progress = Locked<[String]>([])
        var configuration = TestContext.configuration(org: RecordedIdentityEngine.org)
        configuration.clientID = "0ZczewGCFPlxNYYcLq5i"
        // Not a loopback URI: an identity provider's redirect cannot be caught, as in a script on a server.
        configuration.redirectURI = "com.example.app:/callback"
        configuration.scope = "openid profile offline_access"
        let context = TestContext.make(transport: transport, configuration: configuration, messages: progress)
        let error = await failure { () throws(IdFlowError) in
            try await EmbeddedLogin(answers: IDX.AnswerSet(), store: false, signUp: signUp).run(context)
        }
        let document = try? IDX.Document(data: WidgetCorpus.reply(file).body)
        let requests = transport.requests
        // After the introspection, and the same request again when the client retried it (a 429).
        var afterIntrospect = Array(requests.drop { $0.route != introspect }.drop { $0.route == introspect })
        // A new sign-in (after an unlock or a reset) is one step, whatever it then does.
        if let again = afterIntrospect.firstIndex(where: { $0.url.path.hasSuffix("/v1/interact") }) {
            afterIntrospect = Array(afterIntrospect[...again])
        }
        let outcome = classify(error: error, first: afterIntrospect.first, document: document)
        return WidgetScreen(
            file: file, status: WidgetCorpus.status(of: file), document: document, outcome: outcome,
            sent: afterIntrospect.map(\.route), message: error?.message ?? "", hint: error?.hint, progress: progress.current,
            stop: error?.idxUnsupportedStep)
    }

    static func classify(error: IdFlowError?, first: HTTPRequest?, document: IDX.Document?) -> Outcome {
        if let first {
            if first.url.path.hasSuffix("/v1/interact") {
                let key = document?.messages.first?.key ?? "no message"
                return Outcome(kind: .action, remediation: "-", reason: "signs in again, in a new transaction (\(key))")
            }
            if first.url.path.hasSuffix("/v1/token") {
                return Outcome(kind: .action, remediation: "issue", reason: "exchanges the interaction code for tokens")
            }
            let forms = (document?.remediations ?? []) + (document?.capabilities ?? []) + (document?.cancel.map { [$0] } ?? [])
            let form = forms.first { $0.href.path == first.url.path && $0.method.uppercased() == first.method.uppercased() }
            let name = form?.name ?? first.route
            let fields = (first.jsonBody?.objectValue?.keys.sorted() ?? []).filter { $0 != "stateHandle" }
            if form?.refresh != nil { return Outcome(kind: .action, remediation: name, reason: "polls \(name)") }
            let with = fields.isEmpty ? "" : " (\(fields.joined(separator: ", ")))"
            return Outcome(kind: .action, remediation: name, reason: "sends \(name)\(with)")
        }
        guard let error else { return Outcome(kind: .stop, exit: 0, remediation: "-", reason: "ended without a step") }
        if let pending = error.idxPending {
            let names = pending.fields.filter(\.required).map(\.name)
            let fields = names.isEmpty ? pending.fields.map(\.name) : names
            return Outcome(
                kind: .answer, exit: Int(error.exitStatus.rawValue), remediation: pending.remediation,
                reason: fields.isEmpty ? "a form with no fields" : "fields: \(fields.joined(separator: ", "))")
        }
        if let stop = error.idxUnsupportedStep {
            return Outcome(kind: .stop, exit: Int(error.exitStatus.rawValue), remediation: stop.remediation, reason: stop.reason)
        }
        // A stop raised by a screen's own code (consent, FastPass, a passkey) names its remediation in the message:
        // "(consent)", or "challenge-poll: …". The table then shows it on that remediation's row.
        let offered = (document?.remediations ?? []).map(\.name)
        let named = offered.first { error.message.contains("(\($0))") || error.message.hasPrefix("\($0):") }
        return Outcome(kind: .stop, exit: Int(error.exitStatus.rawValue), remediation: named ?? "-", reason: oneLine(error.message))
    }

    static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "|", with: "\\|")
    }

    /// JSON a person would have to read: an object's or array's punctuation around a quoted key.
    static func looksLikeJSON(_ line: String) -> Bool {
        line.contains("{\"") || line.contains("\":") || line.contains("[{")
    }

    /// The authenticator keys a document names: the current one (verified or enrolled) and every listed one.
    var authenticatorKeys: (current: Set<String>, listed: Set<String>) {
        guard let document else { return ([], []) }
        var current = Set<String>()
        for path in ["$.currentAuthenticator", "$.currentAuthenticatorEnrollment"] {
            if let key = document.resolve(path)?["key"]?.stringValue { current.insert(key) }
        }
        var listed = Set<String>()
        for path in ["$.authenticators.value", "$.authenticatorEnrollments.value"] {
            for authenticator in document.resolve(path)?.arrayValue ?? [] {
                if let key = authenticator["key"]?.stringValue { listed.insert(key) }
            }
        }
        return (current, listed.subtracting(current))
    }
}
