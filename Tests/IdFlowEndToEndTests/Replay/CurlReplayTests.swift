import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// `--curl-file`: a command run against the sandbox leaves a script that bash runs against the same sandbox,
/// with the secrets exported as the script's header asks, sending the same requests: one test per family.
@Suite(.serialized)
struct CurlReplayTests {
    static let password = "Str0ng-Passw0rd!"

    /// What a replay printed and saved: each request's status and its answer.
    struct Replay: CustomStringConvertible {
        var status: Int32
        var statuses: [Int]
        var answers: [Int: JSONValue]
        var headers: [Int: String]
        var script: String
        var standardError: String

        var description: String { "replay exit \(status), statuses \(statuses)\n\(standardError)\n--- script\n\(script)" }
    }

    /// The script of one run: its text, the variables it declares, and that none of `secrets` is spelled out.
    func script(_ file: URL, withoutAny secrets: [String]) throws -> String {
        let text = try String(contentsOf: file, encoding: .utf8)
        for secret in secrets where !secret.isEmpty { #expect(!text.contains(secret), "a secret is in the script:\n\(text)") }
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        return text
    }

    /// The variables the script reads from the environment, in the order it declares them.
    func declared(_ script: String) -> [String] {
        script.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("export "), line.contains(":?") else { return nil }
            return line.dropFirst("export ".count).split(separator: "=").first.map(String.init)
        }
    }

    func replay(_ script: String, in sandbox: LiveSandbox, exporting secrets: [String: String]) async throws -> Replay {
        try await replay(script, in: sandbox.home.appendingPathComponent("replay-\(UUID().uuidString)"), exporting: secrets)
    }

    /// The value of a variable idflow made for the run (the PKCE verifier), as the comment after the request that
    /// spent it gives it: `# PKCE_VERIFIER of this run, spent by request 5 (…): export PKCE_VERIFIER='…'`.
    func spentValue(_ script: String, _ name: String) -> String? {
        let marker = "export \(name)='"
        for line in script.split(separator: "\n") where line.hasPrefix("# \(name) of this run, spent by request") {
            guard let start = line.range(of: marker) else { continue }
            return String(line[start.upperBound...].dropLast())
        }
        return nil
    }

    func curlFile(_ sandbox: LiveSandbox, _ name: String) -> URL {
        sandbox.home.appendingPathComponent("\(name).curl.sh")
    }

    /// Users family: the replayed `register` sends the same user again, and the sandbox says it exists.
    @Test func registerReplaysTheSameCreation() async throws {
        let sandbox = try await LiveSandbox.start()
        let file = curlFile(sandbox, "register")
        let registered = try await sandbox.idflow([
            "register", "--email", "replay@example.com", "--first-name", "Re", "--curl-file", file.path,
        ])
        #expect(registered.exitCode == 0, "\(registered)")
        let text = try script(file, withoutAny: [sandbox.apiToken])
        #expect(declared(text) == ["OKTA_CLIENT_TOKEN"])
        #expect(text.contains("# → 200"))
        let replayed = try await replay(text, in: sandbox, exporting: ["OKTA_CLIENT_TOKEN": sandbox.apiToken])
        #expect(replayed.status == 0, "\(replayed)")
        #expect(replayed.statuses == [400], "\(replayed)")
        #expect(replayed.answers[1]?["errorCode"] == "E0000001", "the same login, already taken: \(replayed)")
        // With the login changed in the script, the replay creates a second user as the run did.
        let other = try await replay(
            text.replacingOccurrences(of: "replay@example.com", with: "replay2@example.com"), in: sandbox,
            exporting: ["OKTA_CLIENT_TOKEN": sandbox.apiToken])
        #expect(other.statuses == [200], "\(other)")
        #expect(other.answers[1]?["profile"]?["login"] == "replay2@example.com")
        #expect(other.answers[1]?["profile"]?["firstName"] == "Re")
        #expect(other.answers[1]?["status"] == registered.jsonOrNull["status"])
    }

