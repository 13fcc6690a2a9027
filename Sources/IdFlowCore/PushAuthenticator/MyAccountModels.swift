import Foundation
import IdFlowFoundation

/// `GET /.well-known/okta-organization` (devices.md §1a): only `id` is used.
public struct OktaOrganization: Decodable, Sendable, Equatable {
    public var id: String
}

/// One element of `GET /.well-known/app-authenticator-configuration` (§1b). Method settings are kept as
/// strings: the SDK's strict enums are what a server must send, and a client need not break on a new value.
public struct AppAuthenticatorConfiguration: Decodable, Sendable, Equatable {
    public struct Settings: Decodable, Sendable, Equatable {
        public var userVerification: String?
        public var userVerificationMethods: [String]?
    }

    public struct MethodSettings: Decodable, Sendable, Equatable {
        public var keyProtection: String?
        public var algorithms: [String]?
        public var transactionTypes: [String]?
    }

    public struct Method: Decodable, Sendable, Equatable {
        public var type: String
        public var status: String
        public var settings: MethodSettings?
    }

    public var authenticatorId: String
    public var orgId: String
    public var key: String
    public var name: String?
    public var settings: Settings?
    public var supportedMethods: [Method]
    public var appAuthenticatorEnrollEndpoint: String

    /// The push method, whatever its status (the SDK enrolls it whenever it is listed).
    public var pushMethod: Method? { supportedMethods.first { $0.type == "push" } }
}

/// The enrollment the server answers POST and key PATCHes with (§2c); only what is stored is read.
public struct AppAuthenticatorEnrollment: Decodable, Sendable, Equatable {
    public struct Link: Decodable, Sendable, Equatable {
        public var href: String
    }

    public struct Device: Decodable, Sendable, Equatable {
        public var id: String
        public var status: String
        public var clientInstanceId: String
    }

    public struct User: Decodable, Sendable, Equatable {
        public var id: String
        public var username: String?
    }

    public struct PushMethod: Decodable, Sendable, Equatable {
        public struct Links: Decodable, Sendable, Equatable {
            public var pending: Link?
        }
        public var id: String
        public var links: Links?
    }

    public struct Methods: Decodable, Sendable, Equatable {
        public var push: PushMethod?
        /// Okta Verify's code: the seed comes once, in the enrollment's answer (`sharedSecret`, as okta-devices-swift's
        /// `EnrolledAuthenticatorModel` names it); later answers leave it out.
        public var totp: TOTPMethod?
    }

    public struct TOTPMethod: Decodable, Sendable, Equatable {
        public var id: String?
        public var sharedSecret: String?
    }

    public struct Links: Decodable, Sendable, Equatable {
        public var `self`: Link?
    }

    public var id: String
    public var authenticatorId: String
    public var device: Device
    public var user: User
    public var methods: Methods?
    public var links: Links?
}

/// The jwt-bearer grant's answer (§7b): `access_token` and `token_type` required. The token is used as
/// Bearer whatever `token_type` says, as the SDK does (its own test answers "token.type").
public struct MaintenanceToken: Decodable, Sendable, Equatable {
    public var accessToken: String
    public var tokenType: String
    public var expiresIn: Int?
    public var scope: String?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case scope
    }
}
