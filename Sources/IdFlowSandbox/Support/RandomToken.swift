/// Random identifiers and secrets in the shapes Okta uses (see okta-core.md §0, "ID shapes").
///
/// Everything comes from `SystemRandomNumberGenerator`, which reads the operating system's
/// cryptographic source, so sandbox tokens are unguessable even though they are not persisted.
enum RandomToken {
    static let base62Alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    static let urlSafeAlphabet = base62Alphabet + ["-", "_"]

    /// `count` characters drawn from `alphabet`.
    static func string(count: Int, alphabet: [Character] = base62Alphabet) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<count).map { _ in alphabet.randomElement(using: &generator)! })
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
