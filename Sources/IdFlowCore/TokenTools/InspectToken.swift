import Foundation

/// `token inspect`: the header and claims of any JWT, decoded only, with a human expiry. Needs no network,
/// so it works on a token from any issuer, even offline.
public struct InspectToken: Sendable {
    public var token: TokenInput
    public var kind: TokenKind

    public init(token: TokenInput, kind: TokenKind = .access) {
        self.token = token
        self.kind = kind
    }

    public struct Output: Encodable, Sendable {
        public var header: JSONValue
        public var claims: JSONValue
        public var expiresAt: String?
        public var expired: Bool?
        public var expiresIn: String?
        /// Always false: inspect decodes, it never checks a signature (use `token verify`).
        public var signatureVerified = false
    }

    public func run(_ context: IdFlowContext) throws(IdFlowError) -> Output {
        let jwt = try DecodedJWT(try token.resolve(kind: kind, context: context).value)
        let now = context.now()
        let expiry = jwt.expiresAt
        return Output(
            header: jwt.header, claims: jwt.claims, expiresAt: expiry.map(ISO8601.string), expired: expiry.map { $0 < now },
            expiresIn: expiry.map { Self.humanInterval($0.timeIntervalSince(now)) })
    }

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
