import Crypto
import Foundation

/// Secret comparison whose time tells an attacker nothing: `==` on strings stops at the first differing byte
/// (and at once on a different length), so the time of each guess would reveal how much of the API token or a
/// client secret it got right. Both sides are hashed first, so every comparison looks at 32 bytes whatever the
/// lengths, and the digests are compared with a loop that always runs to the end.
enum ConstantTime {
    /// Whether `given` equals `expected`, in time independent of where (or whether) they differ.
    static func equals(_ given: some StringProtocol, _ expected: some StringProtocol) -> Bool {
        let left = SHA256.hash(data: Data(given.utf8))
        let right = SHA256.hash(data: Data(expected.utf8))
        var difference: UInt8 = 0
        for (a, b) in zip(left, right) { difference |= a ^ b }
        return difference == 0
    }
}
