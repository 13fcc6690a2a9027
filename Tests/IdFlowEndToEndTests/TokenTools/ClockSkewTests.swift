import Foundation
import IdFlowCore
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
}
