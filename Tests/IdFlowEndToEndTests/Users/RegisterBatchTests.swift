import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// `register --batch` run as a runbook would: the built binary against `idflow sandbox`, files, stdin, a
/// rate-limited org and Ctrl-C.
@Suite(.serialized)
struct RegisterBatchTests {
    func write(_ text: String, in sandbox: LiveSandbox, name: String) throws -> String {
        let file = sandbox.home.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    func lines(_ stdout: String) -> [JSONValue] {
        stdout.split(separator: "\n").compactMap { try? JSONValue(data: Data($0.utf8)) }
    }

    func ndjson(_ range: ClosedRange<Int>) -> String {
        range.map { #"{"email":"user\#($0)@example.com","firstName":"User","lastName":"\#($0)"}"# }.joined(separator: "\n") + "\n"
    }

    /// The logins the sandbox holds, with the rate limits off so the listing itself is never throttled.
    func logins(_ sandbox: LiveSandbox) async throws -> Set<String> {
        try await sandbox.call("POST", "/sandbox/rate-limits", json: ["family": "users", "limit": 0])
        let (_, users) = try await sandbox.call("GET", "/api/v1/users?limit=200")
        return Set((users?.arrayValue ?? []).compactMap { $0["profile"]?["login"]?.stringValue })
    }

    @Test func ndjsonFileWithActivateCreatesProvisionedUsersWithTokens() async throws {
        let sandbox = try await LiveSandbox.start()
        let file = try write(ndjson(1...3), in: sandbox, name: "users.ndjson")
        let result = try await sandbox.idflow(["register", "--batch", file, "--activate"])
        #expect(result.exitCode == 0, "\(result)")
        let output = lines(result.stdout)
        #expect(output.map { $0["line"] } == [1, 2, 3])
        for line in output {
            #expect(line["ok"] == true)
            #expect(line["user"]?["status"] == "PROVISIONED")
            let token = try #require(line["activationToken"]?.stringValue)
            #expect(line["activationUrl"]?.stringValue?.contains(token) == true)
        }
        #expect(result.stderr.contains("created 3, skipped 0, failed 0 of 3 lines"))
        // The token works: the chain continues with set-password.
        let token = try #require(output[0]["activationToken"]?.stringValue)
        let set = try await sandbox.idflow(
            ["set-password", "--password-stdin"], stdin: "Str0ng-Passw0rd!", environment: ["IDFLOW_ACTIVATION_TOKEN": token])
        #expect(set.exitCode == 0, "\(set)")
    }

    @Test func csvFromStdinWithAMalformedLineReportsEveryLineAndExits64() async throws {
        let sandbox = try await LiveSandbox.start()
        let csv = "email,firstName,lastName,department\na@example.com,A,Doe,R&D\n\"broken@example.com,B\nc@example.com,C,\"Doe, Jr.\",\n"
        let result = try await sandbox.idflow(["register", "--batch", "-", "--format", "csv"], stdin: csv)
        #expect(result.exitCode == 64, "\(result)")
        let output = lines(result.stdout)
        #expect(output.map { $0["line"] } == [2, 3, 4])
        #expect(output.map { $0["ok"] } == [true, false, true])
        #expect(output[1]["error"]?["kind"] == "invalid_input")
        #expect(output[0]["user"]?["profile"]?["department"] == "R&D")
        #expect(output[2]["user"]?["profile"]?["lastName"] == "Doe, Jr.")
        #expect(try await logins(sandbox) == ["a@example.com", "c@example.com"])
    }

    @Test func orderIsKeptAtConcurrency8() async throws {
        let sandbox = try await LiveSandbox.start()
        let result = try await sandbox.idflow(["register", "--batch", "-", "--concurrency", "8"], stdin: ndjson(1...60))
        #expect(result.exitCode == 0, "\(result)")
        let output = lines(result.stdout)
        #expect(output.map { $0["line"]?.intValue } == Array(1...60))
        #expect(output.map { $0["user"]?["profile"]?["login"]?.stringValue } == (1...60).map { "user\($0)@example.com" })
    }

    @Test func aLowUsersRateLimitIsPacedWithoutA429() async throws {
        let sandbox = try await LiveSandbox.start()
        // 10 requests per 2-second window; the batch needs 25, and no retry is allowed (IDFLOW_MAX_RETRIES=0),
        // so a single 429 would fail its line.
        try await sandbox.call("POST", "/sandbox/rate-limits", json: ["family": "users", "limit": 10, "windowSeconds": 2])
        let started = ContinuousClock.now
        let result = try await sandbox.idflow(["register", "--batch", "-", "--concurrency", "8"], stdin: ndjson(1...25))
        #expect(result.exitCode == 0, "\(result)")
        let output = lines(result.stdout)
        #expect(output.count == 25)
        #expect(output.allSatisfy { $0["ok"] == true })
        // Not a substring search for "429": a user's timestamps (….429Z) or id may hold those digits.
        #expect(output.allSatisfy { $0["error"] == nil }, "no line met a 429")
        #expect(result.stderr.contains("(25 requests,"), "one request a user: nothing was refused and sent again")
        #expect(ContinuousClock.now - started >= .seconds(4), "three windows of ten")
        #expect(try await logins(sandbox).count == 25)
    }

    /// Returns once the users family's window at `sandbox` has counted a request of the batch (the admin API that
    /// asks is never rate-limited itself). Bounded by a number of polls, not by this machine's clock; a batch that
    /// never starts leaves the caller's own checks to fail.
    func waitUntilTheBatchHasSent(to sandbox: LiveSandbox, withinALimitOf limit: Int) async throws {
        for _ in 0..<1_500 {
            let (_, limits) = try await sandbox.call("GET", "/sandbox/rate-limits")
            if let remaining = limits?["users"]?["remaining"]?.intValue, remaining < limit { return }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Ctrl-C and SIGTERM (a CI job's timeout, `kill`, a service manager) end the run the same way.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalFinishesWhatIsUnderWayAndARerunWithSkipExistingCompletes(signal: Int32) async throws {
        let sandbox = try await LiveSandbox.start()
        // Slow the run down: 10 users per 3-second window, so it is still running when interrupted.
        try await sandbox.call("POST", "/sandbox/rate-limits", json: ["family": "users", "limit": 10, "windowSeconds": 3])
        let file = try write(ndjson(1...80), in: sandbox, name: "users.ndjson")
        let session = try InteractiveSession.start(["register", "--batch", file, "--concurrency", "4"], environment: sandbox.environment)
        try await waitUntilTheBatchHasSent(to: sandbox, withinALimitOf: 10)
        try await Task.sleep(for: .milliseconds(500))
        kill(session.processIdentifier, signal)
        let interrupted = try await session.finish(timeout: .seconds(20))
        #expect(interrupted.exitCode == 130, "\(interrupted)")
        let first = lines(interrupted.stdout)
        #expect(!first.isEmpty && first.count < 80)
        let numbers = first.compactMap { $0["line"]?.intValue }
        #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count, "what completed, in input order")
        #expect(first.allSatisfy { $0["ok"] == true })
        #expect(interrupted.stderr.contains("interrupted after \(first.count) lines"))
        // The error line ends stderr, and its hint says what the message says: users were created, rerun with --skip-existing.
        #expect(interrupted.error?["kind"] == "interrupted")
        let hint = interrupted.error?["hint"]?.stringValue ?? ""
        #expect(hint.contains("\(first.count) users were created") && hint.contains("--skip-existing"), "\(hint)")
        #expect(!hint.contains("nothing was stored"))
        let reported = Set(first.compactMap { $0["user"]?["profile"]?["login"]?.stringValue })
        #expect(try await logins(sandbox) == reported, "every user created was reported, nothing else was created")

        let rerun = try await sandbox.idflow(["register", "--batch", file, "--skip-existing", "--concurrency", "8"])
        #expect(rerun.exitCode == 0, "\(rerun)")
        let second = lines(rerun.stdout)
        #expect(second.map { $0["line"]?.intValue } == Array(1...80))
        #expect(second.allSatisfy { $0["ok"] == true })
        let skipped = second.filter { $0["skipped"] == true }
        #expect(Set(skipped.compactMap { $0["user"]?["profile"]?["login"]?.stringValue }) == reported)
        #expect(Set(skipped.compactMap { $0["user"]?["id"] }) == Set(first.compactMap { $0["user"]?["id"] }), "the same users, looked up")
        #expect(try await logins(sandbox).count == 80)
    }

    /// The org goes away mid-batch (the sandbox killed, as in a real outage): every line is still reported, those
    /// not yet sent at once instead of each spending a retry budget against nobody, and the run ends with the
    /// batch's error line and exit 6. The timeout only keeps a broken build from hanging the suite.
    @Test func anOrgThatGoesAwayMidBatchGetsEveryLineReportedAndExit6() async throws {
        let sandbox = try await LiveSandbox.start()
        // 40 users a second, so the batch is well under way, and far from done, when the org goes away.
        try await sandbox.call("POST", "/sandbox/rate-limits", json: ["family": "users", "limit": 40, "windowSeconds": 1])
        let count = 1000
        let file = try write(ndjson(1...count), in: sandbox, name: "users.ndjson")
        var environment = sandbox.environment
        environment["IDFLOW_MAX_RETRIES"] = "3"
        let session = try InteractiveSession.start(["register", "--batch", file, "--concurrency", "2"], environment: environment)
        try await waitUntilTheBatchHasSent(to: sandbox, withinALimitOf: 40)
        try await Task.sleep(for: .milliseconds(1500))
        kill(sandbox.process.processIdentifier, SIGKILL)
        try await LiveSandbox.exit(of: sandbox.process)

        let result = try await session.finish(timeout: .seconds(300))
        #expect(result.exitCode == 6, "\(result.stderr)")
        let output = lines(result.stdout)
        #expect(output.map { $0["line"]?.intValue } == Array(1...count), "one line for every input line, in input order")
        let created = output.filter { $0["ok"] == true }
        #expect(!created.isEmpty && created.count < count, "the org answered for a while: \(created.count)")
        let failed = output.filter { $0["ok"] == false }
        #expect(failed.allSatisfy { $0["error"]?["kind"] == "network" && $0["error"]?["exitCode"] == 6 })
        let unsent = failed.filter { $0["error"]?["message"]?.stringValue?.contains("this line was not sent") == true }
        #expect(unsent.count >= failed.count - 4, "only the lines under way (and their retries) were sent: \(failed.count - unsent.count)")
        let firstUnsent = try #require(unsent.first?["line"]?.intValue)
        let unsentLines = Set(unsent.compactMap { $0["line"]?.intValue })
        let sentLater = (firstUnsent...count).filter { !unsentLines.contains($0) }
        #expect(sentLater.count <= 2, "once the org was found gone only lines already under way were sent: \(sentLater)")
        #expect(result.stderr.contains("the org stopped answering at line"), "\(result.stderr)")
        #expect(result.stderr.contains("created \(created.count), skipped 0, failed \(failed.count) of \(count) lines"))
        let error = try #require(result.error)
        #expect(error["kind"] == "batch_failed" && error["exitCode"] == 6)
        let hint = error["hint"]?.stringValue ?? ""
        #expect(hint.contains("stopped answering") && hint.contains("--skip-existing"), "\(hint)")
    }

    /// What a script gets: `--quiet --summary-json` leaves stderr the summary line and, the batch having failed a
    /// line, the error line every failed run ends with; a piped stderr never gets terminal control sequences.
    @Test func quietWithSummaryJSONLeavesOneJSONLineOnStderr() async throws {
        let sandbox = try await LiveSandbox.start()
        let input = ndjson(1...3) + #"{"email":"user2@example.com"}"# + "\n"
        let result = try await sandbox.idflow(["--quiet", "register", "--batch", "-", "--summary-json"], stdin: input)
        #expect(result.exitCode == 3, "the duplicate fails its line: \(result)")
        #expect(lines(result.stdout).count == 4, "stdout keeps one line per input line")
        let stderr = result.stderr.split(separator: "\n")
        #expect(stderr.count == 2, "\(result.stderr)")
        #expect(result.error?["kind"] == "batch_failed")
        let summary = try #require(try JSONValue(data: Data((stderr.first ?? "").utf8))["summary"])
        #expect(summary["lines"] == 4)
        #expect(summary["created"] == 3)
        #expect(summary["failed"] == 1)
        #expect(summary["skipped"] == 0)
        #expect(summary["exitCode"] == 3)
        #expect(summary["interrupted"] == false)
        #expect(summary["notRun"] == 0)

        let loud = try await sandbox.idflow(["register", "--batch", "-", "--skip-existing"], stdin: ndjson(1...3))
        #expect(loud.exitCode == 0, "\(loud)")
        #expect(loud.stderr.contains("created 0, skipped 3, failed 0 of 3 lines"))
        #expect(!loud.stderr.contains("\u{1B}") && !loud.stderr.contains("\r"), "no progress drawing into a pipe")
    }

    /// At a terminal that cannot erase (`TERM=dumb`, an Emacs shell) the bar is drawn with a carriage return and
    /// spaces, never `ESC[K`.
    @Test func aDumbTerminalGetsProgressWithoutEscapeSequences() async throws {
        let sandbox = try await LiveSandbox.start()
        let file = try write(ndjson(1...5), in: sandbox, name: "users.ndjson")
        var environment = sandbox.environment
        environment["TERM"] = "dumb"
        let session = try InteractiveSession.startInTerminal(["register", "--batch", file], environment: environment)
        let result = try await session.finish()
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.contains("[####################]  5/5"), "the bar was drawn: \(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"), "\(result.stderr.debugDescription)")
        #expect(result.stderr.contains("created 5, skipped 0, failed 0 of 5 lines"))
    }
}
