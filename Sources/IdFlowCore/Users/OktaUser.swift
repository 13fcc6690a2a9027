/// The parts of an Okta user idflow reads; the whole object is kept as `JSONValue` for output.
public struct OktaUser: Decodable, Sendable, Equatable {
    public struct Profile: Decodable, Sendable, Equatable {
        public var login: String
        public var email: String?
        public var firstName: String?
        public var lastName: String?
    }

    public var id: String
    /// STAGED, PROVISIONED, ACTIVE, RECOVERY, PASSWORD_EXPIRED, LOCKED_OUT, SUSPENDED, DEPROVISIONED.
    public var status: String
    public var profile: Profile
}

/// The answer to `lifecycle/activate` and `reactivate`: the one-time token and its link, or `{}` when
/// the server mailed them instead.
public struct UserActivationToken: Decodable, Sendable, Equatable {
    public var activationUrl: String?
    public var activationToken: String?
}
