import Crypto
import Foundation

/// RFC 6238 time-based one-time passcodes with the parameters every authenticator app uses by default:
/// HMAC-SHA1, 6 digits, 30-second steps counted from the Unix epoch.
public struct TOTP: Sendable, Equatable {
    public let secret: TOTPSecret
    public var digits = 6
    public var period: TimeInterval = 30

    public init(secret: TOTPSecret, digits: Int = 6, period: TimeInterval = 30) {
        self.secret = secret
        self.digits = digits
        self.period = period
    }

    /// The step a moment falls in (RFC 6238's T).
    public func step(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / period).rounded(.down))
    }

    /// The code for a step (RFC 4226's HOTP with the step as counter), zero-padded to `digits`.
    public func code(forStep step: Int64) -> String {
        var counter = UInt64(bitPattern: step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Data($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: secret.bytes)))
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let truncated =
            (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(truncated % modulus)
        return String(repeating: "0", count: max(0, digits - value.count)) + value
    }

    /// The code shown at a moment.
    public func code(at date: Date) -> String { code(forStep: step(at: date)) }

    /// Seconds until the step of `date` ends and its code stops being shown.
    public func secondsRemaining(at date: Date) -> TimeInterval {
        period - date.timeIntervalSince1970.truncatingRemainder(dividingBy: period)
    }

    /// The step whose code `code` is, looking `window` steps either side of `date` (clock skew between the phone
    /// and the server); nil when none matches.
    public func matchingStep(of code: String, at date: Date, window: Int64 = 1) -> Int64? {
        let now = step(at: date)
        for candidate in (now - window)...(now + window) where constantTimeEquals(self.code(forStep: candidate), code) {
            return candidate
        }
        return nil
    }

    private func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
