import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

@testable import idflow

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `redirect-idp` (idx.md §7) in `login-pkce --embedded`: the sign-in goes on at another identity provider in a
/// browser, and the org's redirect to the loopback redirect URI carries the interaction code back.
struct EmbeddedRedirectCommandTests {
    /// The recorded document that offers only Facebook, then (after `interaction_required`) the password form.
    static func server() -> RoutedTransport {
        let introspections = Locked(0)
        return RecordedIdentityEngine.transport { request in
            if request.route == "POST /oauth2/default/v1/token" {
                return .json(200, #"{"token_type":"Bearer","expires_in":3600,"access_token":"at-facebook","scope":"profile"}"#)
            }
            guard request.route == "POST /idp/idx/introspect" else { return nil }
            let count = introspections.withLock { count in
                count += 1
                return count
            }
            return RecordedIdentityEngine.reply(count == 1 ? "redirect-idp.json" : "03-challenge-authenticator-password.json")
        }
    }

    /// Plays the browser: once idflow has started the interaction, the org redirects to the loopback listener
    /// with `query` and the interaction's own state.
    static func redirect(_ server: RoutedTransport, port: Int, query: String) async throws {
        for _ in 0..<200 {
            if let interact = server.requests.first(where: { $0.route.hasSuffix("/interact") }), let state = interact.formBody["state"] {
                let url = URL(string: "http://127.0.0.1:\(port)/callback?\(query)&state=\(state)")!
                if let (_, response) = try? await URLSession.shared.data(from: url), (response as? HTTPURLResponse)?.statusCode == 200 {
                    return
                }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the loopback listener never took the redirect")
    }

    static func configuration(redirectURI: String) -> [String] {
        [
            "--org-url", RecordedIdentityEngine.org, "--client-id", "0ZczewGCFPlxNYYcLq5i", "--redirect-uri", redirectURI, "--scope",
            "profile offline_access",
        ]
    }

    @Test func theInteractionCodeOfTheRedirectIsExchangedWithTheVerifier() async throws {
        let server = Self.server()
        let port = Int.random(in: 41_000..<49_000)
        async let result = CLI.run(
            ["login-pkce", "--embedded"] + Self.configuration(redirectURI: "http://127.0.0.1:\(port)/callback"), transport: server,
            environment: CLI.isolatedEnvironment(["BROWSER": "true"]))
        try await Self.redirect(server, port: port, query: "interaction_code=ic-from-facebook")
        let finished = await result
        #expect(finished.exitCode == 0, "\(finished.stderr)")
        #expect(finished.stderr.contains("sign in with Facebook IdP"))
        let token = try #require(server.requests.last)
        #expect(token.route == "POST /oauth2/default/v1/token", "the discovered token endpoint")
        #expect(token.formBody["grant_type"] == "interaction_code")
        #expect(token.formBody["interaction_code"] == "ic-from-facebook")
        let interact = try #require(server.requests.first { $0.route.hasSuffix("/interact") })
        #expect(try PKCEPair(verifier: token.formBody["code_verifier"] ?? "").challenge == interact.formBody["code_challenge"])
    }

    @Test func interactionRequiredContinuesTheSignInHere() async throws {
        let server = Self.server()
        let port = Int.random(in: 49_000..<57_000)
        async let result = CLI.run(
            ["login-pkce", "--embedded", "--answer", "credentials.passcode=s3cret"]
                + Self.configuration(redirectURI: "http://127.0.0.1:\(port)/callback"), transport: server,
            environment: CLI.isolatedEnvironment(["BROWSER": "true"]))
        try await Self.redirect(server, port: port, query: "error=interaction_required")
        let finished = await result
        #expect(finished.exitCode == 0, "\(finished.stderr)")
        #expect(server.requests.filter { $0.route.hasSuffix("/introspect") }.count == 2)
        #expect(server.requests.contains { $0.route.hasSuffix("/challenge/answer") })
    }

    @Test func aScriptWhoseRedirectCannotBeCaughtIsToldWhy() async {
        let result = await CLI.run(
            ["login-pkce", "--embedded"] + Self.configuration(redirectURI: "com.example.app:/callback"), transport: Self.server())
        #expect(result.exitCode == 3)
        #expect(result.error?["message"]?.stringValue?.contains("Facebook IdP") == true)
        #expect(result.error?["hint"]?.stringValue?.contains("http://127.0.0.1:PORT/callback") == true)
    }
}
