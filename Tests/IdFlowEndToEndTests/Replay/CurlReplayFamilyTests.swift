import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// The command families whose scripts need more than one bash run: push sign-in, `register --idp`,
/// `token introspect` and `register --batch`, each replayed against the sandbox that answered the run.
extension CurlReplayTests {
    /// A script cut into its pieces: the header with the declarations, and each request with what follows it
    /// (its status, the variables set from its answer).
    struct Steps {
        var prelude: String
        var steps: [(number: Int, text: String)]

        init(_ script: String) {
            let chunks = script.components(separatedBy: "\n\n# request ")
            prelude = chunks[0]
            steps = chunks.dropFirst().compactMap { chunk in
                guard let number = Int(chunk.prefix { $0.isNumber }) else { return nil }
                return (number, "# request " + chunk)
            }
        }

        /// The requests `numbers` as a script of their own. Variables set from answers before the first of them are
        /// set again from the saved answers (the same `IDFLOW_OUT`), as a person running the rest of a runbook would.
        func script(_ numbers: some Sequence<Int>) -> String {
            let wanted = Set(numbers)
            let first = wanted.min() ?? 0
            let carried = steps.filter { $0.number < first }.flatMap { step in
                step.text.split(separator: "\n").filter { $0.hasPrefix("export ") && $0.contains("\"$(") }.map(String.init)
            }
            let body = steps.filter { wanted.contains($0.number) }.map(\.text)
            return ([prelude] + (carried.isEmpty ? [] : [carried.joined(separator: "\n")]) + body).joined(separator: "\n\n") + "\n"
        }

        /// The request whose answer sets `variable`.
        func setting(_ variable: String) -> Int? {
            steps.last { $0.text.contains("\nexport \(variable)=\"$(") }?.number
        }
    }

