import Crypto
import Foundation
import IdFlowFoundation
import OneTimePasscode

/// Which 30-second step each seed last answered with, kept in the state directory (`totp/`, one 0600 file per
/// seed, named by a hash of it, never the seed). A server accepts a code once: a script that signs in right after
/// enrolling, in the same step, would be refused with the code the enrollment spent, so the next run waits for a
/// fresh one instead. The lock makes concurrent runs on one seed take successive steps.
struct TOTPStepLedger: Sendable {
    let directory: URL

    init(stateDirectory: URL) {
        directory = stateDirectory.appendingPathComponent("totp", isDirectory: true)
    }

    /// The code to send now: of the current step, or of the next one when the current one was already spent
    /// (waiting for it, with a message saying why); the step is recorded as spent before it is returned.
    func spendCode(
        _ totp: TOTP, context: IdFlowContext, sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) async throws(IdFlowError) -> String {
        let lock = try await FileLock.acquire(directory.appendingPathComponent("\(Self.name(of: totp.secret)).lock"))
        defer { lock.release() }
        let file = stepFile(of: totp)
        let spent = try SecureFile.read(file).flatMap {
            Int64(String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        var now = context.now()
        if let spent, totp.step(at: now) <= spent {
            let start = Date(timeIntervalSince1970: Double(spent + 1) * totp.period)
            let wait = start.timeIntervalSince(now) + 0.2
            context.message("totp: the current code was already used; waiting \(Int(wait.rounded(.up))) s for the next one")
            do { try await sleep(.milliseconds(Int(wait * 1000))) } catch {
                throw .interrupted("interrupted while waiting for the next TOTP code")
            }
            now = max(context.now(), start)
        }
        let step = totp.step(at: now)
        try SecureFile.write(Data("\(step)\n".utf8), to: file)
        return totp.code(forStep: step)
    }

    /// Marks the step of `date` as spent without sending anything: the server said the code was already used.
    func markSpent(_ totp: TOTP, at date: Date) throws(IdFlowError) {
        try SecureFile.write(Data("\(totp.step(at: date))\n".utf8), to: stepFile(of: totp))
    }

    private func stepFile(of totp: TOTP) -> URL {
        directory.appendingPathComponent("\(Self.name(of: totp.secret)).step")
    }

    /// A name for the seed's files that does not reveal it: the first 16 bytes of SHA-256 over it, in hex.
    static func name(of secret: TOTPSecret) -> String {
        SHA256.hash(data: secret.bytes).prefix(16).map { String(format: "%02x", $0) }.joined()
    }
}
