import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

@testable import idflow

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// login-pkce → refresh → logout against a scripted authorization server, in one state directory, as a script
/// would chain them.
@Suite struct LoginCommandTests {
    let configuration = NumberedTokenServer.configuration

    @Test func loginThenRefreshThenLogoutShareTheProfilesStore() async throws {
        let environment = CLI.isolatedEnvironment()
        let server = NumberedTokenServer.transport()

        let login = await CLI.run(
            ["login-pkce", "--session-token-stdin"] + configuration, transport: server, stdin: "20111session\n", environment: environment)
        #expect(login.exitCode == 0, "\(login.stderr)")
        #expect(login.json?["access_token"] == "at1")
        let authorize = try #require(server.requests.first { $0.route.hasSuffix("/authorize") })
        #expect(authorize.query("sessionToken") == "20111session")
        #expect(authorize.query("prompt") == "none")
        #expect(authorize.query("code_challenge_method") == "S256")
        let exchange = try #require(server.requests.first { $0.route.hasSuffix("/token") })
        #expect(exchange.formBody["grant_type"] == "authorization_code")
        #expect(exchange.formBody["code"] == "code1")
        #expect(exchange.formBody["code_verifier"]?.count ?? 0 >= 43)

        let userinfo = await CLI.run(["userinfo"] + configuration, transport: server, environment: environment)
        #expect(userinfo.json?["sub"] == "00u1")

        let refresh = await CLI.run(["refresh"] + configuration, transport: server, environment: environment)
        #expect(refresh.exitCode == 0, "\(refresh.stderr)")
        #expect(refresh.json?["access_token"] == "at2")
        #expect(server.requests.last?.formBody["refresh_token"] == "rt1")

        // The rotated token was stored: the next refresh presents it.
        _ = await CLI.run(["refresh"] + configuration, transport: server, environment: environment)
        #expect(server.requests.last?.formBody["refresh_token"] == "rt2")

        let logout = await CLI.run(["logout"] + configuration, transport: server, environment: environment)
        #expect(logout.exitCode == 0, "\(logout.stderr)")
        #expect(server.requests.contains { $0.route.hasSuffix("/revoke") && $0.formBody["token"] == "rt3" })

        let afterLogout = await CLI.run(["refresh"] + configuration, transport: server, environment: environment)
        #expect(afterLogout.exitCode == 12)
        #expect(afterLogout.stdout.isEmpty)
    }

    @Test func loginWithNoStorePrintsButKeepsNothing() async {
        let environment = CLI.isolatedEnvironment()
        let server = NumberedTokenServer.transport()
        let login = await CLI.run(
            ["login-pkce", "--session-token-stdin", "--no-store", "--compact"] + configuration, transport: server, stdin: "s",
            environment: environment)
        #expect(login.exitCode == 0)
        #expect(login.stdout.hasSuffix("}\n") && login.stdout.split(separator: "\n").count == 1)
        let refresh = await CLI.run(["refresh"] + configuration, transport: server, environment: environment)
        #expect(refresh.exitCode == 12)
    }

    @Test func loginWithoutAClientIDIsAUsageErrorWithAHint() async {
        let result = await CLI.run(
            ["login-pkce", "--session-token-stdin", "--org-url", OktaReplies.org], transport: NumberedTokenServer.transport(), stdin: "s")
        #expect(result.exitCode == 64)
        #expect(result.error?["hint"]?.stringValue?.contains("--client-id") == true)
    }

    @Test func aRedirectWithAForeignStateIsASecurityFailure() async {
        let server = RoutedTransport { request in
            switch request.route {
            case "GET /oauth2/default/.well-known/openid-configuration": return OktaReplies.discovery
            case "GET /oauth2/default/v1/authorize":
                return .init(status: 302, headers: ["Location": "com.example.app:/callback?code=c&state=forged"])
            default: return nil
            }
        }
        let result = await CLI.run(["login-pkce", "--session-token-stdin"] + configuration, transport: server, stdin: "s")
        #expect(result.exitCode == 13)
        #expect(!server.requests.contains { $0.route.hasSuffix("/token") }, "a forged redirect's code must never be exchanged")
    }

