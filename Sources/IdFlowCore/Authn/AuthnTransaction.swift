import IdFlowFoundation

/// A transaction of Okta's classic Authn API (`/api/v1/authn`): where the user is in sign-in, activation or recovery.
public struct AuthnTransaction: Codable, Sendable, Equatable {
    public struct Link: Codable, Sendable, Equatable {
        public var name: String?
        public var href: String
    }

    public struct Links: Codable, Sendable, Equatable {
        public var next: Link?
        public var cancel: Link?
        public var prev: Link?
        /// PASSWORD_WARN only: go on without changing the password.
        public var skip: Link?
    }

    public struct User: Codable, Sendable, Equatable {
        public struct Profile: Codable, Sendable, Equatable {
            public var login: String?
            public var firstName: String?
            public var lastName: String?
        }
        public var id: String
        public var profile: Profile?
    }

    public struct Complexity: Codable, Sendable, Equatable {
        public var minLength: Int?
        public var minLowerCase: Int?
        public var minUpperCase: Int?
        public var minNumber: Int?
        public var minSymbol: Int?
        public var excludeUsername: Bool?
    }

    public struct Policy: Codable, Sendable, Equatable {
        public struct Expiration: Codable, Sendable, Equatable {
            /// PASSWORD_WARN: the days left before the password expires.
            public var passwordExpireDays: Int?
        }
        public var complexity: Complexity?
        public var expiration: Expiration?
    }

    /// A factor offered or required (`MFA_REQUIRED`, `MFA_ENROLL`), kept for the MFA flows that build on it.
    public struct Factor: Codable, Sendable, Equatable {
        public struct Links: Codable, Sendable, Equatable {
            public var verify: Link?
        }
        public var id: String?
        public var factorType: String
        public var provider: String?
        public var links: Links?

        private enum CodingKeys: String, CodingKey {
            case id, factorType, provider
            case links = "_links"
        }
    }

    public struct Embedded: Codable, Sendable, Equatable {
        public var user: User?
        public var policy: Policy?
        public var factors: [Factor]?
        public var factor: Factor?
    }

    /// LOCKED_OUT, MFA_CHALLENGE, MFA_ENROLL, MFA_REQUIRED, PASSWORD_RESET, RECOVERY, SUCCESS, …
    public var status: String
    public var stateToken: String?
    public var sessionToken: String?
    public var expiresAt: String?
    public var recoveryType: String?
    public var factorResult: String?
    public var embedded: Embedded?
    public var links: Links?

    private enum CodingKeys: String, CodingKey {
        case status, stateToken, sessionToken, expiresAt, recoveryType, factorResult
        case embedded = "_embedded"
        case links = "_links"
    }

    public var user: User? { embedded?.user }
}

extension AuthnTransaction.Complexity {
    private enum CodingKeys: String, CodingKey {
        case minLength, minLowerCase, minUpperCase, minNumber, minSymbol, excludeUsername
    }

    /// One of Okta's documented examples spells `excludeUsername` as the string "true" (okta-core.md §F1); both
    /// spellings are read.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        minLength = try container.decodeIfPresent(Int.self, forKey: .minLength)
        minLowerCase = try container.decodeIfPresent(Int.self, forKey: .minLowerCase)
        minUpperCase = try container.decodeIfPresent(Int.self, forKey: .minUpperCase)
        minNumber = try container.decodeIfPresent(Int.self, forKey: .minNumber)
        minSymbol = try container.decodeIfPresent(Int.self, forKey: .minSymbol)
        if let flag = try? container.decodeIfPresent(Bool.self, forKey: .excludeUsername) {
            excludeUsername = flag
        } else {
            excludeUsername = (try? container.decodeIfPresent(String.self, forKey: .excludeUsername)).flatMap { Bool($0.lowercased()) }
        }
    }
}
