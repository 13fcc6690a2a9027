import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import IdFlowTestSupport
import Testing

@Suite("/v1/authorize and the sign-in form")
struct AuthorizeControllerTests {
    @Test("a valid sessionToken redirects with code and state, sets sid, and is single-use")
    func sessionToken() async throws {
        try await withSandbox { api in
            let (_, sessionToken) = try await api.registerActiveUser(email: "st@example.com")
            let pkce = PKCEPair()
            let path = api.authorizePath(pkce: pkce, sessionToken: sessionToken)
            let reply = try await api.authorize(path)
            let target = try api.redirectTarget(reply)
            #expect(target.base == SandboxClient.redirectURI)
            #expect(target.parameters["state"] == "st4te")
            let code = try #require(target.parameters["code"])
            #expect(code.count >= 20)
            #expect(reply.header("Referrer-Policy") == "no-referrer")
            #expect(reply.header("Set-Cookie")?.hasPrefix("sid=") == true)
            #expect(reply.header("Location")?.hasPrefix("com.example.idflow:/callback?code=") == true)

            // Used once: the same URL now needs a sign-in (form), or fails with prompt=none.
            let again = try await api.authorize(path)
            #expect(again.status == .ok)
            #expect(signInTransaction(again.text) != nil)
            let silent = try await api.authorize(
                api.authorizePath(pkce: pkce, sessionToken: sessionToken, overrides: ["prompt": "none"]))
            #expect(try api.redirectTarget(silent).parameters["error"] == "login_required")
        }
    }

    @Test("an expired sessionToken with prompt=none is login_required, state echoed")
    func expiredSessionToken() async throws {
        try await withSandbox { api in
            let (_, sessionToken) = try await api.registerActiveUser(email: "late@example.com")
            try await api.advanceClock(seconds: 301)
            let reply = try await api.authorize(
                api.authorizePath(pkce: PKCEPair(), sessionToken: sessionToken, overrides: ["prompt": "none"]))
            let target = try api.redirectTarget(reply)
            #expect(target.parameters["error"] == "login_required")
            #expect(target.parameters["state"] == "st4te")
            #expect(target.parameters["error_description"]?.isEmpty == false)
            #expect(target.parameters["code"] == nil)
        }
    }

    @Test("prompt=none without a session is login_required; with the sid cookie it issues a code")
    func promptNone() async throws {
        try await withSandbox { api in
            let noSession = try await api.authorize(api.authorizePath(pkce: PKCEPair(), overrides: ["prompt": "none"]))
            #expect(try api.redirectTarget(noSession).parameters["error"] == "login_required")

            let (_, sessionToken) = try await api.registerActiveUser(email: "sid@example.com")
            let first = try await api.authorize(api.authorizePath(pkce: PKCEPair(), sessionToken: sessionToken))
            let cookie = try #require(first.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
            let pkce = PKCEPair()
            let silent = try await api.authorize(api.authorizePath(pkce: pkce, overrides: ["prompt": "none"]), cookie: cookie)
            let code = try #require(try api.redirectTarget(silent).parameters["code"])
            #expect(try await api.exchange(code: code, pkce: pkce).status == .ok)

            // prompt=login ignores the session and shows the form.
            let forced = try await api.authorize(api.authorizePath(pkce: pkce, overrides: ["prompt": "login"]), cookie: cookie)
            #expect(forced.status == .ok)
            #expect(forced.header("Content-Type")?.hasPrefix("text/html") == true)
        }
    }

