import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// `token get`: refreshed only inside --min-ttl, printed as the contract's four keys or as kubectl's ExecCredential.
@Suite struct GetTokenTests {
    let fixture = ResourceFixture()

    func run(_ flow: GetToken, _ transport: RoutedTransport) async throws -> JSONValue {
        try JSONValue(encoding: try await flow.run(fixture.context(transport)))
    }

    @Test func aTokenValidBeyondTheMinimumTTLIsPrintedAsStored() async throws {
        try fixture.storeLogin(expiresIn: 3600)
        let transport = fixture.transport { _ in nil }
        let output = try await run(GetToken(), transport)
        #expect(output["access_token"] == "at1")
        #expect(output["token_type"] == "Bearer")
        #expect(output["scope"] == "openid offline_access")
        #expect(output["expires_at"]?.stringValue.flatMap(ISO8601.date) != nil)
        #expect(Set(output.objectValue.map { Array($0.keys) } ?? []) == ["access_token", "token_type", "expires_at", "scope"])
        #expect(transport.requests.isEmpty, "no refresh, no network")
    }

    @Test func aTokenInsideTheMinimumTTLIsRefreshedAndTheRotationSaved() async throws {
        try fixture.storeLogin(expiresIn: 3600)
        let transport = fixture.transport { _ in nil }
        let output = try await run(GetToken(minimumTTL: 7200), transport)
        #expect(output["access_token"] == "at2")
        #expect(ResourceFixture.refreshes(transport) == 1)
        #expect(try fixture.store.load()?.tokens.refreshToken == "rt2")
    }

    @Test func execCredentialCarriesTheIDTokenOrTheAccessTokenAndItsExpiry() async throws {
        try fixture.storeLogin(expiresIn: 3600)
        let transport = fixture.transport { _ in nil }
        let credential = try await run(GetToken(format: .execCredential), transport)
        #expect(credential["apiVersion"] == "client.authentication.k8s.io/v1")
        #expect(credential["kind"] == "ExecCredential")
        let stored = try #require(try fixture.store.load())
        #expect(credential["status"]?["token"] == .string(stored.tokens.idToken ?? ""))
        #expect(credential["status"]?["expirationTimestamp"]?.stringValue.flatMap(ISO8601.date) != nil)

        let access = try await run(GetToken(format: .execCredential, tokenType: .access), transport)
        #expect(access["status"]?["token"] == "at1")
    }

    @Test func nothingStoredIsALocalStateProblem() async {
        do throws(IdFlowError) {
            _ = try await GetToken().run(fixture.context(fixture.transport { _ in nil }))
            Issue.record("expected a failure")
        } catch {
            #expect(error.exitStatus == .localState)
            #expect(error.hint?.contains("login-pkce") == true)
        }
    }

    @Test func theRefreshConditionIsJudgedOnWhatIsStored() throws {
        let now = Date()
        let stored = StoredTokens(
            issuer: "https://o.example.com/oauth2/default", clientId: "c",
            tokens: TokenResponse(tokenType: "Bearer", accessToken: "at1", expiresIn: 600, scope: nil, refreshToken: "rt1", idToken: nil),
            expiresAt: now.addingTimeInterval(600), idTokenClaims: nil, savedAt: now)
        #expect(RefreshTokens.Condition.always.requiresGrant(stored, now: now))
        #expect(!RefreshTokens.Condition.whenStale(minimumTTL: 60).requiresGrant(stored, now: now))
        #expect(RefreshTokens.Condition.whenStale(minimumTTL: 600).requiresGrant(stored, now: now))
        #expect(RefreshTokens.Condition.whenStale(minimumTTL: 60, refused: "at1").requiresGrant(stored, now: now))
        #expect(
            !RefreshTokens.Condition.whenStale(minimumTTL: 60, refused: "at0").requiresGrant(stored, now: now),
            "another run refreshed already: its token is used")
        #expect(RefreshTokens.Condition.whenStale(minimumTTL: 60, kind: .id).requiresGrant(stored, now: now), "no ID token stored")
    }
}
