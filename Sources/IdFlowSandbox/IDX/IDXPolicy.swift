import Foundation

/// What the Identity Engine (`/idp/idx`) asks of users (`--config` key `idx`): the authenticators a sign-in
/// must pass and a sign-up must enroll, in order, and whether sign-up is offered at all.
///
/// `{"authenticators": ["password"] | ["password","email"] | ["password","okta_verify"], "signUp": true|false}`;
/// the default is `["password"]` with sign-up.
public struct IDXPolicy: Codable, Sendable, Equatable {
    /// An authenticator the policy can require.
    public enum Authenticator: String, Codable, Sendable, CaseIterable {
        /// The password (`okta_password`); always the first.
        case password
        /// A 6-digit code "e-mailed" to the user's primary address (the outbox).
        case email
        /// A push to the user's app-authenticator enrollment (`idflow enroll`), answered by `idflow resolve`.
        case oktaVerify = "okta_verify"
    }

    public var authenticators: [Authenticator] = [.password]
    /// Whether `identify` offers `select-enroll-profile` (self-service registration).
    public var signUp = true

    /// The policies the sandbox can play, as written in the configuration file.
    public static let allowed: [[Authenticator]] = [[.password], [.password, .email], [.password, .oktaVerify]]

    public init(authenticators: [Authenticator] = [.password], signUp: Bool = true) {
        self.authenticators = authenticators
        self.signUp = signUp
    }

    /// The authenticator asked for after the password, if any.
    public var secondFactor: Authenticator? { authenticators.dropFirst().first }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case authenticators, signUp
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Missing keys keep their defaults; unknown keys and authenticator names are refused with a message that
    /// says what is allowed.
    public init(from decoder: any Decoder) throws {
        let unknown = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
            .filter { CodingKeys(rawValue: $0) == nil }.sorted()
        if !unknown.isEmpty {
            throw SandboxConfigurationError.invalidValue(
                key: "idx", reason: "unknown key(s) \(unknown.joined(separator: ", ")) (known keys: authenticators, signUp)")
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let names = try container.decodeIfPresent([String].self, forKey: .authenticators) {
            authenticators = try names.map { name in
                guard let authenticator = Authenticator(rawValue: name) else {
                    throw SandboxConfigurationError.invalidValue(
                        key: "idx.authenticators", reason: "unknown authenticator \"\(name)\"; use \(Self.allowedDescription)")
                }
                return authenticator
            }
        }
        signUp = try container.decodeIfPresent(Bool.self, forKey: .signUp) ?? true
    }

    /// `["password"], ["password","email"] or ["password","okta_verify"]`.
    static var allowedDescription: String {
        let lists = allowed.map { "[" + $0.map { "\"\($0.rawValue)\"" }.joined(separator: ",") + "]" }
        return lists.dropLast().joined(separator: ", ") + " or " + lists.last!
    }

    func validate() throws {
        guard !Self.allowed.contains(authenticators) else { return }
        let reason =
            authenticators.first == .password
            ? "must be \(Self.allowedDescription)"
            : "password must come first: \(Self.allowedDescription)"
        throw SandboxConfigurationError.invalidValue(key: "idx.authenticators", reason: reason)
    }
}
