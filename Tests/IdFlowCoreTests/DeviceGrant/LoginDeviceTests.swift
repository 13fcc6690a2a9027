import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `LoginDevice` polling a fake token endpoint that answers from a list; the client's sleep returns at once
/// and records what it was asked to wait, so the waits a user would sit through can be read off.
@Suite struct LoginDeviceTests {
    let server = FakeAuthorizationServer()
    let sleeps = Locked<[Duration]>([])
    let messages = Locked<[String]>([])
    static let deviceCode = "GmRhmhcxhwAzkoEqiMEg_DnyEysNkuNhszIySk9eS"

    static func pollError(_ error: String) -> RoutedTransport.Reply {
        .json(400, "{\"error\":\"\(error)\",\"error_description\":\"The server said \(error).\"}")
    }

    /// The device grant of `server`, its polls answered by `polls` in order (the last repeats); `nil` is the tokens.
    func transport(_ polls: [RoutedTransport.Reply?], deviceGrant: Bool = true) -> RoutedTransport {
        let remaining = Locked(polls)
        return server.transport(deviceGrant: deviceGrant) { [server] request in
            switch request.route {
            case "POST /oauth2/default/v1/device/authorize":
                return .json(
                    200,
                    """
                    {"device_code":"\(Self.deviceCode)","user_code":"WDJBMJHT","verification_uri":"\(server.org)/activate",
                    "expires_in":600,"interval":5}
                    """)
            case "POST /oauth2/default/v1/token":
                let answer = remaining.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
                return answer ?? server.tokens(access: "at-device", refresh: "rt-device", scope: "openid profile", nonce: nil)
            default:
                return nil
            }
        }
    }

    func context(_ transport: RoutedTransport) -> IdFlowContext {
        var configuration = TestContext.configuration(org: server.org)
        configuration.clientID = server.clientID
        configuration.scope = "openid profile"
        return TestContext.make(transport: transport, configuration: configuration, messages: messages, sleeps: sleeps)
    }

    func polls(_ transport: RoutedTransport) -> [HTTPRequest] {
        transport.requests.filter { $0.formBody["grant_type"] == DeviceCodeTokenRequest.grantType }
    }

    @Test func pendingThenTheTokensEndTheLoginValidatedAndStored() async throws {
        let transport = self.transport([Self.pollError("authorization_pending"), nil])
        let context = self.context(transport)
        let output = try await LoginDevice().run(context)

        #expect(output.response.accessToken == "at-device")
        #expect(output.idTokenClaims?["sub"] == "00u1")
        let start = try #require(transport.requests.first { $0.route.hasSuffix("/device/authorize") })
        #expect(start.formBody["client_id"] == server.clientID)
        #expect(start.formBody["scope"] == "openid profile")
        #expect(polls(transport).count == 2)
        #expect(polls(transport).allSatisfy { $0.formBody["device_code"] == Self.deviceCode })
        #expect(sleeps.current == [.seconds(5), .seconds(5)])
        #expect(messages.current.contains("    WDJB MJHT"))
        let stored = try TokenStore(directory: context.configuration.profileDirectory).load()
        #expect(stored?.tokens.refreshToken == "rt-device")
    }

    @Test func slowDownAddsFiveSecondsToThisAndEveryLaterWait() async throws {
        let transport = self.transport([
            Self.pollError("authorization_pending"), Self.pollError("slow_down"), Self.pollError("authorization_pending"), nil,
        ])
        _ = try await LoginDevice(store: false).run(context(transport))

        #expect(sleeps.current == [.seconds(5), .seconds(5), .seconds(10), .seconds(10)])
        #expect(messages.current.contains { $0.contains("polling every 10 s now") })
    }

