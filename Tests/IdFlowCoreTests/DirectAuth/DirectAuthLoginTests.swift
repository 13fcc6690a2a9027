import Foundation
import IdFlowTestSupport
import OneTimePasscode
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `LoginDirect` against a fake authorization server whose Direct Authentication endpoints answer from lists;
/// the client's sleep returns at once and records what it was asked to wait, so the polling can be read off.
@Suite struct DirectAuthLoginTests {
    let server = FakeAuthorizationServer()
    let sleeps = Locked<[Duration]>([])
    let messages = Locked<[String]>([])
    static let base = "/oauth2/default/v1"
    static let rejected = #"{"error":"invalid_grant","error_description":"User rejected out-of-band authentication prompt."}"#

    static func error(_ error: String, _ status: Int = 400) -> RoutedTransport.Reply {
        .json(status, "{\"error\":\"\(error)\",\"error_description\":\"The server said \(error).\"}")
    }

    static func start(channel: String = "push", binding: String = "none", number: String? = nil, expiresIn: Int = 120)
        -> RoutedTransport.Reply
    {
        let code = number.map { ",\"binding_code\":\"\($0)\"" } ?? ""
        let interval = channel == "push" ? ",\"interval\":5" : ""
        return .json(
            200,
            "{\"oob_code\":\"ftOOB1\",\"expires_in\":\(expiresIn)\(interval),\"channel\":\"\(channel)\",\"binding_method\":\"\(binding)\"\(code)}"
        )
    }

    /// `routes` answers first (by route); token requests are answered by `tokens` in order (the last repeats; nil
    /// is the tokens).
    func transport(_ tokens: [RoutedTransport.Reply?], routes: [String: RoutedTransport.Reply] = [:]) -> RoutedTransport {
        let remaining = Locked(tokens)
        return server.transport { [server] request in
            if let reply = routes[request.route] { return reply }
            guard request.route == "POST \(Self.base)/token" else { return nil }
            let answer = remaining.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
            return answer ?? server.tokens(access: "at-direct", refresh: "rt-direct", scope: "openid profile", nonce: nil)
        }
    }

    func context(_ transport: RoutedTransport, stdin: String = "", environment: [String: String] = [:]) -> IdFlowContext {
        var configuration = TestContext.configuration(org: server.org)
        configuration.clientID = server.clientID
        configuration.scope = "openid profile"
        return TestContext.make(
            transport: transport, configuration: configuration, stdin: stdin, environment: environment, messages: messages, sleeps: sleeps)
    }

    func tokenRequests(_ transport: RoutedTransport) -> [HTTPRequest] {
        transport.requests.filter { $0.route == "POST \(Self.base)/token" }
    }

    static let push = [
        "POST \(base)/primary-authenticate": start()
    ]