    /// Authn family: `activate`, then `set-password` replayed for another user's activation token.
    @Test func activateAndSetPasswordReplay() async throws {
        let sandbox = try await LiveSandbox.start()
        var ids: [String] = []
        for login in ["first@example.com", "second@example.com"] {
            ids.append(try #require(try await sandbox.idflow(["register", "--email", login]).json()["id"]?.stringValue))
        }
        let activateFile = curlFile(sandbox, "activate")
        let activated = try await sandbox.idflow(["activate", "--user", ids[0], "--curl-file", activateFile.path])
        #expect(activated.exitCode == 0, "\(activated)")
        let firstToken = try #require(try activated.json()["activationToken"]?.stringValue)
        let activateScript = try script(activateFile, withoutAny: [sandbox.apiToken, firstToken])
        // The activation token the answer carried is named, and said where it came from.
        #expect(activateScript.contains("ACTIVATION_TOKEN: .activationToken of the answer above"), "\(activateScript)")

        let setFile = curlFile(sandbox, "set-password")
        let set = try await sandbox.idflow(
            ["set-password", "--password-stdin", "--curl-file", setFile.path], stdin: Self.password,
            environment: ["IDFLOW_ACTIVATION_TOKEN": firstToken])
        #expect(set.exitCode == 0, "\(set)")
        let sessionToken = try #require(try set.json()["sessionToken"]?.stringValue)
        let setScript = try script(setFile, withoutAny: [firstToken, Self.password, sessionToken])
        #expect(setScript.contains("STATE_TOKEN: .stateToken of the answer above"), "\(setScript)")

        // The activate script, pointed at the second user, activates them: its token then drives set-password.
        let (firstID, secondID) = (ids[0], ids[1])
        let replayedActivate = try await replay(
            activateScript.replacingOccurrences(of: firstID, with: secondID), in: sandbox,
            exporting: ["OKTA_CLIENT_TOKEN": sandbox.apiToken])
        #expect(replayedActivate.statuses.allSatisfy { $0 == 200 }, "\(replayedActivate)")
        let tokens = replayedActivate.answers.values.compactMap { $0["activationToken"]?.stringValue }
        let secondToken = try #require(tokens.first, "\(replayedActivate)")

        var secrets = ["PASSWORD": Self.password, "NEW_PASSWORD": Self.password]
        for name in declared(setScript) where name.contains("TOKEN") { secrets[name] = secondToken }
        let replayedSet = try await replay(setScript, in: sandbox, exporting: secrets)
        #expect(replayedSet.status == 0, "\(replayedSet)")
        #expect(replayedSet.statuses.allSatisfy { $0 == 200 }, "\(replayedSet)")
        let last = try #require(replayedSet.answers[replayedSet.statuses.count])
        #expect(last["status"] == "SUCCESS", "\(replayedSet)")
        #expect(last["_embedded"]?["user"]?["profile"]?["login"] == "second@example.com")
        let (_, after) = try await sandbox.call("GET", "/api/v1/users/\(secondID)")
        #expect(after?["status"] == "ACTIVE", "the replay set the second user's password")
    }

    /// OAuth family: `login-pkce --username` replayed signs in again (a new session token, a new code) and, with
    /// the run's PKCE verifier the script gives once its code was redeemed, redeems the new code: the replay ends
    /// with tokens for the same user. Without it (another verifier) the exchange fails as it must. Then the stored
    /// login's `userinfo`, replayed with `ACCESS_TOKEN`, answers the same claims.
    @Test func loginPKCEAndUserinfoReplay() async throws {
        let sandbox = try await LiveSandbox.start()
        _ = try await sandbox.createActiveUser(email: "pk@example.com", password: Self.password)
        let file = curlFile(sandbox, "login")
        // --verbose too: both on stderr, neither shows the password.
        let login = try await sandbox.idflow(
            ["login-pkce", "--username", "pk@example.com", "--password-stdin", "--curl-file", file.path, "--verbose"], stdin: Self.password)
        #expect(login.exitCode == 0, "\(login)")
        #expect(!login.stderr.contains(Self.password))
        let accessToken = try #require(try await sandbox.idflow(["token", "get"]).json()["access_token"]?.stringValue)
        let text = try script(file, withoutAny: [Self.password, accessToken])
        #expect(declared(text).contains("PASSWORD"), "\(text)")
        #expect(declared(text).contains("PKCE_VERIFIER"), "\(text)")
        #expect(text.contains("SESSION_TOKEN: .sessionToken of the answer above"), "\(text)")
        #expect(text.contains("AUTHORIZATION_CODE: code= in the Location of the answer above"), "\(text)")

        // The verifier is said only after the request that spent it, and only in a comment: the declaration still
        // stops a replay that was not given one.
        let verifier = try #require(spentValue(text, "PKCE_VERIFIER"), "\(text)")
        #expect(verifier.count >= 43)
        let exchange = try #require(text.range(of: "code_verifier"), "\(text)")
        let spentComment = try #require(
            text.range(of: "# PKCE_VERIFIER of this run, spent by request", range: exchange.upperBound..<text.endIndex))
        #expect(text.contains(#"export PKCE_VERIFIER="${PKCE_VERIFIER:?"#), "\(text)")
        #expect(spentComment.lowerBound > exchange.upperBound)

        let replayed = try await replay(text, in: sandbox, exporting: ["PASSWORD": Self.password, "PKCE_VERIFIER": verifier])
        #expect(replayed.status == 0, "\(replayed)")
        let authn = try #require(replayed.answers.first { $0.value["sessionToken"] != nil }, "\(replayed)")
        #expect(authn.value["status"] == "SUCCESS")
        let redirect = try #require(replayed.headers.first { $0.value.lowercased().contains("location:") }, "\(replayed)")
        #expect(redirect.value.contains("code="), "a new code for the new session")
        #expect(replayed.statuses.last == 200, "the new code redeemed with the run's verifier: \(replayed)")
        let tokens = try #require(replayed.answers[replayed.statuses.count])
        let replayedToken = try #require(tokens["access_token"]?.stringValue, "\(replayed)")
        #expect(replayedToken != accessToken, "new tokens, for a new sign-in")
        #expect(tokens["id_token"]?.stringValue != nil)
        let verified = try await sandbox.idflow(["token", "verify", "-"], stdin: replayedToken)
        #expect(verified.exitCode == 0, "\(verified)")
        let stored = try await sandbox.idflow(["token", "verify"]).json()
        #expect(try verified.json()["claims"]?["sub"] == stored["claims"]?["sub"], "the same user: \(verified)")

        let wrong = try await replay(
            text, in: sandbox, exporting: ["PASSWORD": Self.password, "PKCE_VERIFIER": "not-the-verifier-idflow-made-0123456789abcdef"])
        #expect(wrong.statuses.last == 400, "the code is redeemed with a verifier that does not match: \(wrong)")
        #expect(wrong.answers[wrong.statuses.count]?["error"] == "invalid_grant")

        let userinfoFile = curlFile(sandbox, "userinfo")
        let userinfo = try await sandbox.idflow(["userinfo", "--curl-file", userinfoFile.path])
        #expect(userinfo.exitCode == 0, "\(userinfo)")
        let userinfoScript = try script(userinfoFile, withoutAny: [accessToken])
        #expect(declared(userinfoScript).contains("ACCESS_TOKEN"), "\(userinfoScript)")
        let replayedUserinfo = try await replay(userinfoScript, in: sandbox, exporting: ["ACCESS_TOKEN": accessToken])
        #expect(replayedUserinfo.statuses.last == 200, "\(replayedUserinfo)")
        let claims = try #require(replayedUserinfo.answers[replayedUserinfo.statuses.count])
        #expect(claims["sub"] == userinfo.jsonOrNull["sub"])
        #expect(claims["email"] == "pk@example.com")
    }

