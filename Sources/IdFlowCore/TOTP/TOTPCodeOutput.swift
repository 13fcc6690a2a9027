import Foundation
import IdFlowFoundation
import OneTimePasscode

/// What `idflow totp` prints: the code an authenticator app would show now, for a runbook that types it
/// somewhere idflow does not reach.
public struct TOTPCodeOutput: Sendable, Equatable, Encodable {
    public var code: String
    /// Seconds per step.
    public var period: Int
    /// Whole seconds until this code is replaced (at least 1).
    public var expiresIn: Int

    /// The current code of `secret` at `now`; the ledger of spent steps is left alone, since the code may never be used.
    public init(secret: TOTPSecret, now: Date) {
        let totp = TOTP(secret: secret)
        code = totp.code(at: now)
        period = Int(totp.period)
        expiresIn = max(1, Int(totp.secondsRemaining(at: now).rounded(.down)))
    }
}
