import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation
@testable import idflow

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `login-device` against a scripted authorization server whose token endpoint answers the polls from a list;
/// the harness's sleep returns at once, so minutes of polling run instantly.
@Suite struct DeviceLoginCommandTests {
    static let configuration = [
        "--org-url", OktaReplies.org, "--client-id", "0oaclient", "--scope", "profile offline_access",
    ]
    static let deviceCode = "GmRhmhcxhwAzkoEqiMEg_DnyEysNkuNhszIySk9eS"
    static let issuer = OktaReplies.issuer

    static let discovery = FakeAuthorizationServer.discovery(issuer: issuer, deviceGrant: true)

    static func pollError(_ error: String) -> RoutedTransport.Reply {
        .json(400, "{\"error\":\"\(error)\",\"error_description\":\"The server said \(error).\"}")
    }

    static let tokens = RoutedTransport.Reply.json(
        200,
        "{\"token_type\":\"Bearer\",\"expires_in\":3600,\"access_token\":\"at1\",\"scope\":\"profile offline_access\",\"refresh_token\":\"rt1\"}"
    )

    /// A server whose polls are answered by `polls` in order (the last one repeats); refreshes get `at2`.
    static func server(polls: [RoutedTransport.Reply], discovery: RoutedTransport.Reply = discovery) -> RoutedTransport {
        let remaining = Locked(polls)
        return RoutedTransport { request in
            switch request.route {
            case "GET /oauth2/default/.well-known/openid-configuration":
                return discovery
            case "POST /oauth2/default/v1/device/authorize":
                return .json(
                    200,
                    """
                    {"device_code":"\(deviceCode)","user_code":"WDJBMJHT","verification_uri":"\(OktaReplies.org)/activate",
                    "verification_uri_complete":"\(OktaReplies.org)/activate?user_code=WDJBMJHT","expires_in":600,"interval":5}
                    """)
            case "POST /oauth2/default/v1/token" where request.formBody["grant_type"] == "refresh_token":
                return .json(
                    200, "{\"token_type\":\"Bearer\",\"expires_in\":3600,\"access_token\":\"at2\",\"scope\":\"profile offline_access\"}")
            case "POST /oauth2/default/v1/token":
                return remaining.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
            default:
                return nil
            }
        }
    }

    static func polls(_ server: RoutedTransport) -> [HTTPRequest] {
        server.requests.filter { $0.formBody["grant_type"] == DeviceCodeTokenRequest.grantType }
    }