    @Test func manualLoginReadsThePastedRedirectFromStdin() async throws {
        let server = NumberedTokenServer.transport()
        // The state is made at run time, so a pasted URL with the wrong one is refused; a bare code is taken.
        let result = await CLI.run(["login-pkce", "--manual"] + configuration, transport: server, stdin: "code1\n")
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.contains("/v1/authorize?"))
        #expect(server.requests.last?.formBody["code"] == "code1")
    }

    static func refreshingServer(idToken: String?, keys: RoutedTransport.Reply) -> RoutedTransport {
        let issued = Locked(0)
        let base = NumberedTokenServer.transport(issued: issued)
        return RoutedTransport { request in
            switch request.route {
            case "GET /oauth2/default/v1/keys":
                return keys
            case "POST /oauth2/default/v1/token" where request.formBody["grant_type"] == "refresh_token":
                let n = issued.withLock { count -> Int in
                    count += 1
                    return count
                }
                let idTokenMember = idToken.map { ",\"id_token\":\"\($0)\"" } ?? ""
                return .json(
                    200,
                    "{\"token_type\":\"Bearer\",\"expires_in\":3600,\"access_token\":\"at\(n)\",\"refresh_token\":\"rt\(n)\"\(idTokenMember)}"
                )
            default:
                return base.answer(request)
            }
        }
    }

    @Test func aRefreshWhoseIDTokenFailsKeepsTheRotatedRefreshToken() async {
        let environment = CLI.isolatedEnvironment()
        let forged = OktaReplies.jwt(
            "{\"sub\":\"00u1\",\"iss\":\"\(OktaReplies.issuer)\",\"aud\":\"0oaclient\",\"exp\":4102444800,\"iat\":1}")
        let server = Self.refreshingServer(idToken: forged, keys: .json(200, "{\"keys\":[]}"))
        let login = await CLI.run(
            ["login-pkce", "--session-token-stdin"] + configuration, transport: server, stdin: "s", environment: environment)
        #expect(login.exitCode == 0, "\(login.stderr)")

        let refresh = await CLI.run(
            ["refresh"] + configuration + ["--scope", "openid profile offline_access"], transport: server, environment: environment)
        #expect(refresh.exitCode == 13, "\(refresh.stderr)")
        #expect(refresh.stdout.isEmpty)
        #expect(refresh.stderr.contains("the rotated refresh token was saved"))
        #expect(server.requests.last { $0.route.hasSuffix("/token") }?.formBody["refresh_token"] == "rt1")

        // The next refresh presents the token the server rotated in, not the retired one.
        _ = await CLI.run(["refresh"] + configuration, transport: server, environment: environment)
        #expect(server.requests.last { $0.route.hasSuffix("/token") }?.formBody["refresh_token"] == "rt2")
    }

    @Test func signingKeysThatCannotBeFetchedStopARefreshBeforeTheGrant() async {
        let environment = CLI.isolatedEnvironment()
        let server = Self.refreshingServer(idToken: nil, keys: .json(503, "{\"error\":\"temporarily_unavailable\"}"))
        _ = await CLI.run(["login-pkce", "--session-token-stdin"] + configuration, transport: server, stdin: "s", environment: environment)
        let grantsBefore = server.requests.filter { $0.route.hasSuffix("/token") }.count
        let refresh = await CLI.run(
            ["refresh"] + configuration + ["--scope", "openid profile offline_access", "--max-retries", "0"], transport: server,
            environment: environment)
        #expect(refresh.exitCode == 7, "\(refresh.stderr)")
        #expect(server.requests.filter { $0.route.hasSuffix("/token") }.count == grantsBefore, "no grant was made, so nothing was rotated")
    }

    @Test func aLoginThatAskedForOpenIDButGotNoIDTokenIsRefusedAndNothingStored() async {
        let environment = CLI.isolatedEnvironment()
        let server = Self.refreshingServer(idToken: nil, keys: .json(200, "{\"keys\":[]}"))
        let openID = configuration.map { $0 == "profile offline_access" ? "openid profile offline_access" : $0 }
        let login = await CLI.run(
            ["login-pkce", "--session-token-stdin"] + openID, transport: server, stdin: "s", environment: environment)
        #expect(login.exitCode == 13, "\(login.stderr)")
        #expect(login.stdout.isEmpty)
        #expect(login.error?["message"]?.stringValue?.contains("no ID token") == true)
        let refresh = await CLI.run(["refresh"] + configuration, transport: server, environment: environment)
        #expect(refresh.exitCode == 12, "nothing was stored")
    }
}
