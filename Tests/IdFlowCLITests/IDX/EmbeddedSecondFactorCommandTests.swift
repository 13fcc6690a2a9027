import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

@testable import idflow

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `login-pkce --embedded` past the password, over the recorded second-factor answers: an e-mailed code a
/// script cannot know up front (stop, resume, resend), and an Okta Verify push it waits for (§8 polling).
struct EmbeddedSecondFactorCommandTests {
    let configuration = EmbeddedLoginCommandTests().configuration
    let password = ["--answer", "identifier=jo@example.com", "--answer", "credentials.passcode=@-"]

    /// After the password: the choice of authenticator, the e-mail challenge, and `123456` as the right code.
    /// Once the code was sent, introspection (a resumed run) finds the transaction at the e-mail challenge.
    static func emailServer() -> RoutedTransport {
        let sent = Locked(false)
        return RecordedIdentityEngine.transport(passed: "select-authenticator-authenticate.json") { request in
            switch request.route {
            case "POST /idp/idx/introspect" where sent.current:
                return RecordedIdentityEngine.reply("challenge-email-with-poll-and-resend.json")
            case "POST /idp/idx/challenge", "POST /idp/idx/challenge/resend":
                sent.withLock { $0 = true }
                return RecordedIdentityEngine.reply("challenge-email-with-poll-and-resend.json")
            case "POST /idp/idx/challenge/answer" where request.jsonBody?["credentials"]?["passcode"] == "123456":
                return RecordedIdentityEngine.reply("04-success-with-interaction-code.json")
            default: return nil
            }
        }
    }

    /// A script that signs in with its password and picks the e-mail authenticator (by `choice`): it stops for the code.
    func stopAtTheEmailedCode(_ server: RoutedTransport, _ environment: [String: String], choice: String) async -> CLIResult {
        let stopped = await CLI.run(
            ["login-pkce", "--embedded", "--answer", "authenticator=\(choice)"] + password + configuration, transport: server,
            stdin: "s3cret", environment: environment)
        #expect(stopped.exitCode == 3, "\(stopped.stderr)")
        return stopped
    }

    @Test func aScriptStopsForTheEmailedCodeAfterItWasSentAndResumesWithIt() async throws {
        let server = Self.emailServer()
        let environment = CLI.isolatedEnvironment()
        let stopped = await stopAtTheEmailedCode(server, environment, choice: "Email")
        let pending = try #require(stopped.json)
        #expect(pending["remediation"] == "challenge-authenticator")
        #expect(pending["fields"]?.arrayValue?.first?["name"] == "credentials.passcode")
        let sent = try #require(server.requests.first { $0.route == "POST /idp/idx/challenge" })
        #expect(sent.jsonBody?["authenticator"]?["methodType"] == "email", "the code was sent before the script stopped")
        #expect(
            server.requests.filter { $0.route.hasSuffix("/challenge/answer") }.count == 1, "the password is not reused for the code")