    /// `--quiet` keeps what the person must act on (the page, the code, the JSON line a script watches for) and
    /// drops the progress around it.
    @Test func quietStillShowsTheCodeButNotTheProgress() async {
        let server = Self.server(polls: [Self.pollError("authorization_pending"), Self.tokens])
        let login = await CLI.run(["--quiet", "login-device"] + Self.configuration, transport: server)
        #expect(login.exitCode == 0, "\(login.stderr)")
        let lines = login.stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("WDJB MJHT"))
        #expect(lines.contains { $0.hasPrefix("{\"user_code\"") || $0.contains("\"user_code\":\"WDJBMJHT\"") })
        #expect(!login.stderr.contains("Waiting for the sign-in"), "\(login.stderr)")
        #expect(!login.stderr.contains("logged in"), "\(login.stderr)")
    }

    @Test func pendingThenSlowDownThenTheTokensArePrintedAndStored() async throws {
        let environment = CLI.isolatedEnvironment()
        let server = Self.server(polls: [Self.pollError("authorization_pending"), Self.pollError("slow_down"), Self.tokens])
        let login = await CLI.run(["login-device"] + Self.configuration, transport: server, environment: environment)
        #expect(login.exitCode == 0, "\(login.stderr)")
        #expect(login.json?["access_token"] == "at1")
        #expect(login.json?["refresh_token"] == "rt1")
        #expect(login.json?["expires_at"] != nil)

        let started = try #require(server.requests.first { $0.route.hasSuffix("/device/authorize") })
        #expect(started.formBody["client_id"] == "0oaclient")
        #expect(started.formBody["scope"] == "profile offline_access")
        let polls = Self.polls(server)
        #expect(polls.count == 3)
        #expect(polls.allSatisfy { $0.formBody["device_code"] == Self.deviceCode && $0.formBody["client_id"] == "0oaclient" })

        // For people: the page and the code grouped on lines of their own; for scripts: one JSON line.
        let lines = login.stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("\(OktaReplies.org)/activate"))
        #expect(lines.contains("WDJB MJHT"))
        let notice = try #require(
            lines.compactMap { try? JSONValue(data: Data($0.utf8)) }.first { $0["user_code"] != nil }, "\(login.stderr)")
        #expect(notice["user_code"] == "WDJBMJHT")
        #expect(notice["verification_uri"] == .string("\(OktaReplies.org)/activate"))
        #expect(notice["verification_uri_complete"] == .string("\(OktaReplies.org)/activate?user_code=WDJBMJHT"))
        #expect(notice["expires_in"] == 600)
        #expect(notice.objectValue?.count == 4)
        #expect(login.stderr.contains("polling every 10 s now"), "slow_down adds 5 s to the interval of 5 s")
        #expect(!login.stderr.contains(Self.deviceCode), "the device code is a secret")

        // The login is stored like login-pkce's: refresh uses its refresh token.
        let refresh = await CLI.run(["refresh"] + Self.configuration, transport: server, environment: environment)
        #expect(refresh.exitCode == 0, "\(refresh.stderr)")
        #expect(server.requests.last?.formBody["refresh_token"] == "rt1")
    }

    @Test func aDeniedCodeExits8AndStoresNothing() async {
        let environment = CLI.isolatedEnvironment()
        let server = Self.server(polls: [Self.pollError("authorization_pending"), Self.pollError("access_denied")])
        let login = await CLI.run(["login-device"] + Self.configuration, transport: server, environment: environment)
        #expect(login.exitCode == 8, "\(login.stderr)")
        #expect(login.stdout.isEmpty)
        #expect(login.error?["errorCode"] == "access_denied")
        #expect(login.error?["hint"]?.stringValue?.contains("denied") == true)
        let refresh = await CLI.run(["refresh"] + Self.configuration, transport: server, environment: environment)
        #expect(refresh.exitCode == 12, "nothing was stored")
    }

    @Test func anExpiredCodeExits9() async {
        let server = Self.server(polls: [Self.pollError("authorization_pending"), Self.pollError("expired_token")])
        let login = await CLI.run(["login-device"] + Self.configuration, transport: server)
        #expect(login.exitCode == 9, "\(login.stderr)")
        #expect(login.error?["errorCode"] == "expired_token")
        #expect(login.stdout.isEmpty)
    }

    /// With an interval of 5 s, a 12 s limit leaves room for two polls; the third would come after it.
    @Test func theDeviceTimeoutEndsThePollingWithExit9() async {
        let server = Self.server(polls: [Self.pollError("authorization_pending")])
        let login = await CLI.run(["login-device", "--device-timeout", "12"] + Self.configuration, transport: server)
        #expect(login.exitCode == 9, "\(login.stderr)")
        #expect(login.error?["kind"] == "timed_out")
        #expect(login.error?["hint"]?.stringValue?.contains("--device-timeout") == true)
        #expect(Self.polls(server).count == 2)
    }

    /// Without --device-timeout the wait lasts as long as the code: 600 s at 5 s is 120 polls at most.
    @Test func withoutATimeoutTheCodesLifetimeIsTheLimit() async {
        let server = Self.server(polls: [Self.pollError("authorization_pending")])
        let login = await CLI.run(["login-device"] + Self.configuration, transport: server)
        #expect(login.exitCode == 9, "\(login.stderr)")
        #expect(Self.polls(server).count == 120)
        #expect(login.stderr.contains("still waiting"), "progress now and then")
    }

    @Test func aProviderWithoutTheEndpointIsAUsageErrorWithAHint() async {
        let server = Self.server(polls: [Self.tokens], discovery: OktaReplies.discovery)
        let login = await CLI.run(["login-device"] + Self.configuration, transport: server)
        #expect(login.exitCode == 64, "\(login.stderr)")
        #expect(login.error?["message"]?.stringValue?.contains("device_authorization_endpoint") == true)
        #expect(login.error?["hint"]?.stringValue?.contains("login-pkce --manual") == true)
        #expect(!server.requests.contains { $0.method == "POST" })
    }

    @Test func aConfidentialClientAuthenticatesWithBasicOnEveryRequest() async throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("device-secret-\(UUID().uuidString)")
        try "s3cret\n".write(to: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: secret) }
        let server = Self.server(polls: [Self.tokens])
        let login = await CLI.run(
            ["login-device", "--no-store", "--client-secret-file", secret.path] + Self.configuration, transport: server)
        #expect(login.exitCode == 0, "\(login.stderr)")
        let basic = "Basic " + Data("0oaclient:s3cret".utf8).base64EncodedString()
        let posts = server.requests.filter { $0.method == "POST" }
        #expect(posts.count == 2)
        #expect(posts.allSatisfy { $0.header("Authorization") == basic && $0.formBody["client_id"] == nil })
    }

    @Test func aClientNotAllowedTheGrantGetsTheServersErrorAndAHint() async {
        let server = RoutedTransport { request in
            switch request.route {
            case "GET /oauth2/default/.well-known/openid-configuration": return Self.discovery
            case "POST /oauth2/default/v1/device/authorize": return Self.pollError("unauthorized_client")
            default: return nil
            }
        }
        let login = await CLI.run(["login-device"] + Self.configuration, transport: server)
        #expect(login.exitCode == 4, "\(login.stderr)")
        #expect(login.error?["errorCode"] == "unauthorized_client")
        #expect(login.error?["hint"]?.stringValue?.contains("device authorization grant") == true)
    }

    @Test func theVerboseTraceMasksTheDeviceCode() async {
        let server = Self.server(polls: [Self.tokens])
        let login = await CLI.run(["login-device", "-v", "--no-store"] + Self.configuration, transport: server)
        #expect(login.exitCode == 0, "\(login.stderr)")
        #expect(login.stderr.contains("device_code"))
        #expect(!login.stderr.contains(Self.deviceCode))
    }
}
