import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import IdFlowSandbox

/// A sandbox left running for days must not grow with the number of requests it served: expired
/// and spent records are purged, and purging changes no answer a client can see.
@Suite("Record purging")
struct RecordPurgeTests {
    static let password = "Correct-Horse-7"

    /// An ACTIVE user with a password, created straight on the state (no HTTP: this suite is about volume).
    static func activeUser(_ state: SandboxState, email: String) async throws -> UserRecord {
        try await state.createUser(profile: ["email": .string(email)], password: password, activate: true)
    }

    /// An `/authorize` request of the public client at the default AS, without PKCE to keep volume cheap.
    static func authorizeRequest(_ state: SandboxState, scopes: [String]) throws -> AuthorizeRequest {
        let client = try #require(state.configuration.oauthClients.first)
        return AuthorizeRequest(
            server: .custom("default"), client: client, redirectURI: SandboxClient.redirectURI, scopes: scopes,
            state: "st4te", nonce: nil, codeChallenge: nil, responseMode: .query)
    }

    static func total(_ counts: [String: Int]) -> Int {
        counts.filter { $0.key != "users" }.values.reduce(0, +)
    }

    @Test("5,000 token requests over weeks of sandbox time leave the record counts bounded")
    func countsStayBounded() async throws {
        let state = SandboxState()
        let user = try await Self.activeUser(state, email: "load@example.com")
        let request = try Self.authorizeRequest(state, scopes: ["openid", "profile", "offline_access"])
        let client = request.client
        let batches = 10
        let signInsPerBatch = 250
        var totals: [Int] = []
        for _ in 0..<batches {
            for _ in 0..<signInsPerBatch {
                // Every kind of record: a session token, a pending sign-in, a browser session, a code,
                // a family with access and refresh tokens, a rotation and a narrowed refresh.
                _ = try await state.authenticate(username: user.login, password: Self.password)
                _ = await state.beginAuthorization(request)
                let grant = SessionGrant(userId: user.id, authTime: await state.now)
                _ = await state.startBrowserSession(grant)
                let code = await state.issueCode(for: request, grant: grant)
                let tokens = try await state.exchangeCode(
                    code, client: client, server: request.server, redirectURI: request.redirectURI, codeVerifier: nil)
                let refreshToken = try #require(tokens.refreshToken)
                let rotated = try await state.refresh(
                    refreshToken, client: client, server: request.server, requestedScopes: nil)
                #expect(rotated.refreshToken != nil)
                _ = try await state.refresh(
                    refreshToken, client: client, server: request.server, requestedScopes: ["openid"])
            }
            totals.append(Self.total(await state.recordCounts()))
            // Past every lifetime, the longest being a refresh token's 7 idle days.
            await state.advanceClock(bySeconds: SandboxState.refreshTokenIdleLifetime + 1)
        }
        // Each sign-in leaves 10 records (session token, pending sign-in, browser session, code,
        // family, 3 access tokens, 2 refresh tokens); without purging the last count would be ten
        // times the first.
        let perBatch = signInsPerBatch * 10
        #expect(totals.allSatisfy { $0 <= 2 * perBatch }, "\(totals)")
        #expect(totals.last! <= totals.first! + perBatch / 2, "\(totals)")

        // After the lifetimes pass, the next operation's sweep leaves only what it made itself.
        _ = await state.beginAuthorization(request)
        let counts = await state.recordCounts()
        #expect(Self.total(counts) == 1, "\(counts)")
        #expect(counts["users"] == 1)
    }

    @Test("Identity Engine interactions left unfinished are dropped once they expire")
    func abandonedInteractionsArePurged() async throws {
        let state = SandboxState()
        let request = try Self.authorizeRequest(state, scopes: ["openid"])
        for _ in 0..<1_000 { _ = await state.beginInteraction(request) }
        #expect(await state.recordCounts()["idxTransactions"] == 1_000)
        await state.advanceClock(bySeconds: SandboxState.idxTransactionLifetime + 1)
        await state.purgeExpiredRecords()
        #expect(await state.recordCounts()["idxTransactions"] == 0)
        #expect(await state.idx.interactionHandles.isEmpty, "no handle is left pointing at a dropped transaction")
    }

