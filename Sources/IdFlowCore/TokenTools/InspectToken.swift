import Foundation

/// `token inspect`: the header and claims of any JWT, decoded only, with its expiry as text and in seconds.
/// Needs no network, so it works on a token from any issuer, even offline. A refresh token that is not a JWT
/// (Okta's are opaque) is described by what can be known without its issuer, with a pointer to `token introspect`.
public struct InspectToken: Sendable {
    public var token: TokenInput
    public var kind: TokenKind

    public init(token: TokenInput, kind: TokenKind = .access) {
        self.token = token
        self.kind = kind
    }

    public struct Output: Encodable, Sendable {
        /// `jwt`, or `opaque` for a refresh token with nothing to decode.
        public var format: String
        public var header: JSONValue?
        public var claims: JSONValue?
        public var expiresAt: String?
        public var expired: Bool?
        public var expiresIn: String?
        /// Whole seconds until `exp`, negative once it has passed: what a script compares (`expiresIn` is for people).
        public var expiresInSeconds: Int?
        /// Always false: inspect decodes, it never checks a signature (use `token verify`).
        public var signatureVerified = false
        /// An opaque token's length in characters, the one thing it shows without its issuer.
        public var length: Int?
        /// For an opaque token: where its state can be learned.
        public var note: String?
    }

    public func run(_ context: IdFlowContext) throws(IdFlowError) -> Output {
        let value = try token.resolve(kind: kind, context: context).value
        if kind == .refresh, Self.isOpaque(value) {
            return Output(format: "opaque", length: value.count, note: Self.opaqueNote)
        }
        let jwt = try DecodedJWT(value)
        let now = context.now()
        let expiry = jwt.expiresAt
        let seconds = expiry.map { $0.timeIntervalSince(now) }
        return Output(
            format: "jwt", header: jwt.header, claims: jwt.claims, expiresAt: expiry.map(ISO8601.string), expired: expiry.map { $0 < now },
            expiresIn: seconds.map(Self.humanInterval), expiresInSeconds: seconds.map { Int($0.rounded(.down)) })
    }

    /// A token with no `.` at all cannot be a JWS or JWE: an opaque handle only its issuer can read.
    static func isOpaque(_ token: String) -> Bool {
        !token.trimmingCharacters(in: .whitespacesAndNewlines).contains(".")
    }

    static let opaqueNote =
        "an opaque refresh token (as Okta issues) carries no claims to decode; `idflow token introspect --type refresh` asks the issuer whether it is active, its expiry and scope"

    static func humanInterval(_ seconds: TimeInterval) -> String {
        let magnitude = Int(abs(seconds))
        let text: String
        switch magnitude {
        case ..<60: text = "\(magnitude) s"
        case ..<3600: text = "\(magnitude / 60) min \(magnitude % 60) s"
        case ..<86400: text = "\(magnitude / 3600) h \(magnitude % 3600 / 60) min"
        default: text = "\(magnitude / 86400) d \(magnitude % 86400 / 3600) h"
        }
        return seconds < 0 ? "expired \(text) ago" : "in \(text)"
    }
}
