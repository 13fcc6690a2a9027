import Foundation

/// Redeems an activation token for a state token, sets the user's first password, and returns the
/// single-use session token that proves the sign-in (the user is ACTIVE afterwards).
public struct SetPassword: Sendable {
    public var token: ActivationToken
    public var password: Secret
    /// The org named by an activation link, used when no org is configured.
    public var linkOrg: URL?

    public init(token: ActivationToken, password: Secret, linkOrg: URL? = nil) {
        self.token = token
        self.password = password
        self.linkOrg = linkOrg
    }

    /// Takes the token from an activation link (`/welcome/{token}` or `/tokens/{token}/verify`).
    public init(activationURL: String, password: Secret) throws(IdFlowError) {
        let (token, org) = try ActivationToken.parse(activationURL: activationURL)
        self.init(token: token, password: password, linkOrg: org)
    }

    /// The flow for the activation flags as the user gave them: a link, or the token from a file, argv or
    /// `IDFLOW_ACTIVATION_TOKEN`, one way only.
    public init(
        activationURL: String?, activationTokenFile: String?, activationToken: String?, password: Secret, secrets: SecretReader
    ) throws(IdFlowError) {
        if let activationURL {
            guard activationToken == nil, activationTokenFile == nil else {
                throw .invalidInput("give the activation token or the activation URL, not both")
            }
            try self.init(activationURL: activationURL, password: password)
            return
        }
        let source = try SecretSource.choose(
            what: "activation token", stdin: false, file: activationTokenFile, argument: activationToken,
            environmentVariable: "IDFLOW_ACTIVATION_TOKEN", environment: secrets.environment)
        self.init(token: try ActivationToken(secrets.read("activation token", from: source).value), password: password)
    }

    /// The configured org, else the link's; a link to another org than the configured one is refused,
    /// because the password would go to a server the user did not configure.
    func orgURL(_ configuration: Configuration) throws(IdFlowError) -> URL {
        guard let configured = configuration.orgURL else {
            guard let linkOrg else { return try configuration.requireOrgURL() }
            try TransportSecurity.check(linkOrg)
            return linkOrg
        }
        if let linkOrg, !OrgEndpoint(orgURL: configured).contains(linkOrg) {
            throw .invalidInput(
                "the activation URL belongs to \(linkOrg.absoluteString), not to the configured org \(configured.absoluteString)",
                hint: "pass --org-url \(linkOrg.absoluteString), or use a link from the configured org")
        }
        return try configuration.requireOrgURL()
    }

    /// The output of `idflow set-password`.
    public struct Result: Encodable, Sendable, Equatable {
        public var status: String
        public var sessionToken: String
        public var expiresAt: String?
        public var userId: String?
        public var login: String?

        public init(status: String, sessionToken: String, expiresAt: String?, userId: String?, login: String?) {
            self.status = status
            self.sessionToken = sessionToken
            self.expiresAt = expiresAt
            self.userId = userId
            self.login = login
        }
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> Result {
        let authn = AuthnAPI(http: context.http, orgURL: try orgURL(context.configuration))
        let transaction = try await authn.redeem(token)
        // Okta answers PASSWORD_RESET for an activation; some orgs and older flows report RECOVERY.
        guard transaction.status == "PASSWORD_RESET" || transaction.status == "RECOVERY" else {
            throw Self.unexpected(transaction, step: "redeeming the activation token")
        }
        let done = try await authn.resetPassword(transaction, newPassword: password)
        guard done.status == "SUCCESS", let sessionToken = done.sessionToken else {
            throw Self.unexpected(done, step: "setting the password")
        }
        let user = done.user ?? transaction.user
        context.message(
            "password set for \(user?.profile?.login ?? "the user"); session token valid until \(done.expiresAt ?? "soon") (single use)")
        return Result(
            status: done.status, sessionToken: sessionToken, expiresAt: done.expiresAt, userId: user?.id, login: user?.profile?.login)
    }

    private static func unexpected(_ transaction: AuthnTransaction, step: String) -> IdFlowError {
        switch transaction.status {
        case "SUCCESS":
            return .rejected(
                "the user already has a password: \(step) signed them in instead of asking for one",
                hint: "use `idflow login-pkce --username …` to sign in")
        case "MFA_ENROLL", "MFA_REQUIRED", "MFA_ENROLL_ACTIVATE":
            return .rejected(
                "the org requires multifactor enrolment (\(transaction.status)) while \(step)",
                hint: "enroll a factor with `idflow enroll` once signed in, or relax the policy")
        case "LOCKED_OUT":
            return .rejected("the user is locked out", hint: "unlock the user in the admin console")
        default:
            return .protocolViolation("unexpected Authn status \(transaction.status) while \(step)")
        }
    }
}
