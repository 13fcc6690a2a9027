import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

struct PKCEAndAuthorizationTests {
    /// RFC 7636 Appendix B.
    @Test func s256MatchesTheRFCExample() throws {
        let pair = try PKCEPair(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pair.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(pair.method == "S256")
    }

    @Test func generatedVerifiersAreFreshAndWellFormed() throws {
        let pairs = (0..<50).map { _ in PKCEPair.generate() }
        #expect(Set(pairs.map(\.verifier)).count == 50)
        for pair in pairs {
            #expect((43...128).contains(pair.verifier.count))
            #expect(try PKCEPair(verifier: pair.verifier).challenge == pair.challenge)
        }
    }

    @Test(arguments: ["short", String(repeating: "a", count: 129), String(repeating: "a", count: 42) + "!"])
    func badVerifiersAreRejected(verifier: String) {
        #expect(throws: IdFlowError.self) { try PKCEPair(verifier: verifier) }
    }

    @Test func authorizeURLCarriesEveryParameter() throws {
        let request = AuthorizationRequest(
            endpoint: URL(string: "https://o.okta.com/oauth2/default/v1/authorize")!, clientID: "0oa1",
            redirectURI: "com.example.app:/callback",
            scope: "openid profile offline_access", extraParameters: [("prompt", "none")])
        let components = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
        let query = Dictionary(uniqueKeysWithValues: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(query["client_id"] == "0oa1")
        #expect(query["response_type"] == "code")
        #expect(query["redirect_uri"] == "com.example.app:/callback")
        #expect(query["scope"] == "openid profile offline_access")
        #expect(query["code_challenge"] == request.pkce.challenge)
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["state"] == request.state)
        #expect(query["nonce"] == request.nonce)
        #expect(query["prompt"] == "none")
        // Okta only allows [A-Za-z0-9,._-] in state.
        #expect(request.state.allSatisfy { $0.isLetter || $0.isNumber || "-_".contains($0) })
        #expect(request.state != AuthorizationRequest(endpoint: request.endpoint, clientID: "c", redirectURI: "r", scope: "s").state)
    }

    @Test func codeIsReadFromACustomSchemeRedirect() throws {
        #expect(try AuthorizationResponse.code(from: "com.example.app:/callback?code=abc123&state=s1", expectedState: "s1") == "abc123")
        #expect(try AuthorizationResponse.code(from: "http://127.0.0.1:5000/callback#code=frag&state=s2", expectedState: "s2") == "frag")
    }

    @Test func aWrongOrMissingStateIsASecurityFailure() {
        for url in ["com.example.app:/callback?code=abc&state=other", "com.example.app:/callback?code=abc"] {
            do {
                _ = try AuthorizationResponse.code(from: url, expectedState: "mine")
                Issue.record("accepted \(url)")
            } catch {
                #expect(error.exitStatus == .security)
            }
        }
    }

    @Test func anErrorRedirectBecomesAnOAuthErrorWithAHint() {
        do {
            _ = try AuthorizationResponse.code(
                from: "com.example.app:/callback?error=login_required&error_description=The+client+specified+not+to+prompt&state=s",
                expectedState: "s")
            Issue.record("expected an error")
        } catch {
            #expect(
                error
                    == .oauth(
                        status: nil, body: OAuthErrorBody(error: "login_required", errorDescription: "The client specified not to prompt"),
                        hint: error.hint))
            #expect(error.exitStatus == .authentication)
            #expect(error.hint?.contains("single-use") == true)
        }
    }

    @Test func clientSecretGoesInBasicNeverAlsoInTheForm() {
        let (publicFields, publicHeaders) = ClientCredentials(clientID: "0oa1").apply(to: [("grant_type", "x")])
        #expect(publicFields.contains { $0 == ("client_id", "0oa1") })
        #expect(publicHeaders.isEmpty)
        let (fields, headers) = ClientCredentials(clientID: "id:1", secret: Secret("s e")).apply(to: [("grant_type", "x")])
        #expect(!fields.contains { $0.0 == "client_id" })
        #expect(headers["Authorization"] == "Basic " + Data("id%3A1:s%20e".utf8).base64EncodedString())
    }
}