    @Test("purging keeps reuse detection and code-replay revocation, and expired answers stay the same")
    func purgeKeepsBehaviour() async throws {
        let state = SandboxState()
        let user = try await Self.activeUser(state, email: "keep@example.com")
        let request = try Self.authorizeRequest(state, scopes: ["openid", "offline_access"])
        let client = request.client
        let server = request.server
        func signIn() async throws -> (code: String, grant: UnsignedTokens) {
            let code = await state.issueCode(for: request, grant: SessionGrant(userId: user.id, authTime: await state.now))
            let grant = try await state.exchangeCode(
                code, client: client, server: server, redirectURI: request.redirectURI, codeVerifier: nil)
            return (code, grant)
        }

        // A rotated refresh token reused after the grace period, with sweeps in between, still revokes its family.
        let first = try await signIn()
        let original = try #require(first.grant.refreshToken)
        let successor = try #require(
            try await state.refresh(original, client: client, server: server, requestedScopes: nil).refreshToken)
        await state.advanceClock(bySeconds: 3600)
        await state.purgeExpiredRecords()
        await #expect(throws: OAuthErrorResponse.self) {
            try await state.refresh(original, client: client, server: server, requestedScopes: nil)
        }
        await #expect(throws: OAuthErrorResponse.self, "the family was revoked by the reuse") {
            try await state.refresh(successor, client: client, server: server, requestedScopes: nil)
        }

        // A code replayed after it expired, while its family lives, still revokes the family.
        let second = try await signIn()
        let secondRefresh = try #require(second.grant.refreshToken)
        await state.advanceClock(bySeconds: SandboxState.authorizationCodeLifetime + 1)
        await state.purgeExpiredRecords()
        await #expect(throws: OAuthErrorResponse.self) {
            try await state.exchangeCode(
                second.code, client: client, server: server, redirectURI: request.redirectURI, codeVerifier: nil)
        }
        await #expect(throws: OAuthErrorResponse.self, "the replay revoked the family") {
            try await state.refresh(secondRefresh, client: client, server: server, requestedScopes: nil)
        }

        // Everything of revoked families, and the codes that made them, goes at the next sweep.
        await state.purgeExpiredRecords()
        let counts = await state.recordCounts()
        #expect(counts["tokenFamilies"] == 0 && counts["refreshTokens"] == 0 && counts["accessTokens"] == 0, "\(counts)")
        #expect(counts["authorizationCodes"] == 0, "\(counts)")
    }

    @Test("over HTTP: sign-ins and refreshes across expiries keep the counts flat, and expired tokens answer as before")
    func routesStayFlat() async throws {
        try await withSandbox { api in
            let (_, firstSession) = try await api.registerActiveUser(email: "flat@example.com")
            var sessionToken: String? = firstSession
            var totals: [Int] = []
            var stale: (code: String, pkce: PKCEPair, refreshToken: String)?
            for round in 0..<4 {
                for _ in 0..<10 {
                    let token: String
                    if let sessionToken {
                        token = sessionToken
                    } else {
                        let login = try await api.send(
                            .post, "/api/v1/authn", json: ["username": "flat@example.com", "password": Self.password],
                            auth: .none)
                        token = try #require(try login.object()["sessionToken"] as? String)
                    }
                    sessionToken = nil
                    let pkce = PKCEPair()
                    let code = try #require(
                        try api.redirectTarget(try await api.authorize(api.authorizePath(pkce: pkce, sessionToken: token)))
                            .parameters["code"])
                    let tokens = try await api.exchange(code: code, pkce: pkce).object()
                    let refreshToken = try #require(tokens["refresh_token"] as? String)
                    #expect(try await api.refresh(refreshToken).status == .ok)
                    if round == 0 { stale = (code, pkce, refreshToken) }
                }
                totals.append(Self.total(await api.state.recordCounts()))
                try await api.advanceClock(seconds: 8 * 24 * 3600)
            }
            #expect(totals.allSatisfy { $0 <= totals[0] }, "\(totals)")

            // Long purged, the first round's code and refresh token answer exactly as expired ones do.
            let (code, pkce, refreshToken) = try #require(stale)
            let lateCode = try await api.exchange(code: code, pkce: pkce)
            #expect(lateCode.status == .badRequest)
            #expect(try lateCode.object()["error_description"] as? String == "The authorization code is invalid or has expired.")
            let lateRefresh = try await api.refresh(refreshToken)
            #expect(lateRefresh.status == .badRequest)
            #expect(try lateRefresh.object()["error_description"] as? String == "The refresh token is invalid or expired.")
        }
    }
}
