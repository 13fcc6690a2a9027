import Foundation

/// An enrollment the policy lets a user put off (`idx.gracePeriods`): until a date on the sandbox's clock
/// (`{"expiry": "2026-12-01T00:00:00Z"}`, Okta's `BY_DATE_TIME`), or for a number of sign-ins (`{"skips": 3}`,
/// `BY_SKIP_COUNT`). While it lasts `select-authenticator-enroll` offers `skip`; after it, the enrollment is enforced.
public struct IDXGracePeriod: Codable, Sendable, Equatable {
    public var expiry: Date?
    public var skips: Int?

    public init(expiry: Date? = nil, skips: Int? = nil) {
        self.expiry = expiry
        self.skips = skips
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case expiry, skips }

    public init(from decoder: any Decoder) throws {
        try ConfigurationKeys.refuseUnknown(decoder, known: CodingKeys.allCases.map(\.rawValue), key: "idx.gracePeriods")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        skips = try container.decodeIfPresent(Int.self, forKey: .skips)
        if let text = try container.decodeIfPresent(String.self, forKey: .expiry) {
            guard let date = Timestamps.parseISO8601(text) else {
                throw SandboxConfigurationError.invalidValue(
                    key: "idx.gracePeriods", reason: "expiry \"\(text)\" is not an ISO 8601 date such as 2026-12-01T00:00:00Z")
            }
            expiry = date
        }
        guard (expiry == nil) != (skips == nil) else {
            throw SandboxConfigurationError.invalidValue(key: "idx.gracePeriods", reason: "give each authenticator either expiry or skips")
        }
        if let skips, skips < 1 {
            throw SandboxConfigurationError.invalidValue(key: "idx.gracePeriods", reason: "skips must be at least 1")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let expiry { try container.encode(Timestamps.iso8601(expiry), forKey: .expiry) }
        try container.encodeIfPresent(skips, forKey: .skips)
    }
}

extension IDXPolicy {
    /// `idx.gracePeriods` by authenticator name, as the configuration writes it.
    static func decodeGracePeriods(_ names: [String: IDXGracePeriod]?) throws -> [Authenticator: IDXGracePeriod] {
        var periods: [Authenticator: IDXGracePeriod] = [:]
        for (name, period) in names ?? [:] {
            guard let authenticator = Authenticator(rawValue: name) else {
                throw SandboxConfigurationError.invalidValue(key: "idx.gracePeriods", reason: "unknown authenticator \"\(name)\"")
            }
            periods[authenticator] = period
        }
        return periods
    }

    /// The rules of `gracePeriods` and `consent`: a grace period only for an authenticator the policy requires and a
    /// transaction can enroll (not the password), and consent scopes that are not empty.
    func validateScreens() throws {
        for authenticator in gracePeriods.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            guard authenticator != .password, authenticator.enrollsInTransaction, required.contains(authenticator) else {
                throw SandboxConfigurationError.invalidValue(
                    key: "idx.gracePeriods",
                    reason: "\"\(authenticator.rawValue)\" must be in idx.enroll.required and enrollable in a sign-in (not the password)")
            }
        }
        for (client, scopes) in consent where scopes.isEmpty {
            throw SandboxConfigurationError.invalidValue(key: "idx.consent", reason: "client \(client) lists no scopes to consent to")
        }
    }
}
