import Foundation

/// A compact JWT split and decoded WITHOUT any verification, for `idflow token inspect`, which must never
/// claim a signature was checked; ``JWTValidator`` is the only place a token becomes trustworthy.
public struct DecodedJWT: Sendable {
    /// The JOSE header (`alg`, `kid`, `typ`, ...).
    public let header: JSONValue
    /// The claims set, always a JSON object.
    public let claims: JSONValue
    /// `<b64 header>.<b64 payload>` exactly as received: the bytes the signature covers.
    public let signingInput: String
    /// The decoded signature; empty for an unsigned (`alg: none`) token.
    public let signature: Data

    /// Splits and decodes `compact` (surrounding whitespace is ignored); anything that is not a JWS compact
    /// serialization with a JSON-object header and claims set is `.invalidInput`. Messages never quote the token,
    /// since it may be a live credential.
    public init(_ compact: String) throws(IdFlowError) {
        let token = compact.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else {
            throw .invalidInput("the token is empty", hint: Self.hint)
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            if parts.count == 5 {
                throw .invalidInput("the token has 5 parts: it is an encrypted JWT (JWE), which idflow cannot decode", hint: Self.hint)
            }
            throw .invalidInput(
                "the token has \(parts.count) part\(parts.count == 1 ? "" : "s") separated by \".\"; a JWT has 3 (header.payload.signature)",
                hint: Self.hint)
        }
        header = try Self.decodeObject(parts[0], name: "header")
        claims = try Self.decodeObject(parts[1], name: "payload")
        guard let signature = Base64URL.decode(parts[2]) else {
            throw .invalidInput("the token's signature (part 3) is not valid base64url", hint: Self.hint)
        }
        self.signature = signature
        signingInput = "\(parts[0]).\(parts[1])"
    }

    /// The header's `alg`, as the token claims it (unverified).
    public var algorithm: String? { header["alg"]?.stringValue }

    /// The header's `kid`: which of the issuer's keys the token says signed it.
    public var keyID: String? { header["kid"]?.stringValue }

    /// The header's `typ` (`JWT`, `at+jwt`, ...).
    public var type: String? { header["typ"]?.stringValue }

    /// `exp` as a date, nil when absent or not a number.
    public var expiresAt: Date? { date("exp") }

    /// `iat` as a date, nil when absent or not a number.
    public var issuedAt: Date? { date("iat") }

    /// `nbf` as a date, nil when absent or not a number.
    public var notBefore: Date? { date("nbf") }

    /// The claim `name` read as a NumericDate (seconds since 1970), nil when absent, not a number, or no date
    /// (`isNumericDate`).
    public func date(_ name: String) -> Date? {
        guard case .number(let seconds) = claims[name], Self.isNumericDate(seconds) else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// The latest second RFC 3339 can write (9999-12-31T23:59:59Z), and as far before 1970. A claim beyond it (1e308,
    /// which JSON allows) is no date: `token inspect` would otherwise trap turning the time left into whole
    /// seconds (found by fuzzing).
    static let numericDateLimit: Double = 253_402_300_799

    static func isNumericDate(_ seconds: Double) -> Bool { abs(seconds) <= numericDateLimit }

    private static let hint =
        "pass a compact JWT: three base64url parts separated by dots, such as the access_token or id_token of a token response"

    private static func decodeObject(_ part: Substring, name: String) throws(IdFlowError) -> JSONValue {
        let position = name == "header" ? "part 1" : "part 2"
        guard !part.isEmpty else {
            throw .invalidInput("the token's \(name) (\(position)) is empty", hint: hint)
        }
        guard let data = Base64URL.decode(part) else {
            throw .invalidInput("the token's \(name) (\(position)) is not valid base64url", hint: hint)
        }
        guard let value = try? JSONValue(data: data) else {
            throw .invalidInput("the token's \(name) (\(position)) is not JSON", hint: hint)
        }
        guard case .object = value else {
            throw .invalidInput("the token's \(name) (\(position)) is JSON but not an object", hint: hint)
        }
        return value
    }
}
