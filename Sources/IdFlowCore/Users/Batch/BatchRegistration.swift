import Foundation
import IdFlowFoundation

/// Creates many users from one input (`register --batch`): a few requests in flight at once over the one
/// HTTP client, paced by the server's rate-limit headers, each line's outcome emitted in input order as soon
/// as it and every line before it are done.
public struct BatchRegistration: Sendable {
    /// Where the lines come from.
    public var source: BatchSource
    /// The input's format; nil tells it by the file's extension or first line (`BatchFormat.detect`).
    public var format: BatchFormat?
    /// Lines worked on at once (`--concurrency`), each with at most one request in flight.
    public var concurrency: Int
    /// Activates each user after creating it (PROVISIONED, with its activation token and URL).
    public var activate: Bool
    /// Treats a login that already exists as done: the user is looked up and reported as skipped.
    public var skipExisting: Bool
    /// Stops the batch from taking new lines (SIGINT or SIGTERM in the command, a call in tests).
    public var interruption: BatchInterruption
    /// Ends stderr with the summary as one JSON line (`--summary-json`), for scripts.
    public var summaryJSON: Bool

    public init(
        source: BatchSource, format: BatchFormat? = nil, concurrency: Int = 4, activate: Bool = false, skipExisting: Bool = false,
        interruption: BatchInterruption = BatchInterruption(), summaryJSON: Bool = false
    ) {
        self.summaryJSON = summaryJSON
        self.source = source
        self.format = format
        self.concurrency = concurrency
        self.activate = activate
        self.skipExisting = skipExisting
        self.interruption = interruption
    }

    /// One output line: `{"line", "ok", "user"|"error", "skipped"?, "activationToken"?, "activationUrl"?}`.
    public struct LineResult: Encodable, Sendable, Equatable {
        public var line: Int
        public var ok: Bool
        /// The user as the server returned it (after activation, with `--activate`).
        public var user: JSONValue?
        /// Present (true) when the login existed and `--skip-existing` reported it instead of creating it.
        public var skipped: Bool?
        public var activationToken: String?
        public var activationUrl: String?
        /// The same object as the error line's `error`.
        public var error: ErrorReport.Details?

        static func failed(_ line: Int, _ error: IdFlowError) -> LineResult {
            LineResult(line: line, ok: false, error: ErrorReport(error).error)
        }
    }

    /// What the run did, for the stderr summary and the exit code.
    public struct Summary: Sendable, Equatable {
        public var created = 0
        public var skipped = 0
        public var failed = 0
        /// Lines of the input that name a user or are malformed (blank lines are not counted).
        public var lines = 0
        public var requests = 0
        public var elapsed: Duration = .zero
        public var interrupted = false
        /// The failed lines' exit codes.
        public var failures: [IdFlowExitCode] = []
        /// Set when the org stopped answering mid-run (`BatchOutage`).
        public var outage: Outage?

        /// Where the org stopped answering, and what that left undone.
        public struct Outage: Sendable, Equatable {
            /// The line whose request found the org gone.
            public var line: Int
            /// The transport's words for it ("connection refused").
            public var reason: String
            /// Lines reported as not sent because of it (they count as failed).
            public var notSent: Int

            public init(line: Int, reason: String, notSent: Int) {
                self.line = line
                self.reason = reason
                self.notSent = notSent
            }
        }

        /// 0 when every line succeeded (skips count), 130 when interrupted, else the most severe failure's code.
        public var exitStatus: IdFlowExitCode {
            if interrupted { return .interrupted }
            return BatchRegistration.mostSevere(failures) ?? .success
        }

        /// What the run ends with when not every line succeeded, for the error line that is the last of stderr.
        public var failure: IdFlowError? {
            if interrupted { return .interrupted(text, hint: interruptedHint) }
            guard let status = BatchRegistration.mostSevere(failures) else { return nil }
            return .batchFailed(failed: failed, lines: lines, exitStatus: status, hint: outage.map(Self.outageHint))
        }

        /// Lines done, one way or another: each has its line on stdout.
        private var reported: Int { created + skipped + failed }

        /// The interrupted run's next step, in the terms of `text`: what was created, and that a rerun with
        /// `--skip-existing` finishes without creating anyone twice. Never "nothing was stored" when users were.
        public var interruptedHint: String {
            guard reported > 0 else { return "no line was done, so no user was created; run the same command again" }
            let users = created == 1 ? "1 user was" : "\(created) users were"
            let notRun = max(lines - reported, 0)
            let rest = notRun == 1 ? "1 line was" : "\(notRun) lines were"
            return "\(users) created and \(rest) not run; run the same command again with --skip-existing: users already created are "
                + "looked up and reported as skipped, not created twice"
        }

