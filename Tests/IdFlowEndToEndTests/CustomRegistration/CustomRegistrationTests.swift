import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `register --idp` run as a user's script or a person at a terminal would, against `idflow sandbox`'s
/// built-in identity providers: invite-code (one step), sms-otp (two steps, the code in the outbox),
/// legacy-partner (disabled).
@Suite(.serialized)
struct CustomRegistrationTests {
    /// A sandbox, and the environment plus flags of its custom-registration client (the secret in a 0600 file).
    func start() async throws -> (LiveSandbox, [String]) {
        let sandbox = try await LiveSandbox.start()
        let registration = try #require(sandbox.info["customRegistration"])
        let secretFile = sandbox.home.appendingPathComponent("client-secret")
        try Data(try #require(registration["clientSecret"]?.stringValue).utf8).write(to: secretFile)
        chmod(secretFile.path, 0o600)
        let clientID = try #require(registration["clientId"]?.stringValue)
        return (sandbox, ["--client-id", clientID, "--client-secret-file", secretFile.path])
    }

    func kept(_ sandbox: LiveSandbox) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: sandbox.stateDirectory.appendingPathComponent("custom-registrations").path))
            ?? []
    }

    /// The last code the sandbox "texted".
    func textedCode(_ sandbox: LiveSandbox) async throws -> String {
        let (_, outbox) = try await sandbox.call("GET", "/sandbox/outbox")
        return try #require(outbox?.arrayValue?.last?["code"]?.stringValue)
    }

    /// A complete call made directly, as the registering client, to see what the server still knows.
    func serverComplete(_ sandbox: LiveSandbox, transactionID: String) async throws -> (Int, JSONValue?) {
        let registration = try #require(sandbox.info["customRegistration"])
        let credentials = "\(registration["clientId"]?.stringValue ?? ""):\(registration["clientSecret"]?.stringValue ?? "")"
        var request = HTTPRequest(method: "POST", url: URL(string: sandbox.orgURL + "/oauth/custom-registration/sms-otp/complete")!)
        request.setHeader("Authorization", "Basic " + Data(credentials.utf8).base64EncodedString())
        request.setHeader("Content-Type", "application/json")
        request.body = Data(#"{"transaction_id":"\#(transactionID)","data":"000000","profile_id":"ABC123"}"#.utf8)
        let response = try await CurlTransport().send(request)
        let data = response.body
        return (response.status, try? JSONValue(data: data))
    }

    @Test func oneStepRegistersThenRefreshWorksWithTheSameClient() async throws {
        let (sandbox, client) = try await start()
        let registered = try await sandbox.idflow(["register", "--idp", "invite-code", "--data", "K7Q2"] + client)
        #expect(registered.exitCode == 0, "\(registered)")
        let output = try registered.json()
        #expect(output["status"] == 2000)
        #expect(output["identityProvider"] == "invite-code")
        #expect(output["tokens"]?["id_token_claims"]?["sub"]?.stringValue?.hasPrefix("00u") == true)
        let accessToken = try #require(output["tokens"]?["access_token"]?.stringValue)

        let refreshed = try await sandbox.idflow(["refresh"] + client.suffix(2))
        #expect(refreshed.exitCode == 0, "\(refreshed)")
        #expect(try refreshed.json()["access_token"]?.stringValue != accessToken)
        #expect(try refreshed.json()["id_token_claims"]?["sub"] == output["tokens"]?["id_token_claims"]?["sub"])
    }

    @Test func twoStepReadsTheCodeFromStdinOnlyAfterInitTextedIt() async throws {
        let (sandbox, client) = try await start()
        let session = try InteractiveSession.start(
            ["register", "--idp", "sms-otp", "--init-data", #"{"phone":"+31600000000"}"#, "--data-stdin"] + client,
            environment: sandbox.environment)
        _ = try await session.waitForStderrLine { $0.contains("sms-otp init: 2000") }
        let result = try await session.finish(stdin: try await textedCode(sandbox) + "\n")
        #expect(result.exitCode == 0, "\(result)")
        #expect(try result.json()["status"] == 2000)
        #expect(kept(sandbox).isEmpty)
    }

    @Test func aScriptContinuesAfterARecoverableStatusWithTheTransactionID() async throws {
        let (sandbox, client) = try await start()
        let first = try await sandbox.idflow(
            ["register", "--idp", "sms-otp", "--init-data", #"{"phone":"+31600000000"}"#, "--data", "wrong"] + client)
        #expect(first.exitCode == 10, "\(first)")
        let stop = try first.json()
        #expect(stop["status"] == 4002)
        #expect(stop["step"] == "complete")
        #expect(stop["data"] == "wrong code")
        #expect(stop["identityProvider"] == "sms-otp")
        let transactionID = try #require(stop["transactionId"]?.stringValue)
        #expect(kept(sandbox).count == 1)

        let second = try await sandbox.idflow(
            ["register", "--idp", "sms-otp", "--transaction-id", transactionID, "--data-stdin"] + client,
            stdin: try await textedCode(sandbox))
        #expect(second.exitCode == 0, "\(second)")
        #expect(kept(sandbox).isEmpty)
    }

    @Test func atATerminalAWrongCodeIsAskedForAgainInTheSameTransaction() async throws {
        let (sandbox, client) = try await start()
        let session = try InteractiveSession.startInTerminal(["register", "--idp", "sms-otp"] + client, environment: sandbox.environment)
        var seen = try await session.waitForPrompt { $0.hasSuffix("one-step identity provider): ") }
        session.send(#"{"phone":"+31600000000"}"# + "\n")
        seen = try await session.waitForPrompt(after: seen) { $0.hasSuffix("Data for sms-otp: ") }
        session.send("wrong\n")
        _ = try await session.waitForPrompt(after: seen) { $0.hasSuffix("Data for sms-otp, again: ") }
        #expect(session.stderrText.contains("sms-otp complete: 4002: \"wrong code\""))
        session.send(try await textedCode(sandbox) + "\n")
        let result = try await session.finish()
        #expect(result.exitCode == 0, "\(result)")
        #expect(try result.json()["status"] == 2000)
        #expect(!result.stderr.contains(try await textedCode(sandbox)), "the code was echoed")
    }

    /// An answer typed ahead, before the hidden prompt has turned echo off, is read rather than flushed away (a
    /// prompt that flushed the terminal's input lost answers sent the moment the prompt appeared).
    @Test func anAnswerTypedBeforeThePromptAppearsIsReadNotDiscarded() async throws {
        let (sandbox, client) = try await start()
        let session = try InteractiveSession.startInTerminal(["register", "--idp", "sms-otp"] + client, environment: sandbox.environment)
        session.send(#"{"phone":"+31600000000"}"# + "\n")
        let seen = try await session.waitForPrompt(timeout: .seconds(20)) { $0.hasSuffix("Data for sms-otp: ") }
        session.send(try await textedCode(sandbox) + "\n")
        _ = seen
        let result = try await session.finish()
        #expect(result.exitCode == 0, "\(result)")
        #expect(try result.json()["status"] == 2000)
    }

    @Test func controlCAtAPromptExits130AndForgetsTheTransaction() async throws {
        let (sandbox, client) = try await start()
        let session = try InteractiveSession.startInTerminal(["register", "--idp", "sms-otp"] + client, environment: sandbox.environment)
        let seen = try await session.waitForPrompt { $0.hasSuffix("one-step identity provider): ") }
        session.send(#"{"phone":"+31600000000"}"# + "\n")
        _ = try await session.waitForPrompt(after: seen) { $0.hasSuffix("Data for sms-otp: ") }
        #expect(kept(sandbox).count == 1)
        session.pressControlC()
        let result = try await session.finish()
        #expect(result.exitCode == 130, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.error?["kind"] == "interrupted")
        #expect(kept(sandbox).isEmpty)
    }

    @Test func theThirdWrongCodeExits11AndTheTransactionIsGoneHereAndOnTheServer() async throws {
        let (sandbox, client) = try await start()
        let first = try await sandbox.idflow(
            ["register", "--idp", "sms-otp", "--init-data", #"{"phone":"+31600000000"}"#, "--data", "wrong"] + client)
        let transactionID = try #require(try first.json()["transactionId"]?.stringValue)
        let second = try await sandbox.idflow(
            ["register", "--idp", "sms-otp", "--transaction-id", transactionID, "--data", "wrong"] + client)
        #expect(second.exitCode == 10, "\(second)")
        let third = try await sandbox.idflow(
            ["register", "--idp", "sms-otp", "--transaction-id", transactionID, "--data", "wrong"] + client)
        #expect(third.exitCode == 11, "\(third)")
        #expect(third.stdout.isEmpty)
        #expect(third.error?["errorCode"] == "5002")
        #expect(third.error?["hint"]?.stringValue?.contains("start again") == true)
        #expect(kept(sandbox).isEmpty)
        let (status, body) = try await serverComplete(sandbox, transactionID: transactionID)
        #expect(status == 400)
        #expect(body?["error"] == "invalid_transaction")
        let again = try await sandbox.idflow(["register", "--idp", "sms-otp", "--transaction-id", transactionID, "--data", "x"] + client)
        #expect(again.exitCode == 5, "\(again)")
    }

    @Test func anExpiredTransactionSaysToStartAgain() async throws {
        let (sandbox, client) = try await start()
        let first = try await sandbox.idflow(
            ["register", "--idp", "sms-otp", "--init-data", #"{"phone":"+31600000000"}"#, "--data", "wrong"] + client)
        let transactionID = try #require(try first.json()["transactionId"]?.stringValue)
        try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": 301])
        let late = try await sandbox.idflow(
            ["register", "--idp", "sms-otp", "--transaction-id", transactionID, "--data-stdin"] + client,
            stdin: try await textedCode(sandbox))
        #expect(late.exitCode == 5, "\(late)")
        #expect(late.error?["errorCode"] == "invalid_transaction")
        #expect(late.error?["hint"]?.stringValue?.contains("start the registration again") == true)
        #expect(kept(sandbox).isEmpty)
    }

    @Test func disabledAndUnknownIdentityProvidersAndAWrongSecret() async throws {
        let (sandbox, client) = try await start()
        let disabled = try await sandbox.idflow(["register", "--idp", "legacy-partner", "--data", "K7Q2"] + client)
        #expect(disabled.exitCode == 3, "\(disabled)")
        #expect(disabled.error?["errorCode"] == "idp_disabled")
        let unknown = try await sandbox.idflow(["register", "--idp", "nobody", "--data", "K7Q2"] + client)
        #expect(unknown.exitCode == 5, "\(unknown)")
        #expect(unknown.error?["errorCode"] == "invalid_idp_identifier")
        let wrong = try await sandbox.idflow(
            ["register", "--idp", "invite-code", "--data", "K7Q2", "--client-id", client[1]],
            environment: ["OKTA_OAUTH2_CLIENTSECRET": "nope"])
        #expect(wrong.exitCode == 4, "\(wrong)")
        #expect(wrong.error?["errorCode"] == "invalid_client")
    }

    @Test func cancelForgetsAKeptTransaction() async throws {
        let (sandbox, client) = try await start()
        let first = try await sandbox.idflow(["register", "--idp", "invite-code", "--data", "NOPE"] + client)
        #expect(first.exitCode == 10, "\(first)")
        let transactionID = try #require(try first.json()["transactionId"]?.stringValue)
        let cancelled = try await sandbox.idflow(
            ["register", "--idp", "invite-code", "--transaction-id", transactionID, "--cancel"] + client)
        #expect(cancelled.exitCode == 0, "\(cancelled)")
        #expect(try cancelled.json()["cancelled"] == true)
        #expect(kept(sandbox).isEmpty)
        let after = try await sandbox.idflow(
            ["register", "--idp", "invite-code", "--transaction-id", transactionID, "--data", "K7Q2"] + client)
        #expect(after.exitCode == 5, "\(after)")
    }

    @Test func theVerboseTraceLeaksNoSecretCodeOrToken() async throws {
        let (sandbox, client) = try await start()
        let result = try await sandbox.idflow(["register", "--idp", "invite-code", "--data", "K7Q2", "--verbose"] + client)
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.contains("/oauth/custom-registration/invite-code/complete"))
        let output = try result.json()
        let secret = try #require(sandbox.info["customRegistration"]?["clientSecret"]?.stringValue)
        var secrets = ["K7Q2", secret, Data("\(client[1]):\(secret)".utf8).base64EncodedString()]
        for key in ["access_token", "refresh_token", "id_token"] { secrets.append(output["tokens"]?[key]?.stringValue ?? "missing") }
        for value in secrets {
            #expect(!result.stderr.contains(value), "\(value.prefix(12))… is in the trace")
        }
    }
}
