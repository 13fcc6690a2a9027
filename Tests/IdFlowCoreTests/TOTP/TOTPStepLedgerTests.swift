import Foundation
import IdFlowTestSupport
import OneTimePasscode
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// A code is offered once: a run inside the step another run already answered waits for the next code.
struct TOTPStepLedgerTests {
    let totp = TOTP(secret: TOTPSecret(bytes: Array("12345678901234567890".utf8)))

    @Test func aSecondRunInTheSameStepWaitsForTheNextCode() async throws {
        let messages = Locked<[String]>([])
        var context = TestContext.make(transport: ScriptedTransport([]), messages: messages)
        let clock = Locked(Date(timeIntervalSince1970: 999_999_995))  // 25 s left in its step
        context.now = { clock.current }
        let sleeps = Locked<[Duration]>([])
        let sleep: @Sendable (Duration) async throws -> Void = { duration in
            sleeps.withLock { $0.append(duration) }
            clock.withLock {
                $0 = $0.addingTimeInterval(Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
            }
        }
        let ledger = TOTPStepLedger(stateDirectory: context.configuration.stateDirectory)
        let first = try await ledger.spendCode(totp, context: context, sleep: sleep)
        #expect(first == totp.code(at: Date(timeIntervalSince1970: 999_999_995)))
        #expect(sleeps.current.isEmpty)

        let second = try await ledger.spendCode(totp, context: context, sleep: sleep)
        #expect(second == totp.code(forStep: totp.step(at: Date(timeIntervalSince1970: 999_999_995)) + 1))
        #expect(second != first)
        #expect(sleeps.current.count == 1 && sleeps.current[0] >= .seconds(25) && sleeps.current[0] < .seconds(26))
        #expect(messages.current.contains { $0.contains("already used; waiting 26 s for the next one") })

        // The ledger names the seed by a hash: the seed itself is not in the state directory.
        let files = try FileManager.default.contentsOfDirectory(atPath: ledger.directory.path)
        for file in files {
            let text = try String(contentsOf: ledger.directory.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("GEZDGNBV") && !file.contains("GEZDGNBV"))
        }
    }

    @Test func aStepTheServerRefusedAsUsedIsNotOfferedAgain() async throws {
        var context = TestContext.make(transport: ScriptedTransport([]))
        let now = Date(timeIntervalSince1970: 1_000_000_029.9)
        context.now = { now }
        let ledger = TOTPStepLedger(stateDirectory: context.configuration.stateDirectory)
        try ledger.markSpent(totp, at: now)
        let code = try await ledger.spendCode(totp, context: context, sleep: { _ in })
        #expect(code == totp.code(forStep: totp.step(at: now) + 1))
    }
}
