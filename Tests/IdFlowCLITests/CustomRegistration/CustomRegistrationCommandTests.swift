import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

@testable import idflow

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `register --idp` against a scripted Token Server: the steps a user's script sees (JSON, exit codes, the kept
/// transaction), the questions a person at a terminal gets, and the HTTP errors of the protocol.
@Suite struct CustomRegistrationCommandTests {
    static let client = ["--org-url", OktaReplies.org, "--client-id", "0oacustom", "--scope", "profile offline_access"]

    /// A Token Server whose complete script accepts `good` and answers `retry` (with `tx1`) to anything else;
    /// two-step identity providers answer init with `tx1`.
    static func tokenServer(good: String = "K7Q2", retry: Int = 4001, initStatus: Int = 2000) -> RoutedTransport {
        RoutedTransport { request in
            let body = request.body.flatMap { try? JSONValue(data: $0) }
            switch request.route {
            case "GET /oauth2/default/.well-known/openid-configuration":
                return OktaReplies.discovery
            case let route where route.hasSuffix("/init"):
                return initStatus == 2000
                    ? .json(200, #"{"transaction_id":"tx1","data":"{\"hint\":\"code sent to …00\"}","status":2000}"#)
                    : .json(200, "{\"data\":\"need a phone\",\"status\":\(initStatus)}")
            case let route where route.hasSuffix("/complete"):
                guard body?["data"]?.stringValue == good else {
                    return .json(200, "{\"status\":\(retry),\"data\":\"invalid code\",\"transaction_id\":\"tx1\"}")
                }
                return .json(
                    200,
                    #"{"status":2000,"oauth_token":{"token_type":"bearer","access_token":"at-reg","refresh_token":"rt-reg","expires_in":3600}}"#
                )
            default:
                return nil
            }
        }
    }

    static func environment(secret: String = "s3cret") -> [String: String] {
        CLI.isolatedEnvironment(["OKTA_OAUTH2_CLIENTSECRET": secret])
    }

    static func keptTransactions(_ environment: [String: String]) -> [URL] {
        let directory = URL(fileURLWithPath: environment["IDFLOW_STATE_DIR"]!).appendingPathComponent("custom-registrations")
        return (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
    }

    @Test func oneStepPrintsTheTokensAndSavesThemForRefresh() async throws {
        let environment = Self.environment()
        let server = Self.tokenServer()
        let result = await CLI.run(
            ["register", "--idp", "invite-code", "--data", "K7Q2"] + Self.client, transport: server, environment: environment)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.json?["status"] == 2000)
        #expect(result.json?["identityProvider"] == "invite-code")
        #expect(result.json?["tokens"]?["access_token"] == "at-reg")
        #expect(result.json?["tokens"]?["expires_at"] != nil)

        let complete = try #require(server.requests.first { $0.route == "POST /oauth/custom-registration/invite-code/complete" })
        #expect(complete.header("Authorization") == "Basic " + Data("0oacustom:s3cret".utf8).base64EncodedString())
        let body = try JSONValue(data: try #require(complete.body))
        #expect(body["data"] == "K7Q2")
        #expect(body["scope"] == .array(["profile", "offline_access"]))
        #expect(body["transaction_id"] == nil)
        let profileID = try #require(body["profile_id"]?.stringValue)
        #expect(profileID.count == 6 && profileID.allSatisfy { $0.isUppercase || $0.isNumber })
        #expect(result.json?["profileId"]?.stringValue == profileID)

        // `refresh` finds the stored login, for the registering client.
        let stored = try TokenStore(
            directory: URL(fileURLWithPath: environment["IDFLOW_STATE_DIR"]!).appendingPathComponent("profiles/default")
        ).load()
        #expect(stored?.clientId == "0oacustom")
        #expect(stored?.tokens.refreshToken == "rt-reg")
        #expect(stored?.tokens.scope == "profile offline_access")
        #expect(Self.keptTransactions(environment).isEmpty)
    }

    @Test func aRecoverableStatusExits10WithTheTransactionAndTheNextRunContinuesIt() async throws {
        let environment = Self.environment()
        let server = Self.tokenServer()
        let first = await CLI.run(
            ["register", "--idp", "invite-code", "--data", "WRONG"] + Self.client, transport: server, environment: environment)
        #expect(first.exitCode == 10, "\(first.stderr)")
        #expect(first.json?["status"] == 4001)
        #expect(first.json?["step"] == "complete")
        #expect(first.json?["transactionId"] == "tx1")
        #expect(first.json?["data"] == "invalid code")
        #expect(first.json?["identityProvider"] == "invite-code")
        #expect(first.error?["kind"] == "registration_retry")
        #expect(first.error?["hint"]?.stringValue?.contains("--transaction-id 'tx1'") == true)
        let kept = try #require(Self.keptTransactions(environment).first)
        let mode = try FileManager.default.attributesOfItem(atPath: kept.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let second = await CLI.run(
            ["register", "--idp", "invite-code", "--transaction-id", "tx1", "--data-stdin"] + Self.client, transport: server,
            stdin: "K7Q2\n", environment: environment)
        #expect(second.exitCode == 0, "\(second.stderr)")
        let completes = server.requests.filter { $0.route.hasSuffix("/complete") }.compactMap {
            try? JSONValue(data: $0.body ?? Data())
        }
        #expect(completes.count == 2)
        #expect(completes.last?["transaction_id"] == "tx1")
        #expect(completes.last?["profile_id"] == completes.first?["profile_id"])
        #expect(Self.keptTransactions(environment).isEmpty)
    }

    @Test func twoStepSendsInitDataThenTheCompleteDataInTheInitsTransaction() async throws {
        let server = Self.tokenServer(good: "123456")
        let result = await CLI.run(
            ["register", "--idp", "sms-otp", "--init-data", #"{"phone":"+31600000000"}"#, "--data-stdin"] + Self.client, transport: server,
            stdin: "123456\n", environment: Self.environment())
        #expect(result.exitCode == 0, "\(result.stderr)")
        let initBody = try JSONValue(data: try #require(server.requests.first { $0.route.hasSuffix("/init") }?.body))
        #expect(initBody["data"] == #"{"phone":"+31600000000"}"#)
        let complete = try JSONValue(data: try #require(server.requests.first { $0.route.hasSuffix("/complete") }?.body))
        #expect(complete["transaction_id"] == "tx1")
        #expect(complete["data"] == "123456")
        #expect(result.stderr.contains(#"sms-otp init: 2000: {"hint":"code sent to …00"}"#))
    }

    @Test func atATerminalEachStepIsAskedAndAskedAgainAfterARetry() async throws {
        let server = Self.tokenServer(good: "123456", retry: 4002)
        let result = await CLI.run(
            ["register", "--idp", "sms-otp"] + Self.client, transport: server, environment: Self.environment(),
            terminalAnswers: [#"{"phone":"+31600000000"}"#, "000000", "123456"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Init data for sms-otp"))
        #expect(result.stderr.contains("sms-otp complete: 4002: \"invalid code\""))
        #expect(result.stderr.contains("Data for sms-otp, again: "))
        let completes = server.requests.filter { $0.route.hasSuffix("/complete") }.compactMap {
            try? JSONValue(data: $0.body ?? Data())
        }
        #expect(completes.map { $0["data"] } == ["000000", "123456"])
        #expect(completes.allSatisfy { $0["transaction_id"] == "tx1" })
    }

    @Test func atATerminalAnEmptyInitAnswerMeansOneStepAndAnEmptyRetryStopsWithExit10() async throws {
        let environment = Self.environment()
        let server = Self.tokenServer()
        let result = await CLI.run(
            ["register", "--idp", "invite-code"] + Self.client, transport: server, environment: environment,
            terminalAnswers: ["", "NOPE", ""])
        #expect(result.exitCode == 10, "\(result.stderr)")
        #expect(!server.requests.contains { $0.route.hasSuffix("/init") })
        #expect(result.json?["transactionId"] == "tx1")
        #expect(Self.keptTransactions(environment).count == 1)
    }

    @Test func anUnrecoverableStatusExits11AndForgetsTheTransaction() async throws {
        let environment = Self.environment()
        let server = Self.tokenServer(retry: 4001)
        _ = await CLI.run(
            ["register", "--idp", "invite-code", "--data", "WRONG"] + Self.client, transport: server, environment: environment)
        #expect(Self.keptTransactions(environment).count == 1)

        let failing = Self.tokenServer(retry: 5001)
        let result = await CLI.run(
            ["register", "--idp", "invite-code", "--transaction-id", "tx1", "--data", "REVOKED"] + Self.client, transport: failing,
            environment: environment)
        #expect(result.exitCode == 11, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.error?["kind"] == "registration_failed")
        #expect(result.error?["errorCode"] == "5001")
        #expect(result.error?["hint"]?.stringValue?.contains("start again") == true)
        #expect(Self.keptTransactions(environment).isEmpty)
    }

    @Test func aStatusOutsideTheRangesIsUnrecoverable() async {
        let result = await CLI.run(
            ["register", "--idp", "invite-code", "--data", "x"] + Self.client, transport: Self.tokenServer(retry: 3000),
            environment: Self.environment())
        #expect(result.exitCode == 11)
    }

    @Test(arguments: [
        (404, "invalid_idp_identifier", Int32(5)), (403, "idp_disabled", 3), (400, "invalid_client", 4), (400, "invalid_transaction", 5),
        (400, "invalid_scope", 3), (400, "invalid_request", 3),
    ])
    func theTokenServersErrorsHaveTheContractsExitCodes(status: Int, error: String, exitCode: Int32) async {
        let server = RoutedTransport { request in
            request.route.hasSuffix("/complete")
                ? .json(status, "{\"error\":\"\(error)\",\"error_description\":\"no\"}") : OktaReplies.discovery
        }
        let result = await CLI.run(
            ["register", "--idp", "invite-code", "--data", "K7Q2"] + Self.client, transport: server, environment: Self.environment())
        #expect(result.exitCode == exitCode, "\(result.stderr)")
        #expect(result.error?["errorCode"]?.stringValue == error)
        #expect(result.error?["hint"] != nil)
    }

    @Test func anUnknownTransactionOnTheServerIsForgottenLocally() async throws {
        let environment = Self.environment()
        _ = await CLI.run(
            ["register", "--idp", "invite-code", "--data", "WRONG"] + Self.client, transport: Self.tokenServer(), environment: environment)
        let expired = RoutedTransport { request in
            request.route.hasSuffix("/complete")
                ? .json(400, #"{"error":"invalid_transaction","error_description":"expired"}"#) : OktaReplies.discovery
        }
        let result = await CLI.run(
            ["register", "--idp", "invite-code", "--transaction-id", "tx1", "--data", "K7Q2"] + Self.client, transport: expired,
            environment: environment)
        #expect(result.exitCode == 5)
        #expect(result.error?["hint"]?.stringValue?.contains("start the registration again") == true)
        #expect(Self.keptTransactions(environment).isEmpty)
    }

    @Test func cancelForgetsTheTransactionWithoutAServerCall() async throws {
        let environment = Self.environment()
        _ = await CLI.run(
            ["register", "--idp", "invite-code", "--data", "WRONG"] + Self.client, transport: Self.tokenServer(), environment: environment)
        let result = await CLI.run(
            ["register", "--idp", "invite-code", "--transaction-id", "tx1", "--cancel"] + Self.client, environment: environment)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.json?["cancelled"] == true)
        #expect(Self.keptTransactions(environment).isEmpty)

        let again = await CLI.run(
            ["register", "--idp", "invite-code", "--transaction-id", "tx1", "--data", "K7Q2"] + Self.client, environment: environment)
        #expect(again.exitCode == 5)
    }

    @Test func withoutAClientSecretNothingIsSent() async {
        let result = await CLI.run(
            ["register", "--idp", "invite-code", "--data", "K7Q2"] + Self.client, environment: CLI.isolatedEnvironment())
        #expect(result.exitCode == 64)
        #expect(result.error?["hint"]?.stringValue?.contains("--client-secret-file") == true)
    }

    @Test func theVerboseTraceShowsNoSecretCodeOrToken() async {
        let result = await CLI.run(
            ["register", "--idp", "invite-code", "--data", "K7Q2", "--verbose"] + Self.client, transport: Self.tokenServer(),
            environment: Self.environment())
        #expect(result.exitCode == 0)
        #expect(result.stderr.contains("POST \(OktaReplies.org)/oauth/custom-registration/invite-code/complete"))
        for secret in ["s3cret", Data("0oacustom:s3cret".utf8).base64EncodedString(), "K7Q2", "at-reg", "rt-reg"] {
            #expect(!result.stderr.contains(secret), "\(secret) in the trace")
        }
    }
}
