import Foundation
import IdFlowCore
import IdFlowTestSupport
import Testing

@testable import idflow

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// login-pkce → refresh → token helpers → logout against a scripted authorization server, in one state
/// directory, as a script would chain them.
@Suite struct OAuthCommandTests {
    let configuration = [
        "--org-url", OktaReplies.org, "--client-id", "0oaclient", "--redirect-uri", "com.example.app:/callback", "--scope",
        "profile offline_access",
    ]

    /// An authorization server that redirects with the request's own state and issues numbered tokens.
    static func authorizationServer(issued: Locked<Int> = Locked(0)) -> RoutedTransport {
        RoutedTransport { request in
            switch request.route {
            case "GET /oauth2/default/.well-known/openid-configuration":
                return OktaReplies.discovery
            case "GET /oauth2/default/v1/authorize":
                let state = request.query("state") ?? ""
                return .init(status: 302, headers: ["Location": "com.example.app:/callback?code=code1&state=\(state)"])
            case "POST /oauth2/default/v1/token":
                let n = issued.withLock { count -> Int in
                    count += 1
                    return count
                }
                return .json(
                    200,
                    "{\"token_type\":\"Bearer\",\"expires_in\":3600,\"access_token\":\"at\(n)\",\"scope\":\"profile offline_access\",\"refresh_token\":\"rt\(n)\"}"
                )
            case "POST /oauth2/default/v1/revoke", "POST /oauth2/default/v1/introspect":
                return .json(200, request.route.hasSuffix("introspect") ? "{\"active\":true,\"token_type\":\"Bearer\"}" : "")
            case "GET /oauth2/default/v1/userinfo":
                return request.value(forHTTPHeaderField: "Authorization") == "Bearer at1"
                    ? .json(200, "{\"sub\":\"00u1\",\"name\":\"Jo Doe\"}")
                    : .init(status: 401, headers: ["WWW-Authenticate": "Bearer error=\"invalid_token\""])
            default:
                return nil
            }
        }
    }

