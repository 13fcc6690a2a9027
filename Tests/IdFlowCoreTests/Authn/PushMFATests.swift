import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `PushMFA` resolving a recorded MFA_REQUIRED transaction (Tests/Fixtures/okta-core, org test.domain.com)
/// with the recorded push answers: what the user gets, how long idflow waits, and what it sends.
@Suite struct PushMFATests {
    static let org = URL(string: "https://test.domain.com")!
    static let verify = "https://test.domain.com/api/v1/authn/factors/opfkdh40kws5XarDb0h7/verify"
    let sleeps = Locked<[Duration]>([])
    let messages = Locked<[String]>([])
    let required: AuthnTransaction

    init() throws {
        required = try JSONDecoder().decode(AuthnTransaction.self, from: try Fixtures.data("okta-core/authn-mfa-required.json"))
    }

    static func recorded(_ name: String, headers: [String: String] = [:]) throws -> ScriptedTransport.Answer {
        .json(200, data: try Fixtures.data("okta-core/\(name).json"), headers: headers)
    }

    func resolve(_ transport: ScriptedTransport, timeout: Duration = .seconds(300)) async throws(IdFlowError) -> String {
        let context = TestContext.make(
            transport: transport, configuration: TestContext.configuration(org: Self.org.absoluteString), messages: messages,
            sleeps: sleeps)
        return try await PushMFA(context: context, timeout: timeout).sessionToken(
            for: required, authn: AuthnAPI(http: context.http, orgURL: Self.org))
    }

    @Test func anApprovedPushGivesTheSessionTokenAfterThePollsWaited() async throws {
        let transport = ScriptedTransport([
            try Self.recorded("authn-mfa-challenge-push-waiting"), try Self.recorded("authn-mfa-challenge-push-waiting"),
            try Self.recorded("authn-success"),
        ])
        let token = try await resolve(transport)

        #expect(token == "test_session_token")
        #expect(transport.requests.map { $0.url.absoluteString } == Array(repeating: Self.verify, count: 3))
        #expect(transport.requests.first?.jsonBody?["stateToken"] == "test_state_token", "the push factor is verified with it")
        #expect(transport.requests.dropFirst().allSatisfy { $0.jsonBody?["stateToken"] == "00lAftOt57ZSsQi13nbZmiPy_w4QSK_iKNX6XHOdRt" })
        #expect(sleeps.current == [.seconds(4), .seconds(4)])
        #expect(messages.current.last == "push approved")
    }

    @Test func theServersRetryAfterSetsTheNextWait() async throws {
        let transport = ScriptedTransport([
            try Self.recorded("authn-mfa-challenge-push-waiting", headers: ["Retry-After": "7"]), try Self.recorded("authn-success"),
        ])
        #expect(try await resolve(transport) == "test_session_token")
        #expect(sleeps.current == [.seconds(7)])
    }

    @Test func aRejectedPushIsDeniedWithExit8() async throws {
        let transport = ScriptedTransport([
            try Self.recorded("authn-mfa-challenge-push-waiting"), try Self.recorded("authn-mfa-challenge-push-rejected"),
        ])
        let error = await failure { () throws(IdFlowError) in try await resolve(transport) }

        #expect(error?.exitStatus == .denied)
        #expect(error?.exitStatus.rawValue == 8)
        #expect(error?.message.contains("REJECTED") == true)
        #expect(transport.remaining == 0)
    }

    @Test func aPushThatExpiredOnTheServerTimesOutWithExit9() async throws {
        let transport = ScriptedTransport([
            try Self.recorded("authn-mfa-challenge-push-waiting"), try Self.recorded("authn-mfa-challenge-push-timeout"),
        ])
        let error = await failure { () throws(IdFlowError) in try await resolve(transport) }

        #expect(error?.exitStatus == .timedOut)
        #expect(error?.exitStatus.rawValue == 9)
        #expect(error?.message.contains("TIMEOUT") == true)
    }

    /// 10 s at 4 s a poll: waits of 4, 4 and the last 2 s, three polls, then the transaction is cancelled.
    @Test func nobodyAnsweringWithinTheTimeoutCancelsTheTransactionAndExits9() async throws {
        let waiting = try Self.recorded("authn-mfa-challenge-push-waiting")
        let transport = ScriptedTransport(Array(repeating: waiting, count: 4) + [.json(200, "{\"status\":\"UNAUTHENTICATED\"}")])
        let error = await failure { () throws(IdFlowError) in try await resolve(transport, timeout: .seconds(10)) }

        #expect(error?.exitStatus == .timedOut)
        #expect(error?.hint?.contains("--mfa-timeout") == true)
        #expect(sleeps.current == [.seconds(4), .seconds(4), .seconds(2)])
        #expect(transport.remaining == 0)
        let cancel = try #require(transport.requests.last)
        #expect(cancel.url.absoluteString == "https://test.domain.com/api/v1/authn/cancel")
        #expect(cancel.method == "POST")
        #expect(cancel.jsonBody?["stateToken"] == "00lAftOt57ZSsQi13nbZmiPy_w4QSK_iKNX6XHOdRt")
    }

    /// Ctrl-C cuts the wait's sleep short (the run's task is cancelled): the transaction is cancelled with the
    /// latest state token, so the push cannot be approved later, and the run ends as interrupted (130).
    @Test func anInterruptedWaitCancelsTheTransactionAndExits130() async throws {
        let transport = ScriptedTransport([
            // The cancel's answer carries nothing needed; the sandbox answers `{}`, as Okta does for some flows.
            try Self.recorded("authn-mfa-challenge-push-waiting"), .json(200, "{}"),
        ])
        var context = TestContext.make(
            transport: transport, configuration: TestContext.configuration(org: Self.org.absoluteString), messages: messages)
        context.http.sleep = { _ in throw CancellationError() }
        let authn = AuthnAPI(http: context.http, orgURL: Self.org)
        let resolver = PushMFA(context: context)
        let error = await failure { () throws(IdFlowError) in try await resolver.sessionToken(for: required, authn: authn) }

        #expect(error?.exitStatus == .interrupted)
        #expect(error?.exitStatus.rawValue == 130)
        #expect(transport.remaining == 0)
        let cancel = try #require(transport.requests.last)
        #expect(cancel.url.absoluteString == "https://test.domain.com/api/v1/authn/cancel")
        #expect(cancel.jsonBody?["stateToken"] == "00lAftOt57ZSsQi13nbZmiPy_w4QSK_iKNX6XHOdRt", "the MFA_CHALLENGE's state token")
        #expect(messages.current.contains { $0.contains("cancelled the sign-in on the server") })
    }
}