        private static func outageHint(_ outage: Outage) -> String {
            "the org stopped answering at line \(outage.line) (\(outage.reason)); once it answers again, run the same batch with "
                + "--skip-existing: users already created are looked up and reported as skipped, not created twice"
        }

        /// The human summary line for stderr.
        public var text: String {
            let seconds = elapsed.inSeconds
            let rate = seconds > 0 ? Double(requests) / seconds : 0
            var text = String(
                format: "created %d, skipped %d, failed %d of %d lines in %.1f s (%d requests, %.1f requests/s)", created, skipped,
                failed, lines, seconds, requests, rate)
            if let outage {
                text += "; the org stopped answering at line \(outage.line) (\(outage.reason)), \(outage.notSent) lines not sent"
            }
            if interrupted {
                text +=
                    reported > 0
                    ? "; interrupted after \(reported) lines: rerun with --skip-existing to finish"
                    : "; interrupted before any line was done: no user was created"
            }
            return text
        }
    }

    /// Failures from the most to the least severe: what stops every line (a bug, a refused token, the network,
    /// the server) outranks what concerns one user (not found, rejected, a malformed line).
    static let severity: [IdFlowExitCode] = [
        .internalFailure, .security, .authentication, .localState, .network, .server, .notFound, .rejected, .usage, .denied,
        .timedOut, .registrationRestart, .registrationRetry,
    ]

    /// The code of the most severe failure, nil when there is none.
    public static func mostSevere(_ failures: [IdFlowExitCode]) -> IdFlowExitCode? {
        let present = Set(failures)
        return severity.first(where: present.contains) ?? failures.first
    }

    /// Runs the batch, handing each line's result to `emit` in input order, and returns the summary. Throws only
    /// for what stops the whole batch before any line runs (unreadable input, missing configuration).
    public func run(_ context: IdFlowContext, emit: @escaping @Sendable (LineResult) -> Void) async throws(IdFlowError) -> Summary {
        guard concurrency >= 1 else { throw .invalidInput("--concurrency must be at least 1") }
        let input = try source.read(context)
        let lines = try BatchInput.parse(input, format: format ?? BatchFormat.detect(fileName: source.fileName, data: input))
        var http = context.http
        let outage = BatchOutage()
        let transport = PacedTransport(wrapping: http.transport, interruption: interruption, outage: outage, sleep: http.sleep)
        http.transport = transport
        var batchContext = context
        batchContext.http = http
        let api = try batchContext.usersAPI()
        let line = LineRunner(batch: self, api: api, transport: transport, outage: outage)
        let progress =
            context.console.showsProgress && !context.configuration.quiet
            ? BatchProgress(total: lines.count, erasesInPlace: context.console.erasesLines, write: context.console.standardError) : nil
        let started = ContinuousClock.now

        var summary = Summary(lines: lines.count)
        await withTaskGroup(of: (Int, LineResult?).self) { group in
            var next = 0
            var done: [Int: LineResult?] = [:]
            var flushed = 0
            func startLine() -> Bool {
                guard next < lines.count, !interruption.isTriggered else { return false }
                let index = next
                next += 1
                group.addTask { (index, await line.process(lines[index])) }
                return true
            }
            for _ in 0..<concurrency {
                guard startLine() else { break }
            }
            while let (index, result) = await group.next() {
                done[index] = result
                while flushed < next, let entry = done.removeValue(forKey: flushed) {
                    flushed += 1
                    // nil: the line was abandoned before it sent anything, so it is left for a rerun.
                    guard let entry else { continue }
                    summary.record(entry)
                    emit(entry)
                }
                progress?.update(done: summary.created + summary.skipped + summary.failed, elapsed: ContinuousClock.now - started)
                _ = startLine()
            }
        }
        summary.interrupted = interruption.isTriggered
        if let cause = outage.cause {
            let reason = if case .network(_, let reason, _) = cause.error { reason } else { cause.error.message }
            summary.outage = Summary.Outage(line: cause.line, reason: reason, notSent: outage.notSent)
        }
        summary.requests = transport.requestCount
        summary.elapsed = ContinuousClock.now - started
        progress?.clear()
        context.message(summary.text)
        // Not a message: --quiet silences headlines, and this line is what a script asked for.
        if summaryJSON, let line = try? JSONOutput.encode(BatchSummaryLine(summary), style: .compact) {
            context.console.standardError(line)
        }
        return summary
    }

