import Foundation
import IdFlowFoundation

/// `token inspect`: the header and claims of any JWT, decoded only, with its expiry as text and in seconds.
/// Needs no network, so it works on a token from any issuer, even offline. A refresh token that is not a JWT
/// (Okta's are opaque) is described by what can be known without its issuer, with a pointer to `token introspect`.
public struct InspectToken: Sendable {
    public var token: TokenInput
    public var kind: TokenKind
    /// Skip asking the issuer for its clock (`--offline`).
    public var offline: Bool

    public init(token: TokenInput, kind: TokenKind = .access, offline: Bool = false) {
        self.token = token
        self.kind = kind
        self.offline = offline
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
        public var issuedAt: String?
        public var issuedAgo: String?
        /// Whole seconds since `iat` by this machine's clock; negative for a token stamped in its future.
        public var issuedAgoSeconds: Int?
        /// The same times by the issuer's clock (its `Date` header) and the skew between the clocks; null when the
        /// issuer was not asked (`--offline`, a token from another issuer) or did not answer.
        @NullWhenAbsent public var serverClock: ServerClock.Reading? = nil
        /// A DPoP-bound token's `cnf.jkt` beside the thumbprint of the key stored with the profile's login.
        public var dpop: DPoPBinding?
        /// Always false: inspect decodes, it never checks a signature (use `token verify`).
        public var signatureVerified = false
        /// An opaque token's length in characters, the one thing it shows without its issuer.
        public var length: Int?
        /// For an opaque token: where its state can be learned.
        public var note: String?
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> Output {
        let resolved = try token.resolve(kind: kind, context: context)
        let value = resolved.value
        if kind == .refresh, Self.isOpaque(value) {
            return Output(format: "opaque", length: value.count, note: Self.opaqueNote)
        }
        let jwt = try DecodedJWT(value)
        let now = context.now()
        let local = TokenTimes(jwt, at: now)
        var serverClock: ServerClock.Reading?
        if !offline, let issuer = Self.clockIssuer(jwt, resolved, context), let clock = await ServerClock.measure(context, issuer: issuer) {
            serverClock = ServerClock.Reading(clock: clock, times: TokenTimes(jwt, at: clock.serverTime(context.now())))
        }
        return Output(
            format: "jwt", header: jwt.header, claims: jwt.claims, expiresAt: jwt.expiresAt.map(ISO8601.string),
            expired: jwt.expiresAt.map { $0 < now }, expiresIn: local.expiresIn, expiresInSeconds: local.expiresInSeconds,
            issuedAt: jwt.issuedAt.map(ISO8601.string), issuedAgo: local.issuedAgo, issuedAgoSeconds: local.issuedAgoSeconds,
            serverClock: serverClock, dpop: DPoPBinding(claims: jwt.claims, stored: resolved.origin))
    }

    /// Which key a token is bound to (RFC 9449 §6.1, `cnf.jkt`) and whether it is the key idflow keeps for the
    /// profile's login: a token whose key is lost can no longer be used.
    public struct DPoPBinding: Encodable, Sendable {
        /// The token's `cnf.jkt`, nil for a token that is not DPoP-bound.
        public var jkt: String?
        /// The SHA-256 thumbprint of the key stored with the profile's login, nil when none is.
        public var storedKeyThumbprint: String?
        /// Whether the two are the same key; nil when either is missing.
        public var matchesStoredKey: Bool?

        /// nil when neither the token names a key nor a key is stored.
        init?(claims: JSONValue, stored: StoredTokens?) {
            jkt = claims["cnf"]?["jkt"]?.stringValue
            storedKeyThumbprint = stored?.dpopKey.flatMap(DPoPKey.init(stored:))?.thumbprint
            guard jkt != nil || storedKeyThumbprint != nil else { return nil }
            if let jkt, let storedKeyThumbprint { matchesStoredKey = jkt == storedKeyThumbprint }
        }
    }

    /// Whose clock to ask: a stored token's issuer, or the configured issuer when the token names it. A pasted token
    /// from anywhere else is not a reason to contact the host it names.
    static func clockIssuer(_ jwt: DecodedJWT, _ resolved: TokenInput.Resolved, _ context: IdFlowContext) -> URL? {
        if let pinned = try? resolved.issuer(context) { return pinned }
        guard let configured = try? context.configuration.requireIssuer(), jwt.claims["iss"]?.stringValue == configured.absoluteString
        else { return nil }
        return configured
    }

    /// A token with no `.` at all cannot be a JWS or JWE: an opaque handle only its issuer can read.
    static func isOpaque(_ token: String) -> Bool {
        !token.trimmingCharacters(in: .whitespacesAndNewlines).contains(".")
    }

    static let opaqueNote =
        "an opaque refresh token (as Okta issues) carries no claims to decode; `idflow token introspect --type refresh` asks the issuer whether it is active, its expiry and scope"
}
