import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

@testable import idflow

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The token tools (`token inspect|verify|introspect|revoke`, `userinfo`) on stored and given tokens, against a
/// scripted authorization server.
@Suite struct TokenCommandTests {
    let configuration = NumberedTokenServer.configuration

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
        let server = NumberedTokenServer.transport()
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
            ["userinfo", "--access-token-stdin"] + configuration, transport: NumberedTokenServer.transport(), stdin: "expired")
        #expect(result.exitCode == 4)
        #expect(result.error?["hint"]?.stringValue?.contains("idflow refresh") == true)
    }

    @Test func tokenCommandsWithNothingStoredExit12() async {
        for arguments in [["token", "inspect"], ["token", "revoke"], ["userinfo"]] {
            let result = await CLI.run(arguments + configuration, transport: NumberedTokenServer.transport())
            #expect(result.exitCode == 12, "\(arguments): \(result.stderr)")
        }
    }

    /// Logging out of nothing is success, as `rm -f` is: the same keys, `cleared` false, nothing sent.
    @Test func logoutWithNothingStoredSucceedsWithClearedFalse() async {
        let server = NumberedTokenServer.transport()
        let result = await CLI.run(["logout"] + configuration, transport: server)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.json?["cleared"] == false)
        #expect(result.json?["revoked"] == [])
        #expect(result.json?["profile"] == "default")
        #expect(server.requests.isEmpty)
    }

    @Test func tokenInspectGivesSecondsBesideTheText() async {
        let jwt = OktaReplies.jwt("{\"sub\":\"00u1\",\"exp\":1,\"iss\":\"\(OktaReplies.issuer)\"}")
        let result = await CLI.run(["token", "inspect", "-"], stdin: jwt)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect((result.json?["expiresInSeconds"]?.intValue ?? 0) < -1_000_000_000, "expired in 1970")
        #expect(result.json?["expiresIn"]?.stringValue?.hasPrefix("expired") == true)
    }

    @Test func aStoredTokenIsNeverSentToAnotherIssuer() async {
        let environment = CLI.isolatedEnvironment()
        let server = NumberedTokenServer.transport()
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
        #expect(!server.requests.contains { $0.url.host == "attacker.example.com" })

        // The same issuer, spelled as configured, is fine.
        let same = await CLI.run(
            ["userinfo"] + configuration + ["--issuer", OktaReplies.issuer], transport: server, environment: environment)
        #expect(same.exitCode == 0, "\(same.stderr)")
    }

    @Test func aTokenGivenExplicitlyGoesWhereTheFlagsSay() async {
        let environment = CLI.isolatedEnvironment()
        let server = NumberedTokenServer.transport()
        _ = await CLI.run(["login-pkce", "--session-token-stdin"] + configuration, transport: server, stdin: "s", environment: environment)
        let discovery = RoutedTransport { request in
            guard request.url.host == "other.example.com" else { return nil }
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
}
