import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// `login-direct --webauthn` and `--mfa webauthn` against a fake org at the recordings' host, `example.okta.com`: the
/// recorded passkey options are read, a passkey kept here for that org answers them, and the assertion reaches
/// `/token` as unpadded base64url; options naming another site, or credentials not kept here, stop the sign-in.
@Suite struct DirectAuthPasskeyTests {
    static let org = "https://example.okta.com"
    static let base = "/oauth2/default/v1"
    static let folder = "okta-directauth"
    let server = FakeAuthorizationServer(org: DirectAuthPasskeyTests.org)
    let messages = Locked<[String]>([])

    static func recording(_ name: String) throws -> Data {
        try Fixtures.data("\(folder)/\(name)")
    }

    /// A recording with its one allowed credential id replaced by `id` (the recordings name `Y3JlZC0x`, "cred-1").
    static func recording(_ name: String, allowing id: String) throws -> RoutedTransport.Reply {
        let text = String(decoding: try recording(name), as: UTF8.self).replacingOccurrences(of: "Y3JlZC0x", with: id)
        return .json(200, text)
    }

    func context(_ transport: RoutedTransport, stdin: String = "", environment: [String: String] = [:]) -> IdFlowContext {
        var configuration = TestContext.configuration(org: server.org)
        configuration.clientID = server.clientID
        configuration.scope = "openid profile"
        return TestContext.make(
            transport: transport, configuration: configuration, stdin: stdin, environment: environment, messages: messages)
    }

    /// `routes` answer by route (and `late`, filled once a test knows what to answer); the token endpoint answers
    /// `tokens` in order, nil being the tokens.
    func transport(
        _ routes: [String: RoutedTransport.Reply], late: Locked<[String: RoutedTransport.Reply]> = Locked([:]),
        tokens: [RoutedTransport.Reply?] = [nil]
    ) -> RoutedTransport {
        let remaining = Locked(tokens)
        return server.transport { [server] request in
            if let reply = routes[request.route] ?? late.current[request.route] { return reply }
            guard request.route == "POST \(Self.base)/token" else { return nil }
            let answer = remaining.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
            return answer ?? server.tokens(access: "at-passkey", refresh: "rt-passkey", scope: "openid profile", nonce: nil)
        }
    }