    /// What each line of one run shares: the flags, the API over the paced transport, and the outage switch.
    private struct LineRunner: Sendable {
        let batch: BatchRegistration
        let api: UsersAPI
        let transport: PacedTransport
        let outage: BatchOutage

        /// One line from start to finish; nil when it was abandoned unsent because the batch was interrupted. Once
        /// the org is found gone, a line not yet sent is reported as not sent, at once.
        func process(_ line: BatchLine) async -> LineResult? {
            let user: BatchUser
            switch line.user {
            case .success(let parsed): user = parsed
            case .failure(let error): return .failed(line.number, error)
            }
            if outage.hasBegun { return notSent(line) }
            let lineStarted = Locked(false)
            return await PacedTransport.$lineStarted.withValue(lineStarted) { () async -> LineResult? in
                do throws(IdFlowError) {
                    return try await batch.register(user, line: line.number, api: api)
                } catch {
                    if batch.interruption.isTriggered, !lineStarted.current { return nil }
                    if outage.hasBegun, !lineStarted.current { return notSent(line) }
                    // Failed after its retries, and the latest request found nobody there: the org is gone.
                    if case .network = error, transport.orgUnreachable { outage.begin(line: line.number, error: error) }
                    return .failed(line.number, error)
                }
            }
        }

        private func notSent(_ line: BatchLine) -> LineResult {
            .failed(line.number, outage.notSentError(orgURL: Redactor.url(api.orgURL.absoluteString)))
        }
    }

    private func register(_ input: BatchUser, line: Int, api: UsersAPI) async throws(IdFlowError) -> LineResult {
        let login = input.login ?? input.email
        let profile = RegisterUser.profile(
            email: input.email, firstName: input.firstName, lastName: input.lastName, login: input.login, attributes: input.attributes)
        var user: OktaUser
        var document: JSONValue
        var skipped = false
        do throws(IdFlowError) {
            (user, document) = try await api.createUser(profile: profile, activate: false)
        } catch {
            guard skipExisting, Self.isExistingLogin(error) else { throw error }
            (user, document) = try await api.user(login)
            skipped = true
        }
        var token: UserActivationToken?
        // A skipped user left STAGED by an interrupted `--activate` run is activated now; one already
        // PROVISIONED keeps the token it was given (`idflow activate --reactivate` issues a new one).
        if activate, user.status == "STAGED" {
            do throws(IdFlowError) {
                token = try await api.activate(userID: user.id, sendEmail: false)
            } catch {
                throw Self.createdButNotActivated(error, userID: user.id)
            }
            (user, document) = try await api.user(user.id)
        }
        return LineResult(
            line: line, ok: true, user: document, skipped: skipped ? true : nil, activationToken: token?.activationToken,
            activationUrl: token?.activationUrl)
    }

    /// Whether a create failed only because the login is taken (E0000001 with Okta's "already exists" cause);
    /// other E0000001 validation errors are real failures.
    static func isExistingLogin(_ error: IdFlowError) -> Bool {
        guard case .okta(_, let body, _) = error, body.errorCode == "E0000001" else { return false }
        return body.causeSummaries.contains { $0.hasPrefix("login:") && $0.localizedCaseInsensitiveContains("already exists") }
    }

    private static func createdButNotActivated(_ error: IdFlowError, userID: String) -> IdFlowError {
        let hint = "the user \(userID) was created but not activated: rerun with --skip-existing --activate"
        switch error {
        case .okta(let status, let body, _): return .okta(status: status, body: body, hint: hint)
        default: return error
        }
    }
}

extension BatchRegistration.Summary {
    mutating func record(_ result: BatchRegistration.LineResult) {
        if !result.ok {
            failed += 1
            if let code = result.error.flatMap({ IdFlowExitCode(rawValue: $0.exitCode) }) { failures.append(code) }
        } else if result.skipped == true {
            skipped += 1
        } else {
            created += 1
        }
    }
}

extension BatchRegistration.LineResult: CompactJSONWritable {
    /// The line as the synthesized `Encodable` conformance gives it (absent optionals left out), through
    /// `JSONValue`'s writer; a failed line's error details are left to the encoder.
    public func compactJSON() -> [UInt8]? {
        guard error == nil else { return nil }
        var members: [String: JSONValue] = ["line": .number(Double(line)), "ok": .bool(ok)]
        if let user { members["user"] = user }
        if let skipped { members["skipped"] = .bool(skipped) }
        if let activationToken { members["activationToken"] = .string(activationToken) }
        if let activationUrl { members["activationUrl"] = .string(activationUrl) }
        return JSONValue.object(members).compactJSON()
    }
}