    @Test func loginThenRefreshThenLogoutShareTheProfilesStore() async throws {
        let environment = CLI.isolatedEnvironment()
        let server = Self.authorizationServer()

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
        let server = Self.authorizationServer()
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
            ["login-pkce", "--session-token-stdin", "--org-url", OktaReplies.org], transport: Self.authorizationServer(), stdin: "s")
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
        let server = Self.authorizationServer()
        // The state is made at run time, so a pasted URL with the wrong one is refused; a bare code is taken.
        let result = await CLI.run(["login-pkce", "--manual"] + configuration, transport: server, stdin: "code1\n")
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.contains("/v1/authorize?"))
        #expect(server.requests.last?.formBody["code"] == "code1")
    }

    @Test func tokenInspectDecodesWithoutTheNetwork() async {
        let jwt = OktaReplies.jwt("{\"sub\":\"00u1\",\"exp\":1,\"iss\":\"\(OktaReplies.issuer)\"}")
        let result = await CLI.run(["token", "inspect", "-"], stdin: jwt)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.json?["claims"]?["sub"] == "00u1")
        #expect(result.json?["expired"] == true)
        #expect(result.json?["signatureVerified"] == false)
    }

    @Test func tokenInspectOfSomethingThatIsNotAJWTIsRejected() async {
        let result = await CLI.run(["token", "inspect", "-"], stdin: "not-a-jwt")
        #expect(result.exitCode != 0)
        #expect(result.stdout.isEmpty)
        #expect(result.error?["message"] != nil)
    }

    @Test func tokenVerifyRefusesATokenNoPublishedKeySigned() async {
        let server = RoutedTransport { request in
            switch request.route {
            case "GET /oauth2/default/.well-known/openid-configuration": return OktaReplies.discovery
            case "GET /oauth2/default/v1/keys": return .json(200, "{\"keys\":[]}")
            default: return nil
            }
        }
        let jwt = OktaReplies.jwt("{\"sub\":\"00u1\",\"exp\":4102444800,\"iat\":1,\"iss\":\"\(OktaReplies.issuer)\"}")
        let result = await CLI.run(["token", "verify", "-"] + configuration, transport: server, stdin: jwt)
        #expect(result.exitCode == 13)
        #expect(result.stdout.isEmpty)
    }

    @Test func tokenIntrospectAndRevokeSendTheGivenTokenWithItsHint() async {
        let server = Self.authorizationServer()
        let introspect = await CLI.run(
            ["token", "introspect", "-", "--type", "refresh"] + configuration, transport: server, stdin: "rt-given")
        #expect(introspect.exitCode == 0, "\(introspect.stderr)")
        #expect(introspect.json?["active"] == true)
        #expect(server.requests.last?.formBody["token"] == "rt-given")
        #expect(server.requests.last?.formBody["token_type_hint"] == "refresh_token")
        #expect(server.requests.last?.formBody["client_id"] == "0oaclient")

        let revoke = await CLI.run(["token", "revoke", "-", "--type", "access"] + configuration, transport: server, stdin: "at-given")
        #expect(revoke.exitCode == 0, "\(revoke.stderr)")
        #expect(revoke.json?["revoked"] == "access_token")
        #expect(server.requests.last?.formBody["token"] == "at-given")
    }

    @Test func userinfoWithARefusedTokenExits4() async {
        let result = await CLI.run(
            ["userinfo", "--access-token-stdin"] + configuration, transport: Self.authorizationServer(), stdin: "expired")
        #expect(result.exitCode == 4)
        #expect(result.error?["hint"]?.stringValue?.contains("idflow refresh") == true)
    }

    @Test func tokenCommandsWithNothingStoredExit12() async {
        for arguments in [["token", "inspect"], ["token", "revoke"], ["userinfo"], ["logout"]] {
            let result = await CLI.run(arguments + configuration, transport: Self.authorizationServer())
            #expect(result.exitCode == 12, "\(arguments): \(result.stderr)")
        }
    }

    @Test func aStoredTokenIsNeverSentToAnotherIssuer() async {
        let environment = CLI.isolatedEnvironment()
        let server = Self.authorizationServer()
        let login = await CLI.run(
            ["login-pkce", "--session-token-stdin"] + configuration, transport: server, stdin: "s", environment: environment)
        #expect(login.exitCode == 0)
        let sentBefore = server.requests.count
        let elsewhere = ["--issuer", "https://attacker.example.com/oauth2/default"]
        for arguments in [["userinfo"], ["token", "introspect"], ["token", "revoke"], ["token", "verify"], ["refresh"], ["logout"]] {
            let result = await CLI.run(arguments + configuration + elsewhere, transport: server, environment: environment)
            #expect(result.exitCode == 64, "\(arguments): \(result.stderr)")
            #expect(result.error?["hint"]?.stringValue?.contains("--issuer") == true)
        }
        let fromEnvironment = await CLI.run(
            ["userinfo"] + configuration, transport: server,
            environment: environment.merging(["OKTA_OAUTH2_ISSUER": "https://attacker.example.com/oauth2/default"]) { $1 })
        #expect(fromEnvironment.exitCode == 64)
        #expect(server.requests.count == sentBefore, "nothing was sent anywhere")
        #expect(!server.requests.contains { $0.url?.host == "attacker.example.com" })

        // The same issuer, spelled as configured, is fine.
        let same = await CLI.run(
            ["userinfo"] + configuration + ["--issuer", OktaReplies.issuer], transport: server, environment: environment)
        #expect(same.exitCode == 0, "\(same.stderr)")
    }

    @Test func aTokenGivenExplicitlyGoesWhereTheFlagsSay() async {
        let environment = CLI.isolatedEnvironment()
        let server = Self.authorizationServer()
        _ = await CLI.run(["login-pkce", "--session-token-stdin"] + configuration, transport: server, stdin: "s", environment: environment)
        let discovery = RoutedTransport { request in
            guard request.url?.host == "other.example.com" else { return nil }
            switch request.route {
            case "GET /oauth2/default/.well-known/openid-configuration":
                let body = String(decoding: OktaReplies.discovery.body, as: UTF8.self)
                return .json(200, body.replacingOccurrences(of: "o.example.com", with: "other.example.com"))
            case "POST /oauth2/default/v1/introspect": return .json(200, "{\"active\":false}")
            default: return nil
            }
        }
        let result = await CLI.run(
            ["token", "introspect", "-"] + configuration + ["--issuer", "https://other.example.com/oauth2/default"], transport: discovery,
            stdin: "some-token", environment: environment)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.json?["active"] == false)
    }

    /// A server whose refresh answers carry the given ID token, and whose keys answer `keys`.
    static func refreshingServer(idToken: String?, keys: RoutedTransport.Reply) -> RoutedTransport {
        let issued = Locked(0)
        let base = authorizationServer(issued: issued)
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
