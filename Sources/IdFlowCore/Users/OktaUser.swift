import IdFlowFoundation

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

extension OktaUser {
    /// Reads the fields from a document already parsed (what `JSONDecoder` would read from its text), so a
    /// user the server returns is parsed once, not once for these fields and again for the output; nil when
    /// the document does not have them, and `decode` then says what is missing.
    init?(document: JSONValue) {
        /// A string member: `.some(nil)` when absent or null, nil when it holds anything else.
        func optional(_ value: JSONValue?) -> String?? {
            switch value {
            case nil, .null?: return .some(nil)
            case .string(let text)?: return .some(text)
            default: return nil
            }
        }
        guard let id = document["id"]?.stringValue, let status = document["status"]?.stringValue,
            let profile = document["profile"], let login = profile["login"]?.stringValue,
            let email = optional(profile["email"]), let firstName = optional(profile["firstName"]),
            let lastName = optional(profile["lastName"])
        else { return nil }
        self.init(id: id, status: status, profile: Profile(login: login, email: email, firstName: firstName, lastName: lastName))
    }
}
