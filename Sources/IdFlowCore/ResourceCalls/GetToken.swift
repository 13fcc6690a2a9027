import Foundation
import IdFlowFoundation

/// `idflow token get`: the profile's token for a script or for kubectl, refreshed first when it would expire
/// within `minimumTTL`, so that what is printed still works when it is used.
public struct GetToken: Sendable {
    /// What is printed.
    public enum Format: String, Sendable, CaseIterable {
        /// `{"access_token", "token_type", "expires_at", "scope"}` (plus `id_token`, `id_token_expires_at` with `--token-type id`).
        case json
        /// kubectl's `ExecCredential` (client.authentication.k8s.io/v1).
        case execCredential = "exec-credential"
    }

    /// Seconds the printed token must still be valid for; a token closer to its expiry is refreshed first.
    public var minimumTTL: TimeInterval
    public var format: Format
    /// The token that matters: access or id. Nil picks the format's own (access for json; id for
    /// exec-credential, as kubelogin and Kubernetes' OIDC authenticator use).
    public var tokenType: TokenKind?

    public static let defaultMinimumTTL: TimeInterval = 60

    public init(minimumTTL: TimeInterval = defaultMinimumTTL, format: Format = .json, tokenType: TokenKind? = nil) {
        self.minimumTTL = minimumTTL
        self.format = format
        self.tokenType = tokenType
    }

    /// The kind of token printed (and whose expiry decides a refresh).
    public var kind: TokenKind { tokenType ?? (format == .execCredential ? .id : .access) }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> Output {
        guard kind != .refresh else {
            throw .invalidInput("token get prints an access or ID token, never the refresh token", hint: "use --token-type access or id")
        }
        guard minimumTTL >= 0, minimumTTL.isFinite else {
            throw .invalidInput("--min-ttl must be a number of seconds, 0 or more")
        }
        guard
            let access = try await ProfileAccess.load(
                context, refreshing: .whenStale(minimumTTL: minimumTTL, kind: kind))
        else {
            throw .localState(
                "nothing is stored for profile \(context.configuration.profile)",
                hint: "log in first with `idflow login-pkce` (or `idflow login-device`)")
        }
        let tokens = access.tokens
        let idExpiry = Self.idTokenExpiry(tokens)
        if kind == .id, tokens.response.idToken == nil {
            throw .localState(
                "profile \(context.configuration.profile) has no ID token (the login did not ask for openid)",
                hint: "log in with a scope that includes openid, or use --token-type access")
        }
        let expiry = kind == .id ? idExpiry : tokens.expiresAt
        if let expiry, expiry.timeIntervalSince(context.now()) <= minimumTTL {
            context.notice(
                "warning: the \(kind == .id ? "ID" : "access") token expires at \(ISO8601.string(expiry)), within --min-ttl \(Int(minimumTTL)) s, even after a refresh: the server issues shorter-lived tokens"
            )
        }
        switch format {
        case .json:
            return .token(
                TokenSummary(
                    accessToken: tokens.response.accessToken, tokenType: tokens.response.tokenType,
                    expiresAt: tokens.expiresAt.map(ISO8601.string), scope: tokens.response.scope,
                    idToken: kind == .id ? tokens.response.idToken : nil,
                    idTokenExpiresAt: kind == .id ? idExpiry.map(ISO8601.string) : nil))
        case .execCredential:
            // kubectl sends the token as Bearer, which a resource must refuse for a DPoP-bound one (RFC 9449 §7.1).
            if kind == .access, tokens.response.tokenType.lowercased() == "dpop" {
                throw .invalidInput(
                    "the access token of profile \(context.configuration.profile) is DPoP-bound, and kubectl can only send it as Bearer",
                    hint: "use --token-type id (what Kubernetes' OIDC authenticator checks), or log in without --dpop")
            }
            let token = kind == .id ? tokens.response.idToken ?? "" : tokens.response.accessToken
            return .execCredential(ExecCredential(status: .init(token: token, expirationTimestamp: expiry.map(ISO8601.string))))
        }
    }

    static func idTokenExpiry(_ tokens: TokenOutput) -> Date? {
        guard case .number(let seconds)? = tokens.idTokenClaims?["exp"] else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// What `token get` prints.
    public enum Output: Encodable, Sendable {
        case token(TokenSummary)
        case execCredential(ExecCredential)

        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .token(let summary): try summary.encode(to: encoder)
            case .execCredential(let credential): try credential.encode(to: encoder)
            }
        }
    }

    /// `{"access_token", "token_type", "expires_at", "scope"}`: the keys of a token response a script needs,
    /// `expires_at` and `scope` null when unknown.
    public struct TokenSummary: Encodable, Sendable, Equatable {
        public var accessToken: String
        public var tokenType: String
        @NullWhenAbsent public var expiresAt: String?
        @NullWhenAbsent public var scope: String?
        public var idToken: String?
        public var idTokenExpiresAt: String?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case tokenType = "token_type"
            case expiresAt = "expires_at"
            case scope
            case idToken = "id_token"
            case idTokenExpiresAt = "id_token_expires_at"
        }
    }
}

/// kubectl's credential plugin answer (client.authentication.k8s.io/v1 `ExecCredential`): the bearer token it
/// sends to the API server and when to ask again.
public struct ExecCredential: Encodable, Sendable, Equatable {
    public var apiVersion = "client.authentication.k8s.io/v1"
    public var kind = "ExecCredential"
    public var status: Status

    public struct Status: Encodable, Sendable, Equatable {
        public var token: String
        /// RFC 3339; kubectl runs the plugin again once it has passed. Left out when the expiry is unknown.
        public var expirationTimestamp: String?
    }
}
