import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// Push MFA as ops use it: this machine enrolled as a user's push authenticator, a sign-in in one idflow
/// process waiting for the push, and `challenges`/`resolve` answering it from another, against `idflow sandbox`.
@Suite(.serialized)
struct PushMFATests {
    static let manageScope = "openid profile offline_access okta.myAccount.appAuthenticator.manage"
    static let password = "Str0ng-Passw0rd!"

    /// A sandbox with `email` signed in (manage scope) and this machine enrolled as the user's push authenticator.
    func enrolled(
        _ email: String, userVerification pin: String? = nil, sandbox existing: LiveSandbox? = nil
    ) async throws -> (LiveSandbox, JSONValue) {
        let sandbox: LiveSandbox
        if let existing { sandbox = existing } else { sandbox = try await LiveSandbox.start() }
        let (_, session) = try await sandbox.createActiveUser(email: email, password: Self.password)
        let login = try await sandbox.idflow(["login-pkce", "--session-token-stdin", "--scope", Self.manageScope], stdin: session)
        guard login.exitCode == 0 else { throw LiveSandbox.StepFailed(step: "login-pkce", result: login) }
        var arguments = ["enroll", "--name", "ci-runner-7"]
        if pin != nil { arguments += ["--user-verification", "--pin-stdin"] }
        let enroll = try await sandbox.idflow(arguments, stdin: pin ?? "")
        guard enroll.exitCode == 0 else { throw LiveSandbox.StepFailed(step: "enroll", result: enroll) }
        return (sandbox, try enroll.json())
    }

    /// Polls `challenges` until one is pending (a sign-in in another process sent it).
    func firstPendingChallenge(_ sandbox: LiveSandbox) async throws -> JSONValue {
        for _ in 0..<50 {
            let listed = try await sandbox.idflow(["challenges"])
            if let first = try? listed.json()["challenges"]?.arrayValue?.first { return first }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw LiveSandbox.StepFailed(step: "challenges", result: try await sandbox.idflow(["challenges"]))
    }

    func pushSignIn(_ sandbox: LiveSandbox, _ email: String, timeout: Int = 60) async throws -> IdFlowBinary.Result {
        try await sandbox.idflow(
            ["login-pkce", "--username", email, "--password-stdin", "--mfa", "push", "--mfa-timeout", String(timeout), "--no-store"],
            stdin: Self.password)
    }

    @Test func aWaitingSignInFinishesWhenAnotherProcessApproves() async throws {
        let (sandbox, enrollment) = try await enrolled("push@example.com")
        defer { sandbox.stop() }
        #expect(enrollment["enrollmentId"]?.stringValue?.isEmpty == false)
        #expect(enrollment["userVerification"] == false)

        async let signIn = pushSignIn(sandbox, "push@example.com")
        let challenge = try await firstPendingChallenge(sandbox)
        #expect(challenge["transactionType"] == "LOGIN")
        #expect(challenge["enrollmentId"] == enrollment["enrollmentId"])
        let resolved = try await sandbox.idflow(["resolve", "--next", "--approve"])
        #expect(resolved.exitCode == 0, "\(resolved)")
        #expect(try resolved.json()["decision"] == "APPROVED")
        #expect(try resolved.json()["transactionId"] == challenge["transactionId"])

        let login = try await signIn
        #expect(login.exitCode == 0, "\(login)")
        #expect(try login.json()["id_token_claims"]?["sub"] == enrollment["userId"])
        #expect(login.stderr.contains("push approved"))

        // Answered once: a second answer to the same transaction is "not found".
        let again = try await sandbox.idflow(["resolve", "--transaction-id", challenge["transactionId"]?.stringValue ?? "", "--approve"])
        #expect(again.exitCode == 5, "\(again)")
        let unknown = try await sandbox.idflow(["resolve", "--transaction-id", "ftNoSuchTransaction0000", "--deny"])
        #expect(unknown.exitCode == 5, "\(unknown)")
    }

    @Test func aDeniedPushEndsTheSignInWithExit8() async throws {
        let (sandbox, _) = try await enrolled("deny@example.com")
        defer { sandbox.stop() }
        async let signIn = pushSignIn(sandbox, "deny@example.com")
        _ = try await firstPendingChallenge(sandbox)
        let resolved = try await sandbox.idflow(["resolve", "--next", "--deny"])
        #expect(resolved.exitCode == 0, "\(resolved)")
        #expect(try resolved.json()["decision"] == "DENIED")
        let login = try await signIn
        #expect(login.exitCode == 8, "\(login)")
        #expect(login.stdout.isEmpty)
    }

    @Test func aPushNobodyAnswersEndsWithExit9() async throws {
        let (sandbox, _) = try await enrolled("silent@example.com")
        defer { sandbox.stop() }
        let login = try await pushSignIn(sandbox, "silent@example.com", timeout: 2)
        #expect(login.exitCode == 9, "\(login)")
        #expect(login.stdout.isEmpty)
        #expect(login.stderr.contains("cancelled the sign-in on the server"), "the sandbox's empty answer to the cancel is success")
        #expect(try await sandbox.idflow(["challenges"]).json()["challenges"]?.arrayValue?.isEmpty == true, "the push was withdrawn")
    }

    /// Ctrl-C (or SIGTERM) ends the wait as the embedded sign-in's does: the Authn transaction is cancelled on the
    /// server, so the push it sent can no longer be approved from another process.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalWhileThePushWaitsCancelsTheTransactionAndExits130(signal: Int32) async throws {
        let (sandbox, _) = try await enrolled("impatient@example.com")
        defer { sandbox.stop() }
        let passwordFile = sandbox.home.appendingPathComponent("password.txt")
        try Self.password.write(to: passwordFile, atomically: true, encoding: .utf8)
        let session = try InteractiveSession.start(
            ["login-pkce", "--username", "impatient@example.com", "--password-file", passwordFile.path, "--mfa", "push", "--no-store"],
            environment: sandbox.environment)
        _ = try await session.waitForStderrLine { $0.contains("push sent") }
        let challenge = try await firstPendingChallenge(sandbox)
        let transaction = try #require(challenge["transactionId"]?.stringValue)
        #expect(try await sandbox.call("GET", "/sandbox/push/\(transaction)").1?["status"] == "WAITING")

        kill(session.processIdentifier, signal)
        let login = try await session.finish()
        #expect(login.exitCode == 130, "\(login)")
        #expect(login.error?["kind"] == "interrupted")
        #expect(login.stdout.isEmpty)
        #expect(login.stderr.contains("cancelled the sign-in on the server"))

        #expect(try await sandbox.idflow(["challenges"]).json()["challenges"]?.arrayValue?.isEmpty == true, "nothing left to answer")
        let late = try await sandbox.idflow(["resolve", "--transaction-id", transaction, "--approve"])
        #expect(late.exitCode == 5, "the withdrawn push cannot be approved: \(late)")
        #expect(try await sandbox.call("GET", "/sandbox/push/\(transaction)").1?["status"] != "APPROVED")
    }