        let transaction = try #require(pending["transaction"]?.stringValue)
        #expect(transaction.allSatisfy { $0.isHexDigit }, "an id that could start with - would be taken for an option")
        let resumed = await CLI.run(
            ["login-pkce", "--embedded", "--resume", transaction, "--answer", "credentials.passcode=123456"] + configuration,
            transport: server, environment: environment)
        #expect(resumed.exitCode == 0, "\(resumed.stderr)")
        #expect(resumed.json?["access_token"] == "at1")
    }

    @Test func resendIsTakenByNameOnceAndTheRunStopsForTheNewCode() async throws {
        let server = Self.emailServer()
        let environment = CLI.isolatedEnvironment()
        let stopped = await stopAtTheEmailedCode(server, environment, choice: "email")
        let transaction = try #require(stopped.json?["transaction"]?.stringValue)
        let resent = await CLI.run(
            ["login-pkce", "--embedded", "--resume", transaction, "--remediation", "resend"] + configuration, transport: server,
            environment: environment)
        #expect(resent.exitCode == 3, "\(resent.stderr)")
        #expect(server.requests.filter { $0.route == "POST /idp/idx/challenge/resend" }.count == 1)
        #expect(resent.json?["remediation"] == "challenge-authenticator")
    }

    @Test func anExpiredKeptTransactionIsRemovedNotResumed() async throws {
        let environment = CLI.isolatedEnvironment()
        let stopped = await CLI.run(
            ["login-pkce", "--embedded", "--answer", "identifier=jo@example.com"] + configuration,
            transport: RecordedIdentityEngine.transport(), environment: environment)
        let transaction = try #require(stopped.json?["transaction"]?.stringValue)
        let file = URL(fileURLWithPath: environment["IDFLOW_STATE_DIR"]! + "/idx/\(transaction).json")
        var kept = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
        kept["expiresAt"] = "2021-05-21T16:41:22.000Z"
        try JSONSerialization.data(withJSONObject: kept).write(to: file)

        let resumed = await CLI.run(
            ["login-pkce", "--embedded", "--resume", transaction, "--answer", "credentials.passcode=s3cret"] + configuration,
            transport: RecordedIdentityEngine.transport(), environment: environment)
        #expect(resumed.exitCode == 4)
        #expect(resumed.error?["message"]?.stringValue?.contains("expired") == true)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    /// After the password: the Okta Verify push document; `poll` decides each answer of the poll endpoint.
    static func pushServer(poll: @escaping @Sendable (Int) -> RoutedTransport.Reply) -> RoutedTransport {
        let polls = Locked(0)
        return RecordedIdentityEngine.transport(passed: "okta-verify-push-challenge-poll.json") { request in
            guard request.route == "POST /idp/idx/authenticators/poll" else { return nil }
            return poll(
                polls.withLock { count in
                    count += 1
                    return count
                })
        }
    }

    @Test func aPushIsWaitedForAtTheServersPaceUntilItIsApproved() async throws {
        let server = Self.pushServer { count in
            RecordedIdentityEngine.reply(count < 3 ? "okta-verify-push-challenge-poll.json" : "04-success-with-interaction-code.json")
        }
        let result = await CLI.run(
            ["login-pkce", "--embedded"] + password + configuration, transport: server, stdin: "s3cret")
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.json?["access_token"] == "at1")
        #expect(server.requests.filter { $0.route.hasSuffix("/authenticators/poll") }.count == 3)
        #expect(!server.requests.contains { $0.route == "POST /idp/idx/challenge" }, "the push is not sent again")
        #expect(result.stderr.contains("asks for the number 96"))
        #expect(result.stderr.contains("waiting up to 300 s for Okta Verify"))
    }

    @Test func aDeniedPushExits8() async {
        let denied = Data(
            #"""
            {"version":"1.0.0","stateHandle":"s","expiresAt":"\#(RecordedIdentityEngine.expiresAt)","intent":"LOGIN",
             "remediation":{"type":"array","value":[{"rel":["create-form"],"name":"select-authenticator-authenticate",
               "href":"https://example.com/idp/idx/challenge","method":"POST","value":[{"name":"stateHandle","required":true,"value":"s","visible":false,"mutable":false}]}]},
             "messages":{"type":"array","value":[{"message":"You have chosen to reject this login.","i18n":{"key":"okta.push.rejected"},"class":"ERROR"}]},
             "cancel":{"rel":["create-form"],"name":"cancel","href":"https://example.com/idp/idx/cancel","method":"POST","value":[]}}
            """#.utf8)
        let server = Self.pushServer { _ in RoutedTransport.Reply(status: 200, headers: ["Content-Type": IDX.ionJSON], body: denied) }
        let result = await CLI.run(["login-pkce", "--embedded"] + password + configuration, transport: server, stdin: "s3cret")
        #expect(result.exitCode == 8, "\(result.stderr)")
        #expect(result.error?["message"] == "You have chosen to reject this login.")
    }

    @Test func nobodyAnsweringExits9AndCancelsTheSignIn() async {
        let server = Self.pushServer { _ in RecordedIdentityEngine.reply("okta-verify-push-challenge-poll.json") }
        let result = await CLI.run(
            ["login-pkce", "--embedded", "--mfa-timeout", "10"] + password + configuration, transport: server, stdin: "s3cret")
        #expect(result.exitCode == 9, "\(result.stderr)")
        // 4 s + 4 s + 2 s of waiting, then the limit; on a loaded machine the wall clock can split the last wait.
        #expect((3...6).contains(server.requests.filter { $0.route.hasSuffix("/authenticators/poll") }.count))
        #expect(server.requests.last?.route == "POST /idp/idx/cancel")
    }
}