    /// Runs `script` with bash in `directory` (its `IDFLOW_OUT`, kept between parts of one replay).
    func replay(_ script: String, in directory: URL, exporting secrets: [String: String]) async throws -> Replay {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("part-\(UUID().uuidString).sh")
        try Data(script.utf8).write(to: file)
        var environment = secrets
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        environment["IDFLOW_OUT"] = directory.path
        let result = try await ExternalCommand.run("/bin/bash", [file.path], environment: environment, directory: directory)
        var replay = Replay(
            status: result.status, statuses: [], answers: [:], headers: [:], script: script, standardError: result.standardError)
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let step = Int(parts[0]), let status = Int(parts[1]) else { continue }
            replay.statuses.append(status)
            replay.answers[step] = try? JSONValue(data: Data(contentsOf: directory.appendingPathComponent("\(step).json")))
            replay.headers[step] = (try? String(contentsOf: directory.appendingPathComponent("\(step).headers"), encoding: .utf8)) ?? ""
        }
        return replay
    }

    /// The claims of a JWT, unverified (the sandbox that signed it is the one asked about them).
    func claims(_ jwt: String?) -> JSONValue? {
        guard let payload = jwt?.split(separator: ".").dropFirst().first, let data = Base64URL.decode(String(payload)) else { return nil }
        return try? JSONValue(data: data)
    }

    /// Push sign-in: the replay sends a new push, which someone must approve, as the run's was. A push is approved
    /// once, by a person, and the run polled while it waited: so the replay runs in two parts, as a person at the
    /// phone would run it: up to the request that sends the push; then, once it is approved, from the poll that saw
    /// the approval (the run's polls that saw WAITING left out) to the code exchange, which ends with tokens.
    @Test func pushSignInReplaysWithTheApprovalBetweenItsTwoParts() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let (userID, session) = try await sandbox.createActiveUser(email: "push-replay@example.com", password: Self.password)
        let manage = "openid profile offline_access okta.myAccount.appAuthenticator.manage"
        #expect(try await sandbox.idflow(["login-pkce", "--session-token-stdin", "--scope", manage], stdin: session).exitCode == 0)
        let enrolled = try await sandbox.idflow(["enroll", "--name", "replay-runner"])
        #expect(enrolled.exitCode == 0, "\(enrolled)")

        func approveTheNextPush() async throws -> JSONValue {
            for _ in 0..<50 {
                if try await sandbox.idflow(["challenges"]).json()["challenges"]?.arrayValue?.isEmpty == false {
                    return try await sandbox.idflow(["resolve", "--next", "--approve"]).json()
                }
                try await Task.sleep(for: .milliseconds(200))
            }
            throw LiveSandbox.StepFailed(step: "challenges", result: try await sandbox.idflow(["challenges"]))
        }

        let file = curlFile(sandbox, "push")
        async let signIn = sandbox.idflow(
            [
                "login-pkce", "--username", "push-replay@example.com", "--password-stdin", "--mfa", "push", "--no-store", "--curl-file",
                file.path,
            ],
            stdin: Self.password)
        #expect(try await approveTheNextPush()["decision"] == "APPROVED")
        let login = try await signIn
        #expect(login.exitCode == 0, "\(login)")
        let text = try script(file, withoutAny: [Self.password])
        #expect(declared(text).sorted() == ["PASSWORD", "PKCE_VERIFIER"], "\(text)")
        let steps = Steps(text)
        let push = try #require(steps.steps.first { $0.text.contains("/verify'") }?.number, "\(text)")
        let approved = try #require(steps.setting("SESSION_TOKEN"), "\(text)")
        let last = try #require(steps.steps.last?.number)
        let secrets = ["PASSWORD": Self.password, "PKCE_VERIFIER": try #require(spentValue(text, "PKCE_VERIFIER"), "\(text)")]
        let directory = sandbox.home.appendingPathComponent("push-replay")

        let sent = try await replay(steps.script(1...push), in: directory, exporting: secrets)
        #expect(sent.status == 0, "\(sent)")
        #expect(sent.statuses == Array(repeating: 200, count: push), "\(sent)")
        #expect(sent.answers[push]?["_embedded"]?["factor"]?["factorType"] == "push", "\(sent)")
        #expect(sent.answers[push]?["factorResult"] == "WAITING", "a new push, waiting for its answer: \(sent)")
        #expect(try await approveTheNextPush()["decision"] == "APPROVED")

        let finished = try await replay(steps.script(approved...last), in: directory, exporting: secrets)
        #expect(finished.status == 0, "\(finished)")
        #expect(finished.answers[approved]?["status"] == "SUCCESS", "\(finished)")
        #expect(finished.statuses.last == 200, "the new code redeemed: \(finished)")
        let tokens = try #require(finished.answers[last], "\(finished)")
        #expect(claims(tokens["id_token"]?.stringValue)?["sub"] == .string(userID), "signed in as the same user: \(finished)")
    }

    /// `register --idp`, one step: the replay registers another user through the same identity provider, with
    /// tokens for them. Two steps: the code the provider texted is good for its own transaction only, so the replay's
    /// `complete` with the run's code is refused; with the code texted to the replay's `init`, it registers.
    @Test func registerWithAnIdentityProviderReplays() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let registration = try #require(sandbox.info["customRegistration"])
        let clientID = try #require(registration["clientId"]?.stringValue)
        let clientSecret = try #require(registration["clientSecret"]?.stringValue)
        let secretFile = sandbox.home.appendingPathComponent("client-secret")
        try Data(clientSecret.utf8).write(to: secretFile)
        chmod(secretFile.path, 0o600)
        let client = ["--client-id", clientID, "--client-secret-file", secretFile.path]
        let basic = Data("\(clientID):\(clientSecret)".utf8).base64EncodedString()

        let oneStep = curlFile(sandbox, "invite-code")
        let registered = try await sandbox.idflow(
            ["register", "--idp", "invite-code", "--data-stdin", "--curl-file", oneStep.path] + client, stdin: "K7Q2")
        #expect(registered.exitCode == 0, "\(registered)")
        let runUser = try #require(try registered.json()["tokens"]?["id_token_claims"]?["sub"]?.stringValue)
        let text = try script(oneStep, withoutAny: [clientSecret, basic])
        #expect(declared(text) == ["CLIENT_BASIC_CREDENTIALS", "DATA"], "\(text)")
        #expect(text.contains("the data for the identity provider (--data"), "\(text)")
        let replayed = try await replay(text, in: sandbox, exporting: ["CLIENT_BASIC_CREDENTIALS": basic, "DATA": "K7Q2"])
        #expect(replayed.status == 0, "\(replayed)")
        #expect(replayed.statuses.allSatisfy { $0 == 200 }, "\(replayed)")
        let answer = try #require(replayed.answers[replayed.statuses.count])
        #expect(answer["status"] == 2000, "\(replayed)")
        let newUser = try #require(claims(answer["oauth_token"]?["id_token"]?.stringValue)?["sub"]?.stringValue, "\(replayed)")
        #expect(newUser != runUser, "another registration")
        let (found, user) = try await sandbox.call("GET", "/api/v1/users/\(newUser)")
        #expect(found == 200 && user?["status"] == "ACTIVE", "the replay's user exists: \(String(describing: user))")

        // Two steps, the texted code typed at the prompt after init.
        let twoStep = curlFile(sandbox, "sms-otp")
        let session = try InteractiveSession.start(
            ["register", "--idp", "sms-otp", "--init-data", #"{"phone":"+31600000000"}"#, "--data-stdin", "--curl-file", twoStep.path]
                + client,
            environment: sandbox.environment)
        _ = try await session.waitForStderrLine { $0.contains("sms-otp init: 2000") }
        let runCode = try await textedCode(sandbox)
        let run = try await session.finish(stdin: runCode + "\n")
        #expect(run.exitCode == 0, "\(run)")
        let smsText = try script(twoStep, withoutAny: [clientSecret, basic, runCode])
        let steps = Steps(smsText)
        let initData = try #require(declared(smsText).first { $0.hasPrefix("DATA") })
        let code = try #require(declared(smsText).last { $0.hasPrefix("DATA") && $0 != initData }, "\(smsText)")
        let complete = try #require(steps.steps.first { $0.text.contains("/complete'") }?.number)
        var secrets = ["CLIENT_BASIC_CREDENTIALS": basic, initData: #"{"phone":"+31600000000"}"#, code: runCode]

        let stale = try await replay(smsText, in: sandbox, exporting: secrets)
        #expect(stale.statuses.allSatisfy { $0 == 200 }, "\(stale)")
        #expect(stale.answers[complete]?["status"] == 4002, "the run's code, for another transaction: \(stale)")

        let directory = sandbox.home.appendingPathComponent("sms-replay")
        let sent = try await replay(steps.script(1..<complete), in: directory, exporting: secrets)
        #expect(sent.answers[complete - 1]?["status"] == 2000, "\(sent)")
        secrets[code] = try await textedCode(sandbox)
        let finished = try await replay(steps.script(complete...(steps.steps.last?.number ?? complete)), in: directory, exporting: secrets)
        #expect(finished.answers[complete]?["status"] == 2000, "registered with the code texted to the replay: \(finished)")
        #expect(finished.answers[complete]?["oauth_token"]?["access_token"]?.stringValue != nil)
    }

    /// The last code the sandbox "texted".
    func textedCode(_ sandbox: LiveSandbox) async throws -> String {
        let (_, outbox) = try await sandbox.call("GET", "/sandbox/outbox")
        return try #require(outbox?.arrayValue?.last?["code"]?.stringValue)
    }

    /// `token introspect`: the replay asks the same question of the issuer and gets the same answer, active; once
    /// the token is revoked, the same script says it is not.
    @Test func tokenIntrospectReplaysTheSameQuestion() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let (_, session) = try await sandbox.createActiveUser(email: "intro@example.com", password: Self.password)
        #expect(try await sandbox.idflow(["login-pkce", "--session-token-stdin"], stdin: session).exitCode == 0)
        let accessToken = try #require(try await sandbox.idflow(["token", "get"]).json()["access_token"]?.stringValue)
        let file = curlFile(sandbox, "introspect")
        let introspected = try await sandbox.idflow(["token", "introspect", "--curl-file", file.path])
        #expect(introspected.exitCode == 0, "\(introspected)")
        #expect(try introspected.json()["active"] == true)
        let text = try script(file, withoutAny: [accessToken])
        #expect(declared(text) == ["TOKEN"], "\(text)")
        #expect(text.contains("the stored one: idflow token get"), "\(text)")

        let replayed = try await replay(text, in: sandbox, exporting: ["TOKEN": accessToken])
        #expect(replayed.status == 0, "\(replayed)")
        let answer = try #require(replayed.answers[replayed.statuses.count], "\(replayed)")
        #expect(answer["active"] == true, "\(replayed)")
        #expect(answer["sub"] == (try introspected.json()["sub"]))
        #expect(answer["jti"] == (try introspected.json()["jti"]))

        #expect(try await sandbox.idflow(["token", "revoke"]).exitCode == 0)
        let afterRevoke = try await replay(text, in: sandbox, exporting: ["TOKEN": accessToken])
        #expect(afterRevoke.answers[afterRevoke.statuses.count]?["active"] == false, "\(afterRevoke)")
    }

    /// `register --batch --activate`: replayed as it is, every login is taken (400) and there is no new user to
    /// activate; with the logins changed, the replay creates those users and activates them, not the run's: the
    /// id each creation answered is a variable the requests after it use.
    @Test func registerBatchReplaysCreationAndActivation() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let lines = [
            #"{"email":"batch1@example.com","firstName":"B","lastName":"One"}"#,
            #"{"email":"batch2@example.com","firstName":"B","lastName":"Two"}"#,
        ]
        let file = curlFile(sandbox, "batch")
        let batch = try await sandbox.idflow(
            ["register", "--batch", "-", "--activate", "--curl-file", file.path], stdin: lines.joined(separator: "\n") + "\n")
        #expect(batch.exitCode == 0, "\(batch)")
        let text = try script(file, withoutAny: [sandbox.apiToken])
        #expect(declared(text) == ["OKTA_CLIENT_TOKEN"], "\(text)")
        #expect(text.contains("USER_ID: .id of the answer above"), "\(text)")
        let runIDs = try batch.stdout.split(separator: "\n").map { try JSONValue(data: Data($0.utf8))["user"]?["id"]?.stringValue }
        for id in runIDs.compactMap({ $0 }) { #expect(!text.contains(id), "the run's user \(id) is a variable:\n\(text)") }

        let same = try await replay(text, in: sandbox, exporting: ["OKTA_CLIENT_TOKEN": sandbox.apiToken])
        #expect(same.status == 0, "\(same)")
        let creations = same.answers.filter { $0.value["errorCode"] == "E0000001" }
        #expect(creations.count == 2, "both logins are taken: \(same)")

        let renamed = text.replacingOccurrences(of: "batch1@", with: "again1@").replacingOccurrences(of: "batch2@", with: "again2@")
        let again = try await replay(renamed, in: sandbox, exporting: ["OKTA_CLIENT_TOKEN": sandbox.apiToken])
        #expect(again.status == 0, "\(again)")
        #expect(again.statuses.allSatisfy { $0 == 200 }, "\(again)")
        #expect(again.answers.values.filter { $0["activationToken"]?.stringValue != nil }.count == 2, "\(again)")
        for login in ["again1@example.com", "again2@example.com"] {
            let (status, user) = try await sandbox.call("GET", "/api/v1/users/\(login)")
            #expect(status == 200 && user?["status"] == "PROVISIONED", "\(login): \(String(describing: user))")
        }
        for login in ["batch1@example.com", "batch2@example.com"] {
            #expect(try await sandbox.call("GET", "/api/v1/users/\(login)").1?["status"] == "PROVISIONED")
        }
    }
}
