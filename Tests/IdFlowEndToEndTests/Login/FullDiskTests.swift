import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// A state directory that cannot take a write never costs the login, against `idflow sandbox` with the built
/// binary. The fault is a file-size limit (`ulimit -f 0`, or `prlimit` on the running process), which holds for
/// root too: every write past it fails with EFBIG (idflow ignores SIGXFSZ), as on a full disk.
@Suite(.serialized)
struct FullDiskTests {
    func loggedIn(_ email: String = "disk@example.com") async throws -> (LiveSandbox, JSONValue) {
        try await LiveSandbox.loggedIn(email)
    }

    func profileDirectory(_ sandbox: LiveSandbox) -> URL { sandbox.stateDirectory.appendingPathComponent("profiles/default") }

    func stored(_ sandbox: LiveSandbox) throws -> JSONValue { try sandbox.storedLogin() }

    func leftovers(_ sandbox: LiveSandbox) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: profileDirectory(sandbox).path).filter {
            $0 != "tokens.json" && $0 != "tokens.lock"
        }
    }

    /// `idflow arguments…` under `ulimit -f 0`, with `stdin` piped in (the pipe is set up before the limit);
    /// `environment` entries override (or, with "", remove) the sandbox's.
    func idflowWithoutRoom(_ sandbox: LiveSandbox, _ arguments: [String], stdin: String = "", environment overrides: [String: String] = [:])
        async throws -> IdFlowBinary.Result
    {
        var environment = sandbox.environment.merging(overrides) { $1 }.filter { !$0.value.isEmpty }
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        environment["TEXT_FOR_STDIN"] = stdin
        let run = try await ExternalCommand.run(
            "/bin/bash", ["-c", #"printf %s "$TEXT_FOR_STDIN" | { ulimit -f 0; exec "$0" "$@"; }"#, IdFlowBinary.url.path] + arguments,
            environment: environment)
        return IdFlowBinary.Result(exitCode: run.status, stdout: run.output, stderr: run.standardError)
    }

    /// Moves the sandbox's clock past the 30-second grace period: a refresh token the server replaced is dead from now on.
    func endTheGracePeriod(_ sandbox: LiveSandbox) async throws {
        try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": .number(120)])
    }

    @Test func refreshIsRefusedBeforeTheGrantWhenTheStoreCannotTakeTheWrite() async throws {
        let (sandbox, _) = try await loggedIn()
        let before = try stored(sandbox)
        let refused = try await idflowWithoutRoom(sandbox, ["refresh"])
        #expect(refused.exitCode == 12, "\(refused)")
        #expect(refused.stdout.isEmpty)
        let message = refused.error?["message"]?.stringValue ?? ""
        #expect(message.contains("cannot take a write"), "\(refused)")
        #expect(message.contains("File too large"), "\(refused)")
        #expect(message.contains("no tokens were asked for"), "\(refused)")
        #expect(refused.error?["hint"]?.stringValue?.contains("ulimit -f") == true)
        #expect(try stored(sandbox) == before)
        #expect(try leftovers(sandbox).isEmpty)

        // With stderr going to a file the limit covers too, nothing can be said, but the run still ends with its code.
        var environment = sandbox.environment
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        environment["LOG"] = sandbox.home.appendingPathComponent("refresh.log").path
        let quiet = try await ExternalCommand.run(
            "/bin/bash", ["-c", #"ulimit -f 0; exec "$0" refresh 2>"$LOG""#, IdFlowBinary.url.path], environment: environment)
        #expect(quiet.status == 12, "\(quiet.standardError)")

        // Long past the grace period the stored token still refreshes: the refused run never made the grant.
        try await endTheGracePeriod(sandbox)
        let next = try await sandbox.idflow(["refresh"])
        #expect(next.exitCode == 0, "\(next)")
    }

    /// The same check holds for every command that receives tokens: a login, and `token get` refreshing a stale token.
    @Test func loginsAndTokenGetCheckTheStoreBeforeTheGrantToo() async throws {
        let (sandbox, _) = try await loggedIn()
        let before = try stored(sandbox)
        let (_, otherSession) = try await sandbox.createActiveUser(email: "other@example.com")
        let login = try await idflowWithoutRoom(sandbox, ["login-pkce", "--session-token-stdin"], stdin: otherSession)
        #expect(login.exitCode == 12, "\(login)")
        #expect(login.error?["message"]?.stringValue?.contains("cannot take a write") == true, "\(login)")
        let get = try await idflowWithoutRoom(sandbox, ["token", "get", "--min-ttl", "86400"])
        #expect(get.exitCode == 12, "\(get)")
        #expect(get.error?["message"]?.stringValue?.contains("cannot take a write") == true, "\(get)")
        #expect(try stored(sandbox) == before, "the stored login is unchanged")
        #expect(try leftovers(sandbox).isEmpty)
        try await endTheGracePeriod(sandbox)
        #expect(try await sandbox.idflow(["refresh"]).exitCode == 0)
    }

    /// A service app's token is not a login: one that cannot be cached is used for the run all the same (the next
    /// run asks for another). `login-client`, which stores its token as the profile's login, is refused first.
    @Test func aServiceAppTokenThatCannotBeCachedIsStillUsed() async throws {
        let sandbox = try await LiveSandbox.start()
        let mode = try ServiceAppTests.privateKeyMode(sandbox)
        let registered = try await idflowWithoutRoom(sandbox, ["register", "--email", "cache@example.com"], environment: mode)
        #expect(registered.exitCode == 0, "\(registered)")
        #expect(try registered.json()["status"] == "STAGED")
        #expect(registered.stderr.contains("the service app's token could not be cached"), "\(registered)")
        #expect(registered.stderr.contains("File too large"), "\(registered)")

        let login = try await idflowWithoutRoom(sandbox, ["login-client", "--issuer", sandbox.orgURL], environment: mode)
        #expect(login.exitCode == 12, "\(login)")
        #expect(login.error?["message"]?.stringValue?.contains("cannot take a write") == true, "\(login)")
        let withRoom = try await sandbox.idflow(["login-client", "--issuer", sandbox.orgURL], environment: mode)
        #expect(withRoom.exitCode == 0, "with room, the same command works: \(withRoom)")
    }

    /// The limit comes while the grant is in flight, after the check passed: neither tokens.json nor a recovery file
    /// can be written, so the rotated tokens are printed on stderr, labelled; saved as the hint says, they keep the
    /// login after the old refresh token has died.
    @Test func aLimitAfterTheGrantPrintsTheTokensAndTheLoginSurvives() async throws {
        let (sandbox, login) = try await loggedIn()
        let old = try #require(login["refresh_token"]?.stringValue)
        let before = try stored(sandbox)
        // The grant is held by the sandbox until the limit is set, however long a loaded machine takes to set it.
        let hold = try await sandbox.holdNextRequest(to: "/oauth2/default/v1/token")
        let session = try InteractiveSession.start(["refresh", "--verbose"], environment: sandbox.environment)
        _ = try await session.waitForStderrLine { $0.contains("> POST") && $0.contains("/v1/token") }
        let limited = try await ExternalCommand.run("/usr/bin/prlimit", ["--pid", String(session.processIdentifier), "--fsize=0"])
        try #require(limited.status == 0, "prlimit: \(limited.standardError)")
        try await sandbox.release(hold)
        let failed = try await session.finish()
        #expect(failed.exitCode == 12, "\(failed)")
        #expect(failed.stdout.isEmpty)
        let message = failed.error?["message"]?.stringValue ?? ""
        #expect(message.contains("File too large"), "\(failed)")
        #expect(message.contains("nor to a recovery file"), "\(failed)")
        #expect(message.contains("the login is lost unless they are kept"), "\(failed)")
        #expect(try stored(sandbox) == before)
        #expect(try leftovers(sandbox).isEmpty, "no temporary file is left")

        let lines = failed.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let begin = try #require(lines.firstIndex { $0.hasPrefix("----- BEGIN IDFLOW TOKENS OF PROFILE default") }, "\(failed)")
        let end = try #require(lines.firstIndex { $0.hasPrefix("----- END IDFLOW TOKENS OF PROFILE default") }, "\(failed)")
        let printed = lines[(begin + 1)..<end].joined(separator: "\n")
        let rotated = try #require(try JSONValue(data: Data(printed.utf8))["tokens"]?["refresh_token"]?.stringValue)
        #expect(rotated != old, "the sandbox rotated the refresh token")
        let file = try #require(lines[begin].components(separatedBy: "save them as ").last?.components(separatedBy: " -----").first)
        #expect(failed.error?["hint"]?.stringValue?.contains(file) == true)

        // The old token dies; the user saves the printed lines where the hint says, and refreshes.
        try await endTheGracePeriod(sandbox)
        let saved = try await ExternalCommand.run(
            "/bin/bash", ["-c", #"umask 077; printf '%s\n' "$1" > "$0""#, file, printed])
        try #require(saved.status == 0, "\(saved.standardError)")
        let next = try await sandbox.idflow(["refresh"])
        #expect(next.exitCode == 0, "\(next)")
        #expect(try next.json()["refresh_token"]?.stringValue != rotated, "the recovered token was rotated in turn")
        #expect(try stored(sandbox)["tokens"]?["refresh_token"] == (try next.json()["refresh_token"]))
        #expect(try leftovers(sandbox).isEmpty, "the recovery file went back into tokens.json")
    }

    /// tokens.json cannot be replaced after the grant (a folder took its place while the grant was in flight), but the
    /// folder around it can still be written: the rotated tokens are kept in a 0600 recovery file, the error says
    /// where and that the login is at risk, and the next refresh takes the tokens from it.
    @Test func aStoreThatCannotBeReplacedAfterTheGrantLeavesARecoveryFile() async throws {
        let (sandbox, login) = try await loggedIn()
        let old = try #require(login["refresh_token"]?.stringValue)
        let tokensFile = profileDirectory(sandbox).appendingPathComponent("tokens.json")
        let hold = try await sandbox.holdNextRequest(to: "/oauth2/default/v1/token")
        let session = try InteractiveSession.start(["refresh", "--verbose"], environment: sandbox.environment)
        _ = try await session.waitForStderrLine { $0.contains("> POST") && $0.contains("/v1/token") }
        let aside = profileDirectory(sandbox).appendingPathComponent("tokens.json.aside")
        try FileManager.default.moveItem(at: tokensFile, to: aside)
        try FileManager.default.createDirectory(at: tokensFile.appendingPathComponent("obstacle"), withIntermediateDirectories: true)
        try await sandbox.release(hold)
        let failed = try await session.finish()
        #expect(failed.exitCode == 12, "\(failed)")
        let message = failed.error?["message"]?.stringValue ?? ""
        #expect(message.contains("could not be saved to \(tokensFile.path)"), "\(failed)")
        #expect(message.contains("at risk"), "\(failed)")
        #expect(!failed.stderr.contains("BEGIN IDFLOW TOKENS"), "a recovery file was written, so nothing is printed")

        let left = try leftovers(sandbox)
        let recoveries = left.filter { $0.hasPrefix("tokens.recovery-") }
        try #require(recoveries.count == 1, "\(left)")
        let recovery = profileDirectory(sandbox).appendingPathComponent(recoveries[0])
        #expect(message.contains(recovery.path))
        #expect(failed.error?["hint"]?.stringValue?.contains("idflow refresh") == true)
        let mode = (try FileManager.default.attributesOfItem(atPath: recovery.path)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
        let rotated = try #require(try JSONValue(data: Data(contentsOf: recovery))["tokens"]?["refresh_token"]?.stringValue)
        #expect(rotated != old)

        // The fault goes away (the old tokens.json comes back), the old token dies, and refresh goes on from the
        // recovered one.
        try FileManager.default.removeItem(at: tokensFile)
        try FileManager.default.moveItem(at: aside, to: tokensFile)
        try await endTheGracePeriod(sandbox)
        let next = try await sandbox.idflow(["refresh"])
        #expect(next.exitCode == 0, "\(next)")
        #expect(next.stderr.contains("are back in \(tokensFile.path)"), "\(next)")
        #expect(try stored(sandbox)["tokens"]?["refresh_token"] == (try next.json()["refresh_token"]))
        #expect(try leftovers(sandbox).isEmpty)
    }
}
