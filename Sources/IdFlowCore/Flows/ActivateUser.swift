/// Activates a STAGED user and returns the one-time activation token and link (PROVISIONED when the user has no password).
public struct ActivateUser: Sendable {
    /// A user id (`00u…`) or a login.
    public var user: String
    /// Lets the server mail the link instead of returning it.
    public var sendEmail: Bool

    public init(user: String, sendEmail: Bool = false) {
        self.user = user
        self.sendEmail = sendEmail
    }

    /// The output of `idflow activate`.
    public struct Result: Encodable, Sendable, Equatable {
        public var userId: String
        public var status: String
        public var activationToken: String?
        public var activationUrl: String?

        public init(userId: String, status: String, activationToken: String?, activationUrl: String?) {
            self.userId = userId
            self.status = status
            self.activationToken = activationToken
            self.activationUrl = activationUrl
        }
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> Result {
        let trimmed = user.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw .invalidInput("--user is empty", hint: "pass a user id (00u…) or a login") }
        let api = try context.usersAPI()
        // A login is looked up first so the lifecycle call always names the user by id.
        let userID = trimmed.contains("@") ? try await api.user(trimmed).0.id : trimmed
        let token = try await api.activate(userID: userID, sendEmail: sendEmail)
        let (after, _) = try await api.user(userID)
        context.message(
            sendEmail
                ? "activated \(after.profile.login) (\(after.status)); the server e-mailed the activation link"
                : "activated \(after.profile.login) (\(after.status))")
        return Result(userId: userID, status: after.status, activationToken: token.activationToken, activationUrl: token.activationUrl)
    }
}
