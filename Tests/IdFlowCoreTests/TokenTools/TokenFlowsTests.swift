import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// The token flows against a scripted Okta: each one discovers the issuer itself, then makes its one call.
struct TokenFlowsTests {
    static let issuer = "https://example.com/oauth2/default"

    static func discovery() throws -> ScriptedTransport.Answer {
        .json(200, data: try Fixtures.data("okta-core/oidc-openid-configuration-default-as.json"))
    }

    /// A context whose issuer is the fixture's, with no client id unless one is given.
    static func context(
        _ transport: ScriptedTransport, clientID: String? = nil, stdin: String = "", messages: Locked<[String]> = Locked([])
    ) -> IdFlowContext {
        var configuration = TestContext.configuration()
        configuration.issuer = URL(string: issuer)
        configuration.clientID = clientID
        return TestContext.make(transport: transport, configuration: configuration, stdin: stdin, messages: messages)
    }

    static func store(_ context: IdFlowContext, refreshToken: String? = "rt-stored") throws {
        let tokens = TokenResponse(
            tokenType: "Bearer", accessToken: "at-stored", expiresIn: 3600, scope: "openid", refreshToken: refreshToken, idToken: nil)
        try TokenStore(directory: context.configuration.profileDirectory).save(
            StoredTokens(issuer: issuer, clientId: "0oatestclient", tokens: tokens, expiresAt: nil, idTokenClaims: nil, savedAt: Date()))
    }

    @Test func tokenInputFollowsTheCommandLineConvention() {
        #expect(TokenInput(argument: nil) == .stored)
        #expect(TokenInput(argument: "-") == .standardInput)
        #expect(TokenInput(argument: "eyJ") == .argument("eyJ"))
    }

    @Test func tokenInputReadsEachSource() throws {
        let messages = Locked<[String]>([])
        let context = Self.context(ScriptedTransport([]), stdin: "  from-stdin \n", messages: messages)
        try Self.store(context, refreshToken: nil)
        #expect(try TokenInput.stored.resolve(kind: .access, context: context).value == "at-stored")
        #expect(try TokenInput.standardInput.resolve(kind: .access, context: context).value == "from-stdin")
        #expect(messages.current.isEmpty)
        #expect(try TokenInput.argument("given").resolve(kind: .access, context: context).value == "given")
        #expect(messages.current.count == 1, "a token on the command line is warned about")
        let missing = Built.error { () throws(IdFlowError) in _ = try TokenInput.stored.resolve(kind: .refresh, context: context) }
        #expect(missing == .localState("no refresh_token is stored for profile default"))
    }

    @Test func nothingStoredSaysToLogIn() {
        let context = Self.context(ScriptedTransport([]))
        let error = Built.error { () throws(IdFlowError) in try TokenInput.stored.resolve(kind: .access, context: context) }
        #expect(error?.exitStatus == .localState)
    }

    @Test func inspectDecodesWithoutTheNetwork() async throws {
        let transport = ScriptedTransport([])
        let context = Self.context(transport)
        let now = context.now().timeIntervalSince1970
        let jwt = try TestKeys.craft(header: ["alg": "RS256", "kid": "k1"], claims: ["sub": "00u1", "exp": .number(now + 600)])
        let output = try await InspectToken(token: .argument(jwt), kind: .id).run(context)
        let printed = try JSONValue(data: JSONOutput.encode(output, style: .compact))
        #expect(printed["claims"]?["sub"] == "00u1")
        #expect(printed["header"]?["kid"] == "k1")
        #expect(printed["expired"] == false)
        #expect(printed["signatureVerified"] == false)
        #expect(printed["expiresIn"]?.stringValue?.hasPrefix("in ") == true)
        #expect(printed["expiresAt"] != nil)
        #expect(printed["format"] == "jwt")
        #expect(transport.requests.isEmpty)
    }

