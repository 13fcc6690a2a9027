import Foundation

/// The server nonce of RFC 9449 §8: one current value, rotated on the sandbox clock, with the previous one still
/// accepted, as Okta rotates daily and accepts older nonces for a while (okta-core.md §H4). A client that keeps
/// the nonce it was given is therefore challenged once per rotation, never on every request. The nonces the server
/// issues, hence the name; the client's `DPoPNonces` is where it keeps the ones
/// servers gave it.
struct DPoPNonceRotation: Sendable {
    static let rotationInterval: TimeInterval = 24 * 3600

    private(set) var current = DPoPNonceRotation.make()
    private(set) var previous: String?
    private(set) var issuedAt: Date?

    /// The nonce to hand out now, rotating first when the current one has lived its interval.
    mutating func value(now: Date) -> String {
        if let issuedAt, now.timeIntervalSince(issuedAt) >= Self.rotationInterval {
            previous = current
            current = Self.make()
            self.issuedAt = now
        } else if issuedAt == nil {
            issuedAt = now
        }
        return current
    }

    /// Whether `nonce` is the current or the previous value.
    mutating func accepts(_ nonce: String?, now: Date) -> Bool {
        let current = value(now: now)
        guard let nonce else { return false }
        return ConstantTime.equals(nonce, current) || previous.map { ConstantTime.equals(nonce, $0) } == true
    }

    /// 32 base64url characters, like the documented example.
    private static func make() -> String {
        RandomToken.string(count: 32, alphabet: RandomToken.urlSafeAlphabet)
    }
}
