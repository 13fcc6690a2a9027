import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// Clock skew where tokens are judged, against a real sandbox: `token inspect` and `token verify` give a stored
/// token's times by this machine's clock and by the issuer's (its `Date` header), with the skew between them.
@Suite(.serialized)
struct ClockSkewTests {
    static let password = "Str0ng-Passw0rd!"

    @Test func inspectAndVerifyShowTheTimesByBothClocks() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "clock@example.com", password: Self.password)
        let login = try await sandbox.idflow(["login-pkce", "--username", "clock@example.com", "--password-stdin"], stdin: Self.password)
        #expect(login.exitCode == 0, "\(login)")

        let inspected = try await sandbox.idflow(["token", "inspect"]).json()
        let skew = try #require(inspected["serverClock"]?["skewSeconds"]?.intValue, "\(inspected)")
        #expect(abs(skew) <= 2, "the sandbox runs on this machine's clock: \(inspected)")
        #expect(inspected["issuedAgoSeconds"]?.intValue.map { (0...120).contains($0) } == true, "\(inspected)")
        #expect(inspected["serverClock"]?["expiresInSeconds"]?.intValue.map { (3400...3600).contains($0) } == true, "\(inspected)")
        #expect(try await sandbox.idflow(["token", "inspect", "--offline"]).json()["serverClock"] == .null)

        let verified = try await sandbox.idflow(["token", "verify"])
        #expect(verified.exitCode == 0, "\(verified)")
        #expect(try verified.json()["serverClock"]?["skewSeconds"]?.intValue.map { abs($0) <= 2 } == true, "\(verified.stdout)")
        #expect(try verified.json()["expiresInSeconds"]?.intValue.map { $0 > 0 } == true)
    }

    /// The sandbox clock moved ahead moves its `Date` header too, so what the commands measure is that skew: a token
    /// issued on real time is expired by the server's clock (and still valid by this machine's), and tokens issued
    /// ahead are refused by this machine's clock with the skew named, instead of only "issued in the future".
    @Test func aServerClockAheadIsMeasuredAndExplained() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "ahead@example.com", password: Self.password)
        let login = try await sandbox.idflow(["login-pkce", "--username", "ahead@example.com", "--password-stdin"], stdin: Self.password)
        #expect(login.exitCode == 0, "\(login)")
        let (moved, _) = try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": 7200])
        #expect(moved == 200)
        // Measured against the middle of a request: a loaded machine's slow answer moves it by a few seconds.
        func aheadBy7200(_ skew: Int?) -> Bool { skew.map { (7195...7205).contains($0) } ?? false }

        let inspected = try await sandbox.idflow(["token", "inspect"]).json()
        #expect(aheadBy7200(inspected["serverClock"]?["skewSeconds"]?.intValue), "\(inspected)")
        #expect(inspected["expiresInSeconds"]?.intValue.map { $0 > 3000 } == true, "valid by this machine's clock: \(inspected)")
        #expect(
            inspected["serverClock"]?["expiresInSeconds"]?.intValue.map { $0 < -3000 } == true, "expired by the server's: \(inspected)")

        let verified = try await sandbox.idflow(["token", "verify"])
        #expect(verified.exitCode == 0, "judged by this machine's clock: \(verified)")
        #expect(aheadBy7200(try verified.json()["serverClock"]?["skewSeconds"]?.intValue), "\(verified.stdout)")
        #expect(try verified.json()["serverClock"]?["expiresInSeconds"]?.intValue.map { $0 < -3000 } == true, "\(verified.stdout)")

        // A sign-in now gets an ID token issued two hours ahead of this machine: refused, and the skew named.
        let refused = try await sandbox.idflow(
            ["login-pkce", "--username", "ahead@example.com", "--password-stdin", "--no-store"], stdin: Self.password)
        #expect(refused.exitCode == 13, "\(refused)")
        let message = refused.error?["message"]?.stringValue ?? ""
        #expect(message.contains("s behind the issuer's (its Date header)"), "\(refused)")
        let measured = message.components(separatedBy: "which is ").dropFirst().first?.split(separator: " ").first.flatMap { Int($0) }
        #expect(aheadBy7200(measured), "\(message)")
        #expect(message.contains("by the issuer's clock the token is valid"), "\(message)")
        #expect(refused.error?["hint"]?.stringValue?.contains("timedatectl set-ntp true") == true, "\(refused)")
    }
}