struct OAuthFixtureDecodingTests {
    @Test(arguments: [
        "oidc-openid-configuration-default-as.json", "oidc-openid-configuration-org-as.json",
        "oauth-authorization-server-metadata-custom-as.json",
    ])
    func discoveryDocumentsDecode(file: String) throws {
        // The OpenAPI example keeps Okta's `{yourOktaDomain}` placeholder, which is not a valid host.
        let text = String(decoding: try Fixtures.data("okta-core/\(file)"), as: UTF8.self).replacingOccurrences(
            of: "{yourOktaDomain}", with: "dev-1.okta.com")
        let metadata = try JSONDecoder().decode(OpenIDConfiguration.self, from: Data(text.utf8))
        #expect(metadata.tokenEndpoint.path.hasSuffix("/v1/token"))
        #expect(metadata.authorizationEndpoint.path.hasSuffix("/v1/authorize"))
        #expect(metadata.jwksURI.path.hasSuffix("/v1/keys"))
        #expect(metadata.codeChallengeMethodsSupported?.contains("S256") == true)
    }

    @Test func tokenResponseDecodesAndPrintsWithExpiresAtAndClaims() throws {
        let response = try JSONDecoder().decode(TokenResponse.self, from: Fixtures.data("okta-core/oauth-token-response-default-as.json"))
        #expect(response.tokenType == "Bearer")
        #expect(response.expiresIn == 3600)
        #expect(response.refreshToken == "therefreshtoken")
        #expect(response.scope == "openid profile offline_access")
        let output = TokenOutput(response: response, expiresAt: Date(timeIntervalSince1970: 1_700_000_000), idTokenClaims: ["sub": "00u1"])
        let printed = try JSONValue(data: JSONOutput.encode(output, style: .compact))
        #expect(printed["access_token"] == .string(response.accessToken))
        #expect(printed["refresh_token"] == "therefreshtoken")
        #expect(printed["expires_at"] == "2023-11-14T22:13:20Z")
        #expect(printed["id_token_claims"]?["sub"] == "00u1")
        #expect(printed["token_type"] == "Bearer")
    }
}

struct DiscoveryTests {
    let document =
        #"{"issuer":"https://o.okta.com/oauth2/default","authorization_endpoint":"https://o.okta.com/oauth2/default/v1/authorize","token_endpoint":"https://o.okta.com/oauth2/default/v1/token","jwks_uri":"https://o.okta.com/oauth2/default/v1/keys","code_challenge_methods_supported":["S256"]}"#

    @Test func isCachedInTheStateDirectory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-disc-\(UUID().uuidString)")
        let transport = ScriptedTransport([.json(200, document)])
        let http = TestContext.make(transport: transport).http
        let discovery = Discovery(http: http, cacheDirectory: directory)
        let issuer = URL(string: "https://o.okta.com/oauth2/default")!
        let first = try await discovery.configuration(for: issuer)
        let second = try await discovery.configuration(for: issuer)
        #expect(first == second)
        #expect(transport.requests.count == 1)
        #expect(transport.requests[0].url.absoluteString == "https://o.okta.com/oauth2/default/.well-known/openid-configuration")
    }

    @Test func expiresAfterItsTTL() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-disc-\(UUID().uuidString)")
        let transport = ScriptedTransport([.json(200, document), .json(200, document)])
        let clock = Locked(Date())
        let discovery = Discovery(
            http: TestContext.make(transport: transport).http, cacheDirectory: directory, ttl: .seconds(60), now: { clock.current })
        let issuer = URL(string: "https://o.okta.com/oauth2/default")!
        _ = try await discovery.configuration(for: issuer)
        clock.withLock { $0 = $0.addingTimeInterval(61) }
        _ = try await discovery.configuration(for: issuer)
        #expect(transport.requests.count == 2)
    }

    @Test func anIssuerMismatchIsASecurityFailure() async throws {
        let transport = ScriptedTransport([.json(200, document)])
        let discovery = Discovery(http: TestContext.make(transport: transport).http, cacheDirectory: nil)
        do {
            _ = try await discovery.configuration(for: URL(string: "https://o.okta.com/oauth2/other")!)
            Issue.record("expected a refusal")
        } catch {
            #expect(error.exitStatus == .security)
        }
    }

    @Test func plainHTTPEndpointsOnAnotherHostAreRefused() async throws {
        let insecure = document.replacingOccurrences(
            of: "https://o.okta.com/oauth2/default/v1/token", with: "http://o.okta.com/oauth2/default/v1/token")
        let discovery = Discovery(http: TestContext.make(transport: ScriptedTransport([.json(200, insecure)])).http, cacheDirectory: nil)
        await #expect(throws: IdFlowError.self) {
            try await discovery.configuration(for: URL(string: "https://o.okta.com/oauth2/default")!)
        }
    }
}