    @Test("the sign-in form: bad credentials show it again, good ones redirect with a code")
    func signInForm() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "form@example.com", password: "Correct-Horse-7")
            let pkce = PKCEPair()
            let page = try await api.authorize(api.authorizePath(pkce: pkce))
            #expect(page.status == .ok)
            #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
            let txn = try #require(signInTransaction(page.text))
            let action = "\(await api.state.orgURL)/oauth2/default/v1/authorize/signin"
            #expect(page.text.contains(#"<form method="post" action="\#(action)">"#))
            #expect(page.text.contains(#"name="username""#) && page.text.contains(#"name="password""#))

            let wrong = try await api.postForm(
                "/oauth2/default/v1/authorize/signin",
                [("txn", txn), ("username", "form@example.com"), ("password", "nope")])
            #expect(wrong.status == .ok)
            #expect(wrong.text.contains("Sign-in failed"))
            #expect(signInTransaction(wrong.text) == txn)

            let good = try await api.postForm(
                "/oauth2/default/v1/authorize/signin",
                [("txn", txn), ("username", "form@example.com"), ("password", "Correct-Horse-7")])
            let target = try api.redirectTarget(good)
            #expect(target.parameters["state"] == "st4te")
            #expect(good.header("Set-Cookie")?.hasPrefix("sid=") == true)
            let code = try #require(target.parameters["code"])
            let tokens = try await api.exchange(code: code, pkce: pkce)
            #expect(tokens.status == .ok)

            // The transaction is spent.
            let replay = try await api.postForm(
                "/oauth2/default/v1/authorize/signin",
                [("txn", txn), ("username", "form@example.com"), ("password", "Correct-Horse-7")])
            #expect(replay.status == .badRequest)
        }
    }

    @Test("the brief's sed expression extracts the txn from the sign-in page")
    func sedExtractsTransaction() async throws {
        let sed = URL(fileURLWithPath: "/bin/sed")
        guard FileManager.default.isExecutableFile(atPath: sed.path) else { return }
        try await withSandbox { api in
            let page = try await api.authorize(api.authorizePath(pkce: PKCEPair()))
            let sedOutput = try await ExternalCommand.run(
                sed.path, ["-n", #"s/.*name="txn" value="\([^"]*\)".*/\1/p"#], stdin: Data(page.text.utf8))
            let extracted = sedOutput.output.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(!extracted.isEmpty)
            #expect(extracted == signInTransaction(page.text))
        }
    }

    @Test("a sign-in transaction lives 10 minutes")
    func signInTransactionExpiry() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "slow@example.com")
            let txn = try #require(signInTransaction(try await api.authorize(api.authorizePath(pkce: PKCEPair())).text))
            try await api.advanceClock(seconds: 601)
            let late = try await api.postForm(
                "/oauth2/default/v1/authorize/signin",
                [("txn", txn), ("username", "slow@example.com"), ("password", "Correct-Horse-7")])
            #expect(late.status == .badRequest)
            #expect(late.header("Location") == nil)
        }
    }

    @Test("an unknown client or unregistered redirect URI gets a 400 page, never a redirect")
    func noRedirectForUntrustedTargets() async throws {
        try await withSandbox { api in
            let pkce = PKCEPair()
            for overrides in [
                ["client_id": "0oaunknown"], ["client_id": nil], ["redirect_uri": "https://evil.example/cb"],
                ["redirect_uri": nil], ["redirect_uri": "http://127.0.0.1:5000/other"],
            ] as [[String: String?]] {
                let reply = try await api.authorize(api.authorizePath(pkce: pkce, overrides: overrides))
                #expect(reply.status == .badRequest, "\(overrides)")
                #expect(reply.header("Location") == nil)
                #expect(reply.header("Content-Type")?.hasPrefix("text/html") == true)
            }
        }
    }

    @Test("a registered loopback redirect URI matches any port (RFC 8252 §7.3)")
    func loopbackAnyPort() async throws {
        try await withSandbox { api in
            let (_, sessionToken) = try await api.registerActiveUser(email: "loop@example.com")
            let pkce = PKCEPair()
            let reply = try await api.authorize(
                api.authorizePath(
                    pkce: pkce, sessionToken: sessionToken, overrides: ["redirect_uri": "http://127.0.0.1:53123/callback"]))
            let target = try api.redirectTarget(reply)
            #expect(target.base == "http://127.0.0.1:53123/callback")
            let code = try #require(target.parameters["code"])
            // The token request must repeat exactly the URI used at /authorize.
            let mismatch = try await api.exchange(code: code, pkce: pkce, redirectURI: "http://127.0.0.1:1/callback")
            #expect(mismatch.status == .badRequest)
        }
    }

    @Test(
        "request errors are redirected with the OAuth error code",
        arguments: [
            (["response_type": "token"], "unsupported_response_type", true),
            (["state": nil], "invalid_request", false),
            (["state": "bad state!"], "invalid_request", false),
            (["scope": "profile email"], "invalid_scope", true),
            (["scope": "openid wizardry"], "invalid_scope", true),
            (["scope": nil], "invalid_scope", true),
            (["code_challenge": nil], "invalid_request", true),
            (["code_challenge_method": "plain"], "invalid_request", true),
            (["code_challenge_method": nil], "invalid_request", true),
            (["code_challenge": "short"], "invalid_request", true),
            (["prompt": "none login"], "invalid_request", true),
            (["response_mode": "okta_post_message"], "unsupported_response_mode", true),
        ] as [([String: String?], String, Bool)])
    func redirectedErrors(overrides: [String: String?], error: String, stateEchoed: Bool) async throws {
        try await withSandbox { api in
            let reply = try await api.authorize(api.authorizePath(pkce: PKCEPair(), overrides: overrides))
            let target = try api.redirectTarget(reply)
            #expect(target.base == SandboxClient.redirectURI)
            #expect(target.parameters["error"] == error)
            #expect(target.parameters["error_description"]?.isEmpty == false)
            #expect((target.parameters["state"] == "st4te") == stateEchoed)
        }
    }

    @Test("response_mode=fragment puts the result after #")
    func fragmentMode() async throws {
        try await withSandbox { api in
            let (_, sessionToken) = try await api.registerActiveUser(email: "frag@example.com")
            let reply = try await api.authorize(
                api.authorizePath(pkce: PKCEPair(), sessionToken: sessionToken, overrides: ["response_mode": "fragment"]))
            let location = try #require(reply.header("Location"))
            #expect(location.hasPrefix("com.example.idflow:/callback#code="))
            #expect(RedirectTarget(location).parameters["state"] == "st4te")
        }
    }

    @Test("response_mode=form_post answers an auto-submitting form with code and state")
    func formPostMode() async throws {
        try await withSandbox { api in
            let (_, sessionToken) = try await api.registerActiveUser(email: "post@example.com")
            let reply = try await api.authorize(
                api.authorizePath(pkce: PKCEPair(), sessionToken: sessionToken, overrides: ["response_mode": "form_post"]))
            #expect(reply.status == .ok)
            #expect(reply.text.contains(#"<form method="post" action="com.example.idflow:/callback">"#))
            #expect(reply.text.contains(#"name="code" value=""#))
            #expect(reply.text.contains(#"<input type="hidden" name="state" value="st4te">"#))
        }
    }
}