    /// Identity Engine: the embedded sign-in's script carries the interaction handle, the state handle and the
    /// interaction code from answer to answer; replayed with the run's verifier, it signs in again to the tokens.
    @Test func embeddedSignInReplaysToTheTokens() async throws {
        let sandbox = try await LiveSandbox.start()
        _ = try await sandbox.createActiveUser(email: "idx@example.com", password: Self.password)
        let file = curlFile(sandbox, "embedded")
        let login = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--username", "idx@example.com", "--password-stdin", "--curl-file", file.path],
            stdin: Self.password)
        #expect(login.exitCode == 0, "\(login)")
        let text = try script(file, withoutAny: [Self.password])
        #expect(declared(text).sorted() == ["PASSCODE", "PKCE_VERIFIER"], "\(text)")
        #expect(text.contains("STATE_HANDLE: .stateHandle of the answer above"), "\(text)")
        #expect(text.contains("INTERACTION_CODE: .successWithInteractionCode"), "\(text)")
        let verifier = try #require(spentValue(text, "PKCE_VERIFIER"), "\(text)")
        let replayed = try await replay(text, in: sandbox, exporting: ["PASSCODE": Self.password, "PKCE_VERIFIER": verifier])
        #expect(replayed.status == 0, "\(replayed)")
        #expect(replayed.answers.values.contains { $0["successWithInteractionCode"] != nil }, "signed in again: \(replayed)")
        #expect(replayed.statuses.allSatisfy { $0 == 200 }, "\(replayed)")
        #expect(replayed.answers[replayed.statuses.count]?["access_token"]?.stringValue != nil, "\(replayed)")
        let wrong = try await replay(
            text, in: sandbox, exporting: ["PASSCODE": Self.password, "PKCE_VERIFIER": "not-the-verifier-idflow-made-0123456789abcdef"])
        #expect(wrong.statuses.last == 400, "the code redeemed with another verifier: \(wrong)")
    }

    /// `--curl` writes to stderr and IDFLOW_CURL=1 is the same; the stream is the script bash can run.
    @Test func curlOnStderrIsTheSameScript() async throws {
        let sandbox = try await LiveSandbox.start()
        // --quiet: no headline on stderr, so stderr is the script alone.
        let registered = try await sandbox.idflow(["register", "--email", "err@example.com", "--quiet"], environment: ["IDFLOW_CURL": "1"])
        #expect(registered.exitCode == 0, "\(registered)")
        #expect(registered.stderr.contains("#!/usr/bin/env bash"))
        #expect(registered.stderr.contains("export OKTA_CLIENT_TOKEN=\"${OKTA_CLIENT_TOKEN:?"))
        #expect(!registered.stderr.contains(sandbox.apiToken))
        #expect(registered.stderr.hasPrefix("#!/usr/bin/env bash"), "\(registered)")
        let replayed = try await replay(registered.stderr, in: sandbox, exporting: ["OKTA_CLIENT_TOKEN": sandbox.apiToken])
        #expect(replayed.statuses == [400], "\(replayed)")
    }
}

extension IdFlowBinary.Result {
    fileprivate var jsonOrNull: JSONValue { (try? json()) ?? .null }
}
