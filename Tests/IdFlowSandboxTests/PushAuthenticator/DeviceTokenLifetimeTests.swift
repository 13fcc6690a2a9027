import Foundation
import IdFlowSandbox
import Testing

/// A device signs each token for one request; a token that claims to live for years would be a replayable
/// credential and a `jti` the sandbox remembers for years, so it is refused like any other bad token.
@Suite struct DeviceTokenLifetimeTests {
    static let tenYears = 10 * 365 * 86_400

    @Test func anAssertionLivingLongerThanFiveMinutesIsAnInvalidGrantAndLeavesNothingBehind() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "long@example.com")
            let now = Int(await api.state.now.timeIntervalSince1970)
            let usedBefore = await api.state.recordCounts()["usedDeviceTokenIDs"]
            let tooLong: [String: [String: Any]] = [
                "exp ten years ahead": ["exp": now + Self.tenYears],
                "exp an hour ahead": ["exp": now + 3_600],
                "issued an hour before it expires": ["iat": now - 3_300, "exp": now + 300],
                "valid from an hour before it expires": ["nbf": now - 3_300, "exp": now + 300],
            ]
            for (name, overrides) in tooLong {
                let reply = try await api.maintenanceToken(assertion: try await api.assertion(for: device, overrides: overrides))
                #expect(reply.status == .badRequest, "\(name)")
                let body = try reply.object()
                #expect(body["error"] as? String == "invalid_grant", "\(name): \(reply.text)")
                #expect((body["error_description"] as? String)?.contains("longer than 300 seconds") == true, "\(name)")
            }
            #expect(await api.state.recordCounts()["usedDeviceTokenIDs"] == usedBefore, "no refused jti is remembered")

            // The SDK's own shape (nbf five minutes back, exp five on), and a device clock a minute ahead, still pass.
            let sdk = try await api.maintenanceToken(assertion: try await api.assertion(for: device))
            #expect(sdk.status == .ok, "\(sdk.text)")
            let skewed = try await api.maintenanceToken(
                assertion: try await api.assertion(for: device, overrides: ["iat": now + 60, "nbf": now - 240, "exp": now + 360]))
            #expect(skewed.status == .ok, "\(skewed.text)")
        }
    }

    @Test func aChallengeResponseLivingForYearsIsRefusedAndTheChallengeWaits() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "answer@example.com")
            let tx = try await api.push(device)
            let challenge = try #require(try await api.pendingChallenges(device).first)
            let now = Int(await api.state.now.timeIntervalSince1970)
            let reply = try await api.respond(to: challenge, device: device, overrides: ["exp": now + Self.tenYears])
            #expect(reply.status == .unauthorized, "\(reply.text)")
            #expect(try reply.oktaError().code == "E0000011")
            #expect(try await api.pushStatus(tx)["status"] as? String == "WAITING")
            #expect(try await api.respond(to: challenge, device: device).status == .ok)
        }
    }
}
