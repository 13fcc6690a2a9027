import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// The issuer's clock read from its `Date` header: a token stamped by a server ten minutes ahead is shown by both
/// clocks, and refused with the skew and the fix rather than only "iat is in the future".
struct ServerClockTests {
    static let skew: TimeInterval = 600

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// The discovery document as a server ten minutes ahead sends it.
    static func discovery() throws -> ScriptedTransport.Answer {
        .json(
            200, data: try Fixtures.data("okta-core/oidc-openid-configuration-default-as.json"),
            headers: ["Date": httpDate(Date().addingTimeInterval(skew))])
    }

    /// A token the server ahead has just issued: `iat` is ten minutes in this machine's future.
    static func token(issuedAhead: TimeInterval = skew) async throws -> String {
        let now = Date().timeIntervalSince1970 + issuedAhead
        return try await TestKeys.sign(
            [
                "iss": .string(TokenFlowsTests.issuer), "sub": "00u1", "aud": "api://default", "iat": .number(now),
                "exp": .number(now + 3600),
            ],
            with: TestKeys.rsa, kid: "k1")
    }

    @Test func aTokenRefusedForThisMachinesClockSaysSoWithTheSkew() async throws {
        let jwt = try await Self.token()
        let transport = ScriptedTransport([
            try Self.discovery(), try Self.discovery(), .json(200, try TestKeys.jwks(TestKeys.jwk(TestKeys.rsa, kid: "k1"))),
        ])
        let error = await failure { () throws(IdFlowError) in
            try await VerifyToken(token: .argument(jwt), kind: .access, audience: "api://default").run(TokenFlowsTests.context(transport))
        }
        #expect(error?.exitStatus == .security)
        let message = error?.message ?? ""
        #expect(message.contains("iat is in the future"), "\(message)")
        #expect(message.contains("s behind the issuer's"), "\(message)")
        #expect(message.contains("by the issuer's clock the token is valid"), "\(message)")
        #expect(error?.hint?.contains("NTP") == true)
    }

    /// A token that fails by both clocks is not blamed on the clock.
    @Test func aTokenExpiredByBothClocksIsOnlyExpired() async throws {
        let jwt = try await Self.token(issuedAhead: -7200)
        let transport = ScriptedTransport([
            try Self.discovery(), try Self.discovery(), .json(200, try TestKeys.jwks(TestKeys.jwk(TestKeys.rsa, kid: "k1"))),
        ])
        let error = await failure { () throws(IdFlowError) in
            try await VerifyToken(token: .argument(jwt), kind: .access, audience: "api://default").run(TokenFlowsTests.context(transport))
        }
        #expect(error?.message.hasPrefix("token expired") == true, "\(String(describing: error))")
        #expect(error?.message.contains("issuer's") == false)
    }

    /// `token inspect` of the configured issuer's token gives the times by both clocks and the skew.
    @Test func inspectShowsBothClocks() async throws {
        let jwt = try await Self.token()
        let transport = ScriptedTransport([try Self.discovery()])
        let output = try await InspectToken(token: .argument(jwt)).run(TokenFlowsTests.context(transport))
        let printed = try JSONValue(data: JSONOutput.encode(output, style: .compact))
        let skew = try #require(printed["serverClock"]?["skewSeconds"]?.intValue)
        #expect(abs(skew - 600) <= 2, "\(printed)")
        #expect(printed["issuedAgoSeconds"]?.intValue.map { $0 <= -590 } == true, "issued in this machine's future: \(printed)")
        #expect(printed["serverClock"]?["issuedAgoSeconds"]?.intValue.map { abs($0) <= 2 } == true, "just issued: \(printed)")
        let offline = try await InspectToken(token: .argument(jwt), offline: true).run(TokenFlowsTests.context(ScriptedTransport([])))
        #expect(offline.serverClock == nil)
    }
}