    /// `expiresInSeconds` is what a script compares: whole seconds until `exp`, negative once it has passed.
    @Test func inspectGivesTheExpiryInSecondsNegativeWhenPast() async throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000.4)
        var context = Self.context(ScriptedTransport([]))
        context.now = { now }
        func inspect(exp: Double) async throws -> JSONValue {
            let jwt = try TestKeys.craft(header: ["alg": "RS256"], claims: ["sub": "00u1", "exp": .number(exp)])
            return try JSONValue(data: JSONOutput.encode(try await InspectToken(token: .argument(jwt)).run(context), style: .compact))
        }
        let live = try await inspect(exp: 1_700_003_600)
        #expect(live["expiresInSeconds"] == 3599)
        #expect(live["expiresIn"] == "in 59 min 59 s")
        #expect(live["expired"] == false)
        let past = try await inspect(exp: 1_699_999_880)
        #expect(past["expiresInSeconds"] == -121)
        #expect(past["expired"] == true)
    }

    /// Okta's refresh tokens are opaque: inspect says so and what it can, instead of failing to decode.
    @Test func inspectOfAnOpaqueRefreshTokenDescribesIt() async throws {
        let transport = ScriptedTransport([])
        let context = Self.context(transport)
        try Self.store(context, refreshToken: "hdCBd3Fp0aJ7mpz8ePYh1MuvzPkxUe1vLp9Nj4TBqS8")
        let output = try await InspectToken(token: .stored, kind: .refresh).run(context)
        let printed = try JSONValue(data: JSONOutput.encode(output, style: .compact))
        #expect(printed["format"] == "opaque")
        #expect(printed["length"] == 43)
        #expect(printed["claims"] == nil)
        #expect(printed["signatureVerified"] == false)
        #expect(printed["note"]?.stringValue?.contains("token introspect --type refresh") == true)
        #expect(transport.requests.isEmpty)

        // The same text as an access token is still refused: an access token is expected to be a JWT here.
        let refused = await failure { () throws(IdFlowError) in try await InspectToken(token: .stored, kind: .access).run(context) }
        #expect(refused?.exitStatus == .usage)
    }

    @Test func verifyNeedsNoClientID() async throws {
        let now = Date().timeIntervalSince1970
        let jwt = try await TestKeys.sign(
            ["iss": .string(Self.issuer), "sub": "00u1", "aud": "api://default", "iat": .number(now), "exp": .number(now + 600)],
            with: TestKeys.rsa,
            kid: "k1")
        // Discovery, then its `Date` read for the issuer's clock, then the keys.
        let transport = ScriptedTransport([
            try Self.discovery(), try Self.discovery(), .json(200, try TestKeys.jwks(TestKeys.jwk(TestKeys.rsa, kid: "k1"))),
        ])
        let output = try await VerifyToken(token: .argument(jwt), kind: .access, audience: "api://default").run(Self.context(transport))
        #expect(output.valid)
        #expect(output.issuer == Self.issuer)
        #expect(output.claims["sub"] == "00u1")
        #expect(
            transport.requests.map { $0.url.absoluteString } == [
                "https://example.com/oauth2/default/.well-known/openid-configuration",
                "https://example.com/oauth2/default/.well-known/openid-configuration", "https://example.com/oauth2/default/v1/keys",
            ])
    }

    @Test func introspectPostsTheTokenWithItsKind() async throws {
        let transport = ScriptedTransport([try Self.discovery(), .json(200, #"{"active":true,"sub":"00u1"}"#)])
        let context = Self.context(transport, clientID: "0oaclient")
        try Self.store(context)
        let result = try await IntrospectToken(token: .stored, kind: .refresh).run(context)
        #expect(result["active"] == true)
        #expect(transport.requests[1].url.absoluteString == "https://example.com/oauth2/default/v1/introspect")
        // A stored token is presented as the client that obtained it, whatever client id is configured now.
        #expect(transport.requests[1].formBody == ["token": "rt-stored", "token_type_hint": "refresh_token", "client_id": "0oatestclient"])
    }

    @Test func revokePrintsTheKindItRevoked() async throws {
        let transport = ScriptedTransport([try Self.discovery(), .response(status: 200, headers: [:], body: Data())])
        let output = try await RevokeToken(token: .standardInput, kind: .access, clientSecret: Secret("s3cret"))
            .run(Self.context(transport, clientID: "0oaclient", stdin: "at-given\n"))
        #expect(try JSONValue(data: JSONOutput.encode(output, style: .compact)) == ["revoked": "access_token"])
        #expect(transport.requests[1].url.absoluteString == "https://example.com/oauth2/default/v1/revoke")
        #expect(transport.requests[1].formBody == ["token": "at-given", "token_type_hint": "access_token"])
        #expect(transport.requests[1].header("Authorization")?.hasPrefix("Basic ") == true)
    }

    @Test func revokeNeedsAClientID() async throws {
        let transport = ScriptedTransport([])
        await #expect(
            throws: IdFlowError.configuration(
                "no OAuth client id configured", hint: "pass --client-id, export IDFLOW_CLIENT_ID, or set clientId in the profile")
        ) {
            try await RevokeToken(token: .argument("t"), kind: .refresh).run(Self.context(transport))
        }
        #expect(transport.requests.isEmpty, "a missing client id is reported before any request")
    }

    @Test func userinfoSendsTheStoredAccessTokenWithoutAClientID() async throws {
        let transport = ScriptedTransport([try Self.discovery(), .json(200, #"{"sub":"00u1"}"#)])
        let context = Self.context(transport)
        try Self.store(context)
        let claims = try await FetchUserinfo(token: .stored).run(context)
        #expect(claims["sub"] == "00u1")
        #expect(transport.requests[1].url.absoluteString == "https://example.com/oauth2/default/v1/userinfo")
        #expect(transport.requests[1].header("Authorization") == "Bearer at-stored")
    }

    @Test func logoutRevokesRefreshThenAccessAndClearsTheStore() async throws {
        let ok = ScriptedTransport.Answer.response(status: 200, headers: [:], body: Data())
        let transport = ScriptedTransport([try Self.discovery(), ok, ok])
        let context = Self.context(transport)
        try Self.store(context)
        let result = try await Logout().run(context)
        #expect(result.revoked == ["refresh_token", "access_token"])
        #expect(transport.requests[1].formBody == ["token": "rt-stored", "token_type_hint": "refresh_token", "client_id": "0oatestclient"])
        #expect(transport.requests[2].formBody == ["token": "at-stored", "token_type_hint": "access_token", "client_id": "0oatestclient"])
        #expect(try TokenStore(directory: context.configuration.profileDirectory).load() == nil)
    }

    /// Logging out of nothing is the state asked for: success, `cleared` false, nothing sent.
    @Test func logoutWithNothingStoredSucceedsWithoutClearing() async throws {
        let transport = ScriptedTransport([])
        let result = try await Logout().run(Self.context(transport))
        #expect(result.profile == "default")
        #expect(result.revoked.isEmpty)
        #expect(result.cleared == false)
        #expect(transport.requests.isEmpty)
    }
}