    @Test func aDeniedCodeEndsWithExit8AndNothingStored() async throws {
        let transport = self.transport([Self.pollError("authorization_pending"), Self.pollError("access_denied")])
        let context = self.context(transport)
        let error = await failure { () throws(IdFlowError) in try await LoginDevice().run(context) }

        #expect(error?.exitStatus == .denied)
        #expect(error?.exitStatus.rawValue == 8)
        #expect(polls(transport).count == 2, "no poll after the denial")
        #expect(try TokenStore(directory: context.configuration.profileDirectory).load() == nil)
    }

    @Test func anExpiredCodeEndsWithExit9() async {
        let transport = self.transport([Self.pollError("expired_token")])
        let error = await failure { () throws(IdFlowError) in try await LoginDevice().run(context(transport)) }

        #expect(error?.exitStatus == .timedOut)
        #expect(error?.exitStatus.rawValue == 9)
        #expect(polls(transport).count == 1)
    }

    /// 12 s at 5 s leaves room for two polls; the third would come after the limit, so the login waits out
    /// the last 2 s instead and gives up.
    @Test func theTimeoutEndsThePollingAfterThePollsThatFitInIt() async {
        let transport = self.transport([Self.pollError("authorization_pending")])
        let error = await failure { () throws(IdFlowError) in try await LoginDevice(timeout: .seconds(12)).run(context(transport)) }

        #expect(error?.exitStatus == .timedOut)
        #expect(error?.hint?.contains("--device-timeout") == true)
        #expect(polls(transport).count == 2)
        #expect(sleeps.current == [.seconds(5), .seconds(5), .seconds(2)])
    }

    @Test func aProviderWithoutTheDeviceEndpointIsAUsageErrorBeforeAnyPost() async {
        let transport = self.transport([nil], deviceGrant: false)
        let error = await failure { () throws(IdFlowError) in try await LoginDevice().run(context(transport)) }

        #expect(error?.exitStatus == .usage)
        #expect(error?.exitStatus.rawValue == 64)
        #expect(error?.message.contains("device_authorization_endpoint") == true)
        #expect(!transport.requests.contains { $0.method == "POST" })
    }

    @Test func aHostileUserCodeAndLinkNeitherDriveTheTerminalNorReachTheBrowser() async throws {
        let remaining = Locked<[RoutedTransport.Reply?]>([nil])
        let transport = server.transport(deviceGrant: true) { [server] request in
            switch request.route {
            case "POST /oauth2/default/v1/device/authorize":
                return .json(
                    200,
                    """
                    {"device_code":"\(Self.deviceCode)","user_code":"\\u001b]0;pwned\\u0007\\u001b[2JWDJBMJHT",
                    "verification_uri":"\(server.org)/activate","verification_uri_complete":"file:///etc/passwd",
                    "expires_in":600,"interval":5}
                    """)
            case "POST /oauth2/default/v1/token":
                return remaining.withLock { $0[0] }
                    ?? server.tokens(access: "at-device", refresh: "rt-device", scope: "openid profile", nonce: nil)
            default:
                return nil
            }
        }
        let stderr = Locked(Data())
        let console = Console(
            standardOutput: { _ in }, standardError: { data in stderr.withLock { $0.append(data) } }, readStandardInput: { Data() },
            readLine: { nil })
        var context = self.context(transport)
        context.console = console
        context.message = { console.line($0) }
        context.notice = { console.line($0) }
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-browser-\(UUID().uuidString)")
        let opener = BrowserOpener(environment: ["BROWSER": "echo %s > '\(marker.path)'"])

        _ = try await LoginDevice(opener: opener).run(context)

        let shown = String(decoding: stderr.current, as: UTF8.self)
        #expect(!shown.contains("\u{1B}") && !shown.contains("\u{07}"), "a control character reached the terminal")
        #expect(shown.contains("\\x1B]0;pwned"))
        #expect(shown.contains("not opening file:///etc/passwd"))
        try await Task.sleep(for: .milliseconds(300))
        #expect(!FileManager.default.fileExists(atPath: marker.path))
    }
}
