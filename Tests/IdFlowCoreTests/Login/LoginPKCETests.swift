import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `LoginPKCE` without a browser, over a fake authorization server whose ID tokens pass the validator: what
/// the login sends, what it returns, and what it leaves in the profile's token store.
@Suite struct LoginPKCETests {
    let server = FakeAuthorizationServer()
    let messages = Locked<[String]>([])

    func context(_ transport: RoutedTransport, scope: String = "openid profile offline_access") -> IdFlowContext {
        var configuration = TestContext.configuration(org: server.org)
        configuration.clientID = server.clientID
        configuration.redirectURI = "com.example.app:/callback"
        configuration.scope = scope
        return TestContext.make(transport: transport, configuration: configuration, messages: messages)
    }

    func stored(_ context: IdFlowContext) throws -> StoredTokens? {
        try TokenStore(directory: context.configuration.profileDirectory).load()
    }

    @Test func aSessionTokenIsRedeemedHeadlesslyAndTheValidatedLoginIsStored() async throws {
        let transport = server.transport()
        let context = self.context(transport)
        let output = try await LoginPKCE(method: .sessionToken(Secret("20111session"))).run(context)

        #expect(output.response.accessToken == "at1")
        #expect(output.idTokenClaims?["sub"] == "00u1")
        let authorize = try #require(transport.requests.first { $0.route.hasSuffix("/authorize") })
        #expect(authorize.query("sessionToken") == "20111session")
        #expect(authorize.query("prompt") == "none")
        #expect(authorize.query("code_challenge_method") == "S256")
        let exchange = try #require(transport.requests.first { $0.route.hasSuffix("/token") })
        #expect(exchange.formBody["code"] == FakeAuthorizationServer.code)
        #expect(exchange.formBody["redirect_uri"] == "com.example.app:/callback")
        let verifier = try #require(exchange.formBody["code_verifier"])
        #expect(try PKCEPair(verifier: verifier).challenge == authorize.query("code_challenge"))

        let saved = try #require(try stored(context))
        #expect(saved.issuer == server.issuer)
        #expect(saved.clientId == server.clientID)
        #expect(saved.tokens.refreshToken == "rt1")
        #expect(saved.idTokenClaims?["nonce"] == authorize.query("nonce").map(JSONValue.string))
        #expect(messages.current.last == "logged in as 00u1; tokens saved for profile default")
    }

    @Test func primaryAuthenticationGivesTheSessionTokenTheAuthorizeRequestRedeems() async throws {
        let success = try Fixtures.data("okta-core/authn-success.json")
        let transport = server.transport { request in
            guard request.route == "POST /api/v1/authn" else { return nil }
            return .init(status: 200, headers: ["Content-Type": "application/json"], body: success)
        }
        let context = self.context(transport)
        let output = try await LoginPKCE(method: .credentials(username: "jo@example.com", password: Secret("pw-1"))).run(context)

        #expect(output.response.accessToken == "at1")
        let primary = try #require(transport.requests.first { $0.route == "POST /api/v1/authn" })
        #expect(primary.url.host == "o.example.com")
        #expect(primary.jsonBody?["username"] == "jo@example.com")
        #expect(primary.jsonBody?["password"] == "pw-1")
        let authorize = try #require(transport.requests.first { $0.route.hasSuffix("/authorize") })
        #expect(authorize.query("sessionToken") == "test_session_token", "the recorded SUCCESS transaction's token")
        #expect(try stored(context)?.tokens.accessToken == "at1")
    }

    @Test func aRedirectWithAForeignStateIsRefusedAndItsCodeNeverExchanged() async throws {
        let transport = server.transport { request in
            guard request.route.hasSuffix("/authorize") else { return nil }
            return .init(status: 302, headers: ["Location": "com.example.app:/callback?code=\(FakeAuthorizationServer.code)&state=forged"])
        }
        let context = self.context(transport)
        let error = await failure { () throws(IdFlowError) in try await LoginPKCE(method: .sessionToken(Secret("s"))).run(context) }

        #expect(error?.exitStatus == .security)
        #expect(error?.exitStatus.rawValue == 13)
        #expect(!transport.requests.contains { $0.route.hasSuffix("/token") })
        #expect(try stored(context) == nil)
    }

    @Test func withoutStoreTheTokensAreReturnedButNothingIsKept() async throws {
        let context = self.context(server.transport())
        let output = try await LoginPKCE(method: .sessionToken(Secret("s")), store: false).run(context)

        #expect(output.response.accessToken == "at1")
        #expect(output.response.refreshToken == "rt1")
        #expect(try stored(context) == nil)
        #expect(messages.current.last == "logged in as 00u1")
    }

    @Test func aResponseWithoutAnIDTokenWhenOpenIDWasAskedIsRefusedAndNothingStored() async throws {
        let transport = server.transport { [server] request in
            guard request.route.hasSuffix("/token") else { return nil }
            return server.tokens(access: "at1", refresh: "rt1", scope: "profile offline_access", nonce: nil)
        }
        let context = self.context(transport)
        let error = await failure { () throws(IdFlowError) in try await LoginPKCE(method: .sessionToken(Secret("s"))).run(context) }

        #expect(error?.exitStatus == .security)
        #expect(error?.message.contains("no ID token") == true)
        #expect(transport.requests.contains { $0.route.hasSuffix("/token") }, "the grant was made")
        #expect(try stored(context) == nil)
        #expect(!messages.current.contains { $0.hasPrefix("logged in") })
    }

    @Test func anIDTokenForAnotherLoginsNonceIsRefused() async throws {
        let transport = server.transport { [server] request in
            guard request.route.hasSuffix("/token") else { return nil }
            return server.tokens(access: "at1", refresh: "rt1", scope: "openid", nonce: "someone-elses-nonce")
        }
        let context = self.context(transport)
        let error = await failure { () throws(IdFlowError) in try await LoginPKCE(method: .sessionToken(Secret("s"))).run(context) }

        #expect(error?.exitStatus == .security)
        #expect(try stored(context) == nil)
    }
}