    /// Keeps a passkey made for `org` in the context's state directory; its id as the org lists it.
    @discardableResult
    func keepPasskey(_ context: IdFlowContext, org: String = DirectAuthPasskeyTests.org) throws -> String {
        let party = try RelyingParty(origin: try #require(URL(string: org)))
        let authenticator = PasskeyAuthenticator(
            relyingParty: party, settings: .init(sealingRounds: 1 << 10), stateDirectory: context.configuration.stateDirectory)
        let creation = try authenticator.create(
            .init(challenge: Array(0..<32), userHandle: Array("00uflku0io38ODGrP0w6".utf8)), context: context)
        return creation.passkey.id
    }

    static func isUnpaddedBase64URL(_ text: String?) -> Bool {
        guard let text, !text.isEmpty else { return false }
        return !text.contains("=") && !text.contains("+") && !text.contains("/") && Base64URL.decode(text) != nil
    }

    // MARK: The recordings

    @Test func theRecordedOptionsAreRead() throws {
        let kotlin = try PasskeyStart.parse(try Self.recording("kotlin-primary-authenticate-webauthn-response.json"))
        #expect(kotlin.rpId == "example.okta.com" && kotlin.timeout == 60000 && kotlin.userVerification == "preferred")
        let options = try kotlin.requestOptions()
        #expect(options.challenge == Array("test-challenge".utf8))
        #expect(options.allowedCredentialIds == [Array("cred-1".utf8)])
        #expect(options.userVerification == .preferred)

        let request = ChallengeRequest(
            endpoint: try #require(URL(string: "\(Self.org)/oauth2/v1/challenge")),
            client: ClientCredentials(clientID: "0oaclient"), mfaToken: "mfa1", grant: .mfaWebAuthn)
        #expect(try request.httpRequest().formBody["challenge_types_supported"] == DirectAuthGrant.mfaWebAuthn.rawValue)
        let answer = try request.decode(
            HTTPResponse(
                status: 200, headers: ["Content-Type": "application/json"],
                body: try Self.recording("kotlin-challenge-webauthn-response.json"),
                url: try #require(URL(string: "\(Self.org)/oauth2/v1/challenge"))))
        guard case .webAuthn(let second) = answer else {
            Issue.record("not a passkey start: \(answer)")
            return
        }
        #expect(second.challengeType == DirectAuthGrant.mfaWebAuthn.rawValue && second.allowedCredentialIds == ["Y3JlZC0x"])

        // The Swift SDK's recording has placeholders for its values: read, then refused before anything is signed.
        let swift = try PasskeyStart.parse(try Self.recording("swift-directauth-challenge-webauthn.json"))
        #expect(swift.challengeType == DirectAuthGrant.webAuthn.rawValue)
        #expect(swift.appId == "https://example.okta.com" && swift.rpId == nil)
        #expect(swift.allowedCredentialIds == ["<credentialId>"] && swift.enrolledCredentialIds == ["<credential_id>"])
        let refused = #expect(throws: IdFlowError.self) { _ = try swift.requestOptions() }
        #expect(refused?.message.contains("<") == true)
        #expect(throws: IdFlowError.self) { _ = try PasskeyStart.parse(Data(#"{"challengeType":"x"}"#.utf8)) }
    }

    // MARK: Sign-ins

    @Test func aKeptPasskeySignsInAsTheFirstFactor() async throws {
        let late = Locked<[String: RoutedTransport.Reply]>([:])
        let transport = self.transport([:], late: late)
        let context = self.context(transport)
        let id = try keepPasskey(context)
        late.withLock {
            $0["POST \(Self.base)/primary-authenticate"] = try? Self.recording(
                "kotlin-primary-authenticate-webauthn-response.json", allowing: id)
        }
        let output = try await LoginDirect(username: "jo@example.com", primary: .webAuthn).run(context)

        #expect(output.tokens.response.accessToken == "at-passkey")
        let start = try #require(transport.requests.first { $0.route.hasSuffix("/primary-authenticate") })
        #expect(start.formBody["challenge_hint"] == DirectAuthGrant.webAuthn.rawValue)
        #expect(start.formBody["login_hint"] == "jo@example.com")
        let token = try #require(transport.requests.first { $0.route == "POST \(Self.base)/token" })
        #expect(token.formBody["grant_type"] == DirectAuthGrant.webAuthn.rawValue)
        for field in ["authenticatorData", "clientDataJSON", "signature", "userHandle"] {
            #expect(Self.isUnpaddedBase64URL(token.formBody[field]), "\(field): \(token.formBody[field] ?? "missing")")
        }
        let clientData = try #require(token.formBody["clientDataJSON"].flatMap { Base64URL.decode($0) })
        let json = try #require(try JSONSerialization.jsonObject(with: clientData) as? [String: Any])
        #expect(json["type"] as? String == "webauthn.get")
        #expect(json["challenge"] as? String == "dGVzdC1jaGFsbGVuZ2U")
        #expect(json["origin"] as? String == Self.org)
        #expect(token.formBody["userHandle"] == Base64URL.encode(Array("00uflku0io38ODGrP0w6".utf8)))
        let stored = try TokenStore(directory: context.configuration.profileDirectory).load()
        #expect(stored?.tokens.refreshToken == "rt-passkey")
    }

    @Test func withoutAUsernameTheSignInIsDiscoverable() async throws {
        let discoverable =
            #"{"challengeType":"urn:okta:params:oauth:grant-type:webauthn","publicKey":{"challenge":"dGVzdC1jaGFsbGVuZ2U","allowCredentials":[],"timeout":60000,"userVerification":"preferred","extensions":{"appid":"https://example.okta.com"}}}"#
        let transport = self.transport(["POST \(Self.base)/primary-authenticate": .json(200, discoverable)])
        let context = self.context(transport)
        try keepPasskey(context)
        _ = try await LoginDirect(username: "", primary: .webAuthn, store: false).run(context)

        let start = try #require(transport.requests.first { $0.route.hasSuffix("/primary-authenticate") })
        #expect(start.formBody["login_hint"] == nil)
        let token = try #require(transport.requests.first { $0.route == "POST \(Self.base)/token" })
        #expect(token.formBody["userHandle"] != nil, "the server learns the user from the user handle")
    }

    @Test func aPasskeyAnswersTheSecondFactorAfterAPassword() async throws {
        let mfaRequired = RoutedTransport.Reply.json(
            403,
            #"{"error":"mfa_required","error_description":"Verify with an additional authenticator to complete the sign-in process.","mfa_token":"F5snZpk1UBRKHYR6N7Mh","supported_challenge_types":"urn:okta:params:oauth:grant-type:mfa-webauthn"}"#
        )
        let late = Locked<[String: RoutedTransport.Reply]>([:])
        let transport = self.transport([:], late: late, tokens: [mfaRequired, nil])
        let context = self.context(transport, environment: ["IDFLOW_PASSWORD": "pw-1"])
        let id = try keepPasskey(context)
        late.withLock {
            $0["POST \(Self.base)/challenge"] = try? Self.recording("kotlin-challenge-webauthn-response.json", allowing: id)
        }
        _ = try await LoginDirect(username: "jo", primary: .password(.environment("IDFLOW_PASSWORD")), mfa: .webauthn, store: false)
            .run(context)

        let challenge = try #require(transport.requests.first { $0.route.hasSuffix("/challenge") })
        #expect(challenge.formBody["challenge_types_supported"] == DirectAuthGrant.mfaWebAuthn.rawValue)
        #expect(challenge.formBody["mfa_token"] == "F5snZpk1UBRKHYR6N7Mh")
        let tokens = transport.requests.filter { $0.route == "POST \(Self.base)/token" }
        #expect(tokens.map { $0.formBody["grant_type"] } == ["password", DirectAuthGrant.mfaWebAuthn.rawValue])
        #expect(tokens.last?.formBody["mfa_token"] == "F5snZpk1UBRKHYR6N7Mh")
        #expect(Self.isUnpaddedBase64URL(tokens.last?.formBody["signature"]))
    }

    @Test func withoutASecondFactorNamedAScriptIsToldWebAuthnIsOffered() async throws {
        let choice = SecondFactorChoice(offered: [DirectAuthGrant.mfaWebAuthn.rawValue], context: context(self.transport([:])))
        #expect(choice.factors == [.webauthn])
        let error = #expect(throws: IdFlowError.self) { _ = try choice.choose() }
        #expect(error?.hint?.contains("--mfa webauthn") == true)
    }

    // MARK: Refusals

    @Test func optionsOnlyForCredentialsNotKeptHereSayHowToEnrollOne() async throws {
        let transport = self.transport([
            "POST \(Self.base)/primary-authenticate": .json(
                200, String(decoding: try Self.recording("kotlin-primary-authenticate-webauthn-response.json"), as: UTF8.self))
        ])
        let context = self.context(transport)
        try keepPasskey(context)
        let error = await failure { () throws(IdFlowError) in
            _ = try await LoginDirect(username: "jo", primary: .webAuthn).run(context)
        }
        #expect(error?.exitStatus == .notFound)
        #expect(error?.hint?.contains("--passkey") == true)
        #expect(!transport.requests.contains { $0.route == "POST \(Self.base)/token" })
    }

    /// The recording names `example.okta.com`; fetched from another org it would lend that site's passkeys out.
    @Test func optionsNamingAnotherSiteAreExit13() async throws {
        let other = FakeAuthorizationServer(org: "https://o.example.com")
        let transport = other.transport { request in
            request.route == "POST \(Self.base)/primary-authenticate"
                ? .json(
                    200,
                    String(decoding: (try? Self.recording("kotlin-primary-authenticate-webauthn-response.json")) ?? Data(), as: UTF8.self))
                : nil
        }
        var configuration = TestContext.configuration(org: other.org)
        configuration.clientID = other.clientID
        let context = TestContext.make(transport: transport, configuration: configuration, messages: messages)
        try keepPasskey(context)
        let error = await failure { () throws(IdFlowError) in
            _ = try await LoginDirect(username: "jo", primary: .webAuthn).run(context)
        }
        #expect(error?.exitStatus == .security)
        #expect(!transport.requests.contains { $0.route.hasSuffix("/token") })
    }
}
