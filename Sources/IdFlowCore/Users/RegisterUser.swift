import IdFlowFoundation

/// Creates a user without a password (`activate=false`), leaving it STAGED for `activate`.
public struct RegisterUser: Sendable {
    public var email: String
    public var firstName: String?
    public var lastName: String?
    public var login: String?
    /// Extra profile attributes from `--attr key=value`.
    public var attributes: [String: String]

    public init(email: String, firstName: String? = nil, lastName: String? = nil, login: String? = nil, attributes: [String: String] = [:])
    {
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.login = login
        self.attributes = attributes
    }

    /// Parses `key=value` pairs; a key may appear once and may not repeat a dedicated flag.
    public static func parseAttributes(_ pairs: [String]) throws(IdFlowError) -> [String: String] {
        var attributes: [String: String] = [:]
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw .invalidInput("--attr \"\(pair)\" is not key=value", hint: "for example --attr mobilePhone=+1-555-0100")
            }
            let key = String(pair[..<equals])
            guard attributes[key] == nil else { throw .invalidInput("--attr \(key) is given twice") }
            guard !["email", "login", "firstName", "lastName"].contains(key) else {
                throw .invalidInput(
                    "--attr \(key) repeats a dedicated option",
                    hint: "use --\(key == "firstName" ? "first-name" : key == "lastName" ? "last-name" : key) instead")
            }
            attributes[key] = String(pair[pair.index(after: equals)...])
        }
        return attributes
    }

    /// The profile sent to the server; login defaults to the e-mail address, as Okta's sign-up does.
    public var profile: [String: JSONValue] {
        Self.profile(
            email: email, firstName: firstName, lastName: lastName, login: login, attributes: attributes.mapValues(JSONValue.string))
    }

    /// The profile of one new user; `register --batch` builds its users' profiles here too.
    static func profile(email: String, firstName: String?, lastName: String?, login: String?, attributes: [String: JSONValue]) -> [String:
        JSONValue]
    {
        var profile = attributes
        profile["email"] = .string(email)
        profile["login"] = .string(login ?? email)
        if let firstName { profile["firstName"] = .string(firstName) }
        if let lastName { profile["lastName"] = .string(lastName) }
        return profile
    }

    /// Refuses what cannot be an e-mail address before anything is sent.
    static func checkEmail(_ email: String) throws(IdFlowError) {
        guard email.contains("@"), !email.hasPrefix("@"), !email.hasSuffix("@") else {
            throw .invalidInput("\"\(email)\" is not an e-mail address", hint: "pass --email name@example.com")
        }
    }

    /// Returns the created user object as the server sent it.
    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> JSONValue {
        try Self.checkEmail(email)
        let (user, document) = try await context.usersAPI().createUser(profile: profile, activate: false)
        context.message("registered \(user.profile.login) as \(user.id) (\(user.status))")
        return document
    }
}