    /// `challenges --wait` is a wait like the others: Ctrl-C or SIGTERM ends it with exit 130 and the error line.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalWhileChallengesWaitsExits130(signal: Int32) async throws {
        let (sandbox, _) = try await enrolled("waiter@example.com")
        defer { sandbox.stop() }
        let session = try InteractiveSession.start(["challenges", "--wait", "600"], environment: sandbox.environment)
        _ = try await session.waitForStderrLine { $0.contains("waiting up to 600 s for a push challenge") }
        kill(session.processIdentifier, signal)
        let result = try await session.finish(timeout: .seconds(60))
        #expect(result.exitCode == 130, "\(result)")
        #expect(result.error?["kind"] == "interrupted")
        #expect(result.error?["message"] == "interrupted while waiting for a push challenge")
        #expect(result.stdout.isEmpty)
    }

    /// With no push enrollment nothing can arrive: `challenges --wait` says so at once, naming `idflow enroll`,
    /// instead of waiting out its time and suggesting a longer one.
    @Test func challengesWaitWithoutAnEnrollmentEndsAtOnceNamingEnroll() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let result = try await sandbox.idflow(["challenges", "--wait", "110"])
        #expect(result.exitCode == 5, "\(result)")
        #expect(result.error?["kind"] == "not_found")
        #expect(result.error?["hint"]?.stringValue?.contains("`idflow enroll`") == true, "\(result.stderr)")
        #expect(!result.stderr.contains("waiting up to"))
        #expect(result.stdout.isEmpty)
    }

    @Test func userVerificationNeedsTheRightPIN() async throws {
        let (sandbox, enrollment) = try await enrolled("uv@example.com", userVerification: "471108")
        defer { sandbox.stop() }
        #expect(enrollment["userVerification"] == true)

        // The user-verification key is on disk only sealed: the PIN is nowhere in the state directory, and every
        // file is 0600 in a 0700 folder.
        let devices = sandbox.stateDirectory.appendingPathComponent("devices")
        let files = FileManager.default.enumerator(at: devices, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
        #expect(!files.isEmpty)
        for file in files {
            let mode = (try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber)?.intValue
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory)
            #expect(mode == (isDirectory.boolValue ? 0o700 : 0o600), "\(file.path)")
            if !isDirectory.boolValue {
                #expect(
                    !(try String(contentsOf: file, encoding: .utf8)).contains("\"d\""),
                    "no bare private key member in \(file.lastPathComponent)")
            }
        }

        func push() async throws -> String {
            let (status, body) = try await sandbox.call(
                "POST", "/sandbox/push", json: ["login": "uv@example.com", "userVerification": "REQUIRED"])
            #expect(status == 200 || status == 201)
            return body?["transactionId"]?.stringValue ?? ""
        }
        func status(_ transaction: String) async throws -> JSONValue? {
            try await sandbox.call("GET", "/sandbox/push/\(transaction)").1
        }

        let wrong = try await push()
        let refused = try await sandbox.idflow(["resolve", "--transaction-id", wrong, "--approve", "--pin-stdin"], stdin: "000000")
        #expect(refused.exitCode == 4, "\(refused)")
        #expect(try await status(wrong)?["status"] != "APPROVED", "a wrong PIN never approves")

        let right = try await push()
        let approved = try await sandbox.idflow(["resolve", "--transaction-id", right, "--approve", "--pin-stdin"], stdin: "471108")
        #expect(approved.exitCode == 0, "\(approved)")
        #expect(try approved.json()["keyType"] == "userVerification")
        let answered = try await status(right)
        #expect(answered?["status"] == "APPROVED")
        #expect(answered?["keyType"] == "userVerification")
    }

    @Test func aChallengeWhoseSignatureDoesNotVerifyIsNeverAnswered() async throws {
        let (sandbox, enrollment) = try await enrolled("forged@example.com")
        defer { sandbox.stop() }
        let (_, pushed) = try await sandbox.call("POST", "/sandbox/push", json: ["login": "forged@example.com"])
        let transaction = try #require(pushed?["transactionId"]?.stringValue)
        let listed = try await sandbox.idflow(["challenges", "--verbose"])
        #expect(listed.exitCode == 0, "\(listed)")

        // Serve the device the real challenge with one claim changed: the org's signature no longer matches.
        let enrollmentID = try #require(enrollment["enrollmentId"]?.stringValue)
        let (_, pending) = try await sandbox.call("GET", "/sandbox/push/\(transaction)")
        #expect(pending?["status"] == "WAITING")
        let real = try #require(Self.challengeJWT(fromTrace: listed.stderr))
        let forged = try #require(Self.tamper(real))
        try await sandbox.call(
            "POST", "/sandbox/faults",
            json: [
                "pathPrefix": .string("/idp/myaccount/app-authenticators/\(enrollmentID)/push/notifications"), "method": "GET",
                "status": 200,
                "body": .string("[{\"payloadVersion\":\"IDXv1\",\"challenge\":\"\(forged)\"}]"), "count": 1,
            ])
        let resolved = try await sandbox.idflow(["resolve", "--transaction-id", transaction, "--approve"])
        #expect(resolved.exitCode == 13, "\(resolved)")
        #expect(try await sandbox.call("GET", "/sandbox/push/\(transaction)").1?["status"] == "WAITING", "nothing was answered")
    }

    @Test func aDeletedEnrollmentHasNoChallengesAndAnEnrollmentOutlivesTheProcess() async throws {
        let (sandbox, enrollment) = try await enrolled("gone@example.com")
        defer { sandbox.stop() }
        let enrollmentID = try #require(enrollment["enrollmentId"]?.stringValue)
        // Each idflow run is a new process: the enrollment and its keys were read back from disk.
        let listed = try await sandbox.idflow(["enroll", "list"])
        #expect(listed.exitCode == 0, "\(listed)")
        #expect(listed.stdout.contains(enrollmentID))
        _ = try await sandbox.call("POST", "/sandbox/push", json: ["login": "gone@example.com"])
        #expect(try await sandbox.idflow(["challenges"]).json()["challenges"]?.arrayValue?.count == 1)

        let deleted = try await sandbox.idflow(["enroll", "delete", enrollmentID])
        #expect(deleted.exitCode == 0, "\(deleted)")
        let after = try await sandbox.idflow(["challenges"])
        #expect(after.exitCode == 0, "\(after)")
        #expect(try after.json()["challenges"]?.arrayValue?.isEmpty == true)
    }

    /// The first challenge JWT in a `--verbose` trace of `challenges` (the trace masks secrets, not challenges).
    static func challengeJWT(fromTrace trace: String) -> String? {
        guard
            let range = trace.range(of: #""challenge":"eyJ[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+""#, options: .regularExpression)
        else { return nil }
        return String(trace[range].dropFirst(#""challenge":""#.count).dropLast())
    }

    /// The same JWT with its payload's `clientLocation` changed and the original signature kept.
    static func tamper(_ jwt: String) -> String? {
        let parts = jwt.split(separator: ".").map(String.init)
        guard parts.count == 3, var payload = Base64URL.decode(parts[1]), let text = String(data: payload, encoding: .utf8) else {
            return nil
        }
        let changed = text.replacingOccurrences(of: "\"clientOS\":\"", with: "\"clientOS\":\"Forged ")
        guard changed != text else { return nil }
        payload = Data(changed.utf8)
        return [parts[0], Base64URL.encode(payload), parts[2]].joined(separator: ".")
    }
}
