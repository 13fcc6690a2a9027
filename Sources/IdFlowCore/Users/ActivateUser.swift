import IdFlowFoundation

/// Activates a STAGED user and returns the one-time activation token and link (PROVISIONED when the user has no password).
public struct ActivateUser: Sendable {
    /// A user id (`00u…`) or a login.
    public var user: String
    /// Lets the server mail the link instead of returning it.
    public var sendEmail: Bool
    /// A PROVISIONED user (activated, no password yet) gets a new token; the one it had stops working.
    public var reactivate: Bool

    public init(user: String, sendEmail: Bool = false, reactivate: Bool = false) {
        self.user = user
        self.sendEmail = sendEmail
        self.reactivate = reactivate
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
        let token: UserActivationToken
        do throws(IdFlowError) {
            token = try await api.activate(userID: userID, sendEmail: sendEmail, operation: reactivate ? .reactivate : .activate)
        } catch {
            throw await Self.explain(error, userID: userID, reactivate: reactivate, api: api)
        }
        let (after, _) = try await api.user(userID)
        let verb = reactivate ? "reactivated" : "activated"
        context.message(
            sendEmail
                ? "\(verb) \(after.profile.login) (\(after.status)); the server e-mailed the activation link"
                : "\(verb) \(after.profile.login) (\(after.status))\(reactivate ? "; the previous activation token no longer works" : "")")
        return Result(userId: userID, status: after.status, activationToken: token.activationToken, activationUrl: token.activationUrl)
    }

    /// Says which flag fits when the user's status is wrong for the operation: Okta's own summaries
    /// (E0000016 "already activated", E0000038 "not allowed in the current status") do not.
    private static func explain(_ error: IdFlowError, userID: String, reactivate: Bool, api: UsersAPI) async -> IdFlowError {
        guard case .okta(let status, let body, _) = error, ["E0000016", "E0000038"].contains(body.errorCode) else { return error }
        let current = try? await api.user(userID).0.status
        if !reactivate, current == "PROVISIONED" {
            return .okta(
                status: status, body: body,
                hint:
                    "the user is PROVISIONED (activated, no password set yet): `idflow activate --reactivate --user \(ShellWord.quote(userID))` issues a new activation token"
            )
        }
        if reactivate, let current, current != "PROVISIONED" {
            return .okta(
                status: status, body: body,
                hint:
                    "--reactivate is for PROVISIONED users only; this one is \(current)\(current == "STAGED" ? ", so activate it without --reactivate" : "")"
            )
        }
        return error
    }
}
