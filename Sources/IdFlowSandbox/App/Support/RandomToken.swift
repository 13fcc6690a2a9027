/// Random identifiers and secrets in the shapes Okta uses (see okta-core.md §0, "ID shapes").
///
/// Everything comes from `SystemRandomNumberGenerator`, which reads the operating system's
/// cryptographic source, so sandbox tokens are unguessable even though they are not persisted.
enum RandomToken {
    /// ASCII bytes, so a token is built without per-character `Character` work.
    static let base62Alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    static let urlSafeAlphabet = base62Alphabet + Array("-_".utf8)

    /// `count` characters drawn uniformly from `alphabet` (ASCII, at most 256 symbols).
    ///
    /// Every 64-bit draw from the generator yields eight bytes (one system call each on Linux, so this is
    /// eight times fewer than one draw per character); a byte at or above the largest multiple of the
    /// alphabet's size is skipped, so no symbol is more likely than another.
    static func string(count: Int, alphabet: [UInt8] = base62Alphabet) -> String {
        precondition(!alphabet.isEmpty && alphabet.count <= 256, "an alphabet has 1 to 256 ASCII symbols")
        let usable = 256 - 256 % alphabet.count
        var generator = SystemRandomNumberGenerator()
        return String(unsafeUninitializedCapacity: count) { buffer in
            var written = 0
            while written < count {
                var word: UInt64 = generator.next()
                for _ in 0..<8 where written < count {
                    let byte = Int(word & 0xFF)
                    word >>= 8
                    guard byte < usable else { continue }
                    buffer[written] = alphabet[byte % alphabet.count]
                    written += 1
                }
            }
            return count
        }
    }

    /// `count` characters drawn from an alphabet of single-byte (ASCII) characters.
    static func string(count: Int, alphabet: [Character]) -> String {
        string(count: count, alphabet: alphabet.map { $0.asciiValue! })
    }

    /// A 20-character Okta object id: the 3-character type prefix plus 17 base62 characters.
    static func oktaID(prefix: String) -> String {
        prefix + string(count: 20 - prefix.count)
    }

    /// An `errorId`: "oae" plus 22 characters, as in the recorded error bodies.
    static func errorID() -> String { "oae" + string(count: 22, alphabet: urlSafeAlphabet) }

    /// A 20-character activation token (newer Okta tokens contain `_` and `-`).
    static func activationToken() -> String { string(count: 20, alphabet: urlSafeAlphabet) }

    /// A 42-character Authn state token starting with `00`.
    static func stateToken() -> String { "00" + string(count: 40, alphabet: urlSafeAlphabet) }

    /// A single-use Authn session token; "20" plus 53 characters, the longest recorded shape.
    static func sessionToken() -> String { "20" + string(count: 53, alphabet: urlSafeAlphabet) }

    /// A management API token: 42 characters starting with `00`.
    static func apiToken() -> String { "00" + string(count: 40, alphabet: urlSafeAlphabet) }

    /// An opaque value for `x-okta-request-id`.
    static func requestID() -> String { string(count: 27, alphabet: urlSafeAlphabet) }
}