    @Test func aPushIsPolledAtOnceThenEveryIntervalAndTheTokensAreStored() async throws {
        let transport = self.transport([Self.error("authorization_pending"), Self.error("authorization_pending"), nil], routes: Self.push)
        let context = self.context(transport)
        let output = try await LoginDirect(username: "jo@example.com", primary: .oob(.push)).run(context)

        #expect(output.tokens.response.accessToken == "at-direct")
        #expect(output.binding == nil)
        let start = try #require(transport.requests.first { $0.route.hasSuffix("/primary-authenticate") })
        #expect(start.formBody["challenge_hint"] == DirectAuthGrant.oob.rawValue)
        #expect(start.formBody["channel_hint"] == "push")
        #expect(start.formBody["login_hint"] == "jo@example.com")
        #expect(tokenRequests(transport).count == 3)
        #expect(
            tokenRequests(transport).allSatisfy {
                $0.formBody["oob_code"] == "ftOOB1" && $0.formBody["grant_type"] == DirectAuthGrant.oob.rawValue
            })
        #expect(sleeps.current == [.seconds(5), .seconds(5)], "the first poll right away")
        let stored = try TokenStore(directory: context.configuration.profileDirectory).load()
        #expect(stored?.tokens.refreshToken == "rt-direct")
    }

    @Test func slowDownAddsFiveSecondsToEveryLaterWait() async throws {
        let transport = self.transport(
            [Self.error("authorization_pending"), Self.error("slow_down"), Self.error("authorization_pending"), nil], routes: Self.push)
        _ = try await LoginDirect(username: "jo", primary: .oob(.push), store: false).run(context(transport))

        #expect(sleeps.current == [.seconds(5), .seconds(10), .seconds(10)])
    }

    /// 12 s at 5 s: polls at 0, 5 and 10 s; the next would come after the code expired, so the wait ends (exit 9).
    @Test func theWaitEndsWhenTheCodeExpires() async throws {
        let transport = self.transport(
            [Self.error("authorization_pending")], routes: ["POST \(Self.base)/primary-authenticate": Self.start(expiresIn: 12)])
        let context = self.context(transport)
        let error = await failure { () throws(IdFlowError) in try await LoginDirect(username: "jo", primary: .oob(.push)).run(context) }

        #expect(error?.exitStatus == .timedOut)
        #expect(tokenRequests(transport).count == 3)
        #expect(sleeps.current == [.seconds(5), .seconds(5), .seconds(2)])
        #expect(try TokenStore(directory: context.configuration.profileDirectory).load() == nil)
    }

    @Test(arguments: [rejected, #"{"error":"access_denied","error_description":"The user rejected the push."}"#])
    func aRejectedPushIsExit8AndStoresNothing(body: String) async throws {
        let transport = self.transport([Self.error("authorization_pending"), .json(400, body)], routes: Self.push)
        let context = self.context(transport)
        let error = await failure { () throws(IdFlowError) in try await LoginDirect(username: "jo", primary: .oob(.push)).run(context) }

        #expect(error?.exitStatus == .denied)
        #expect(tokenRequests(transport).count == 2)
        #expect(try TokenStore(directory: context.configuration.profileDirectory).load() == nil)
    }

    @Test func anExpiredCodeAtTheServerIsExit9() async {
        let expired = RoutedTransport.Reply.json(
            403, #"{"error":"access_denied","error_description":"'oob_code' has expired. Use a new 'oob_code' and try again."}"#)
        let transport = self.transport([expired], routes: Self.push)
        let error = await failure { () throws(IdFlowError) in
            try await LoginDirect(username: "jo", primary: .oob(.push)).run(context(transport))
        }
        #expect(error?.exitStatus == .timedOut)
    }

    @Test func theOlderEndpointIsUsedWhenTheNewerIsNotThere() async throws {
        let transport = self.transport(
            [nil],
            routes: [
                "POST \(Self.base)/primary-authenticate": .json(
                    404, #"{"errorCode":"E0000022","errorSummary":"The endpoint does not exist."}"#),
                "POST \(Self.base)/oob-authenticate": Self.start(),
            ])
        _ = try await LoginDirect(username: "jo", primary: .oob(.push), store: false).run(context(transport))

        let older = try #require(transport.requests.first { $0.route.hasSuffix("/oob-authenticate") })
        #expect(older.formBody["challenge_hint"] == nil)
        #expect(older.formBody["channel_hint"] == "push")
    }

    @Test func aNumberChallengeIsShownApartAndPrinted() async throws {
        let transport = self.transport(
            [nil], routes: ["POST \(Self.base)/primary-authenticate": Self.start(binding: "transfer", number: "95")])
        let output = try await LoginDirect(username: "jo", primary: .oob(.push), store: false).run(context(transport))

        #expect(output.binding == DirectLoginOutput.Binding(method: "transfer", number: "95"))
        #expect(messages.current.contains("    Pick 95 on the phone to approve the sign-in."))
        let json = String(decoding: try JSONOutput.encode(output, style: .compact), as: UTF8.self)
        #expect(json.contains(#""binding":{"method":"transfer","number":"95"}"#))
        #expect(tokenRequests(transport).allSatisfy { $0.formBody["binding_code"] == nil })
    }

    @Test func anSMSCodeFromStdinIsSentBackOnce() async throws {
        let transport = self.transport(
            [nil], routes: ["POST \(Self.base)/primary-authenticate": Self.start(channel: "sms", binding: "prompt")])
        let output = try await LoginDirect(username: "jo", primary: .oob(.sms), bindingCode: .standardInput, store: false)
            .run(context(transport, stdin: "482910\n"))
        #expect(output.binding == DirectLoginOutput.Binding(method: "prompt"))

        #expect(tokenRequests(transport).map { $0.formBody["binding_code"] } == ["482910"])
        #expect(sleeps.current.isEmpty, "an SMS code is not polled for")
    }

    @Test func anSMSCodeWithNoWayToAskForItStopsAScriptWithExit3() async {
        let transport = self.transport(
            [nil], routes: ["POST \(Self.base)/primary-authenticate": Self.start(channel: "voice", binding: "prompt")])
        let error = await failure { () throws(IdFlowError) in
            try await LoginDirect(username: "jo", primary: .oob(.voice)).run(context(transport))
        }
        #expect(error?.exitStatus == .rejected)
        #expect(error?.hint?.contains("--binding-code-stdin") == true)
        #expect(tokenRequests(transport).isEmpty)
    }

    /// The stopped script's sign-in is kept (0600), and `--resume` redeems the code that was sent, with no second
    /// `/primary-authenticate` (no second SMS); a wrong code keeps it for another try, the right one removes it.
    @Test func aStoppedSMSSignInResumesWithTheSameCodeAndIsThenForgotten() async throws {
        let transport = self.transport(
            [Self.error("invalid_grant"), nil],
            routes: ["POST \(Self.base)/primary-authenticate": Self.start(channel: "sms", binding: "prompt")])
        let context = self.context(transport)
        let error = await failure { () throws(IdFlowError) in
            try await LoginDirect(username: "jo", primary: .oob(.sms)).run(context)
        }
        let stop = try #require(error?.stop(as: LoginDirect.CodeNeeded.self))
        #expect(stop.channel == .sms && stop.expiresAt != nil)
        let kept = LoginDirect.PendingCode.kept(stateDirectory: context.configuration.stateDirectory)
        #expect(kept.pendingIDs(now: context.now()) == [stop.transaction])
        let mode =
            try FileManager.default.attributesOfItem(atPath: kept.directory.appendingPathComponent("\(stop.transaction).json").path)[
                .posixPermissions] as? Int
        #expect(mode == 0o600)

        /// A later run: the same state directory, the code on stdin.
        func later(_ stdin: String) -> IdFlowContext {
            var later = self.context(transport, stdin: stdin)
            later.configuration.stateDirectory = context.configuration.stateDirectory
            return later
        }
        let mistyped = await failure { () throws(IdFlowError) in
            try await LoginDirect(username: "", primary: .resume(stop.transaction), bindingCode: .standardInput, store: false)
                .run(later("000000\n"))
        }
        #expect(mistyped?.hint?.contains("--resume \(stop.transaction)") == true, "\(String(describing: mistyped))")
        #expect(kept.pendingIDs(now: context.now()) == [stop.transaction], "a wrong code leaves the sign-in to try again")

        let output = try await LoginDirect(username: "", primary: .resume(stop.transaction), bindingCode: .standardInput, store: false)
            .run(later("482910\n"))
        #expect(output.tokens.response.accessToken == "at-direct")
        #expect(tokenRequests(transport).map { $0.formBody["binding_code"] } == ["000000", "482910"])
        #expect(tokenRequests(transport).allSatisfy { $0.formBody["oob_code"] == "ftOOB1" })
        #expect(transport.requests.filter { $0.route.hasSuffix("/primary-authenticate") }.count == 1)
        #expect(kept.pendingIDs(now: context.now()).isEmpty)
    }

    static let mfaRequired = RoutedTransport.Reply.json(
        403,
        #"{"error":"mfa_required","error_description":"Verify with an additional authenticator to complete the sign-in process.","mfa_token":"F5snZpk1UBRKHYR6N7Mh","supported_challenge_types":"http://auth0.com/oauth/grant-type/mfa-otp http://auth0.com/oauth/grant-type/mfa-oob"}"#
    )

    @Test func aPasswordThenAnOTPAtTheChallenge() async throws {
        let transport = self.transport(
            [Self.mfaRequired, nil],
            routes: ["POST \(Self.base)/challenge": .json(200, #"{"challenge_type":"http://auth0.com/oauth/grant-type/mfa-otp"}"#)])
        let login = LoginDirect(
            username: "jo", primary: .password(.environment("IDFLOW_PASSWORD")), mfa: .otp, mfaCode: .given(.standardInput), store: false)
        _ = try await login.run(context(transport, stdin: "123456\n", environment: ["IDFLOW_PASSWORD": "pw-1"]))

        let requests = tokenRequests(transport)
        #expect(requests.map { $0.formBody["grant_type"] } == ["password", DirectAuthGrant.mfaOTP.rawValue])
        #expect(requests[0].formBody["username"] == "jo" && requests[0].formBody["password"] == "pw-1")
        #expect(requests[1].formBody["mfa_token"] == "F5snZpk1UBRKHYR6N7Mh" && requests[1].formBody["otp"] == "123456")
        let challenge = try #require(transport.requests.first { $0.route.hasSuffix("/challenge") })
        #expect(challenge.formBody["challenge_types_supported"] == DirectAuthGrant.mfaOTP.rawValue)
    }

    @Test func aPasswordThenAPushAtTheChallenge() async throws {
        let transport = self.transport(
            [Self.mfaRequired, Self.error("authorization_pending"), nil], routes: ["POST \(Self.base)/challenge": Self.start()])
        _ = try await LoginDirect(username: "jo", primary: .password(.environment("IDFLOW_PASSWORD")), mfa: .push, store: false)
            .run(context(transport, environment: ["IDFLOW_PASSWORD": "pw-1"]))

        let polls = tokenRequests(transport).dropFirst()
        #expect(polls.count == 2)
        #expect(polls.allSatisfy { $0.formBody["mfa_token"] == "F5snZpk1UBRKHYR6N7Mh" && $0.formBody["oob_code"] == "ftOOB1" })
        let challenge = try #require(transport.requests.first { $0.route.hasSuffix("/challenge") })
        #expect(challenge.formBody["channel_hint"] == "push")
    }

    @Test func aSecondFactorNobodyChoseStopsAScriptWithExit3() async {
        let transport = self.transport([Self.mfaRequired])
        let error = await failure { () throws(IdFlowError) in
            try await LoginDirect(username: "jo", primary: .password(.environment("IDFLOW_PASSWORD")))
                .run(context(transport, environment: ["IDFLOW_PASSWORD": "pw-1"]))
        }
        #expect(error?.exitStatus == .rejected)
        #expect(error?.hint?.contains("--mfa otp|push|sms|voice") == true)
        #expect(!transport.requests.contains { $0.route.hasSuffix("/challenge") })
    }

    @Test(arguments: ["unsupported_grant_type", "unauthorized_client"])
    func aGrantTheAppMayNotUseIsExit4NamingIt(error: String) async {
        let transport = self.transport([Self.error(error)])
        let failure = await failure { () throws(IdFlowError) in
            try await LoginDirect(username: "jo", primary: .otp(.given(.standardInput))).run(context(transport, stdin: "123456"))
        }
        #expect(failure?.exitStatus == .authentication)
        #expect(failure?.hint?.contains("\"OTP\"") == true)
    }

    /// Two sign-ins from one seed in the same 30 s: the second waits for the next step instead of resending a code.
    @Test func aCodeFromTheSeedIsNeverSentTwice() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-direct-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let seed = TOTPSeedFile(directory.appendingPathComponent("seed"))
        try seed.create(try #require(TOTPSecret(base32: "JBSWY3DPEHPK3PXP")))
        let transport = self.transport([nil])
        let context = self.context(transport)
        for _ in 0..<2 {
            _ = try await LoginDirect(username: "jo", primary: .otp(.seed(seed)), store: false).run(context)
        }
        let codes = tokenRequests(transport).compactMap { $0.formBody["otp"] }
        #expect(codes.count == 2)
        #expect(Set(codes).count == 2, "no code sent twice")
        #expect(tokenRequests(transport).allSatisfy { $0.formBody["login_hint"] == "jo" })
    }
}
