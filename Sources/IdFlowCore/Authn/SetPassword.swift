import Foundation
import IdFlowFoundation

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

    /// Where the activation comes from, as the user gave it: the link (`--activation-url[-file|-stdin]`,
    /// `IDFLOW_ACTIVATION_URL`) or the bare token (`--activation-token[-file]`, `IDFLOW_ACTIVATION_TOKEN`).
    /// Both are secrets (the link carries the token), so both come from a file, stdin or the environment too.
    public struct ActivationInput: Sendable {
        public var url: String?
        public var urlFile: String?
        public var urlStdin: Bool
        public var token: String?
        public var tokenFile: String?

        public init(url: String? = nil, urlFile: String? = nil, urlStdin: Bool = false, token: String? = nil, tokenFile: String? = nil) {
            self.url = url
            self.urlFile = urlFile
            self.urlStdin = urlStdin
            self.token = token
            self.tokenFile = tokenFile
        }

        var namesURL: Bool { url != nil || urlFile != nil || urlStdin }
        var namesToken: Bool { token != nil || tokenFile != nil }
    }

    /// The flow for the activation the user gave, one way only.
    public init(activation: ActivationInput, password: Secret, secrets: SecretReader) throws(IdFlowError) {
        guard !(activation.namesURL && activation.namesToken) else {
            throw .invalidInput("give the activation token or the activation URL, not both")
        }
        let urlFromEnvironment =
            !activation.namesToken && secrets.environment["IDFLOW_ACTIVATION_TOKEN"] == nil
            && !(secrets.environment["IDFLOW_ACTIVATION_URL"] ?? "").isEmpty
        if activation.namesURL || urlFromEnvironment {
            let source = try SecretSource.choose(
                what: "activation URL", stdin: activation.urlStdin, file: activation.urlFile, argument: activation.url,
                environmentVariable: "IDFLOW_ACTIVATION_URL", environment: secrets.environment)
            try self.init(activationURL: secrets.read("activation URL", from: source).value, password: password)
            return
        }
        let source = try SecretSource.choose(
            what: "activation token", stdin: false, file: activation.tokenFile, argument: activation.token,
            environmentVariable: "IDFLOW_ACTIVATION_TOKEN", environment: secrets.environment)
        self.init(token: try ActivationToken(secrets.read("activation token", from: source).value), password: password)
    }

    /// The org the password goes to: the configured one, and only that. A link names its own host, and a link
    /// can come from anywhere (a forwarded mail, a chat message), so a link on another host than the
    /// configured org is refused rather than trusted with the password; `--org-url` naming the link's host is
    /// how a user says it is the right one.
    func orgURL(_ configuration: Configuration) throws(IdFlowError) -> URL {
        guard let configured = configuration.orgURL else {
            guard let linkOrg else { return try configuration.requireOrgURL() }
            throw .security(
                "no org is configured, so the activation link's host \(linkOrg.absoluteString) cannot be checked; refusing to send the password there",
                hint: "pass --org-url \(linkOrg.absoluteString) (or export OKTA_CLIENT_ORGURL) if that is your org")
        }
        if let linkOrg, !OrgEndpoint(orgURL: configured).contains(linkOrg) {
            throw .security(
                "the activation URL belongs to \(linkOrg.absoluteString), not to the configured org \(configured.absoluteString); refusing to send the password there",
                hint: "pass --org-url \(linkOrg.absoluteString) if that is your org, or use a link from the configured org")
        }
        return configured
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
        let org = try orgURL(context.configuration)
        let authn = AuthnAPI(http: context.http, orgURL: org)
        let pending = PendingActivations(stateDirectory: context.configuration.stateDirectory)
        let transaction: AuthnTransaction
        if let open = try pending.load(for: token, org: org, now: context.now()) {
            context.message("continuing the activation opened by an earlier run (until \(open.expiresAt ?? "soon"))")
            transaction = open
        } else {
            transaction = try await authn.redeem(token)
        }
        // Okta answers PASSWORD_RESET for an activation; some orgs and older flows report RECOVERY.
        guard transaction.status == "PASSWORD_RESET" || transaction.status == "RECOVERY" else {
            throw Self.unexpected(transaction, step: "redeeming the activation token")
        }
        var candidate = password
        while true {
            do throws(IdFlowError) {
                let done = try await resetPassword(transaction, candidate, authn)
                try? pending.remove(for: token)
                let user = done.user ?? transaction.user
                context.message(
                    "password set for \(user?.profile?.login ?? "the user"); session token valid until \(done.expiresAt ?? "soon") (single use)"
                )
                return Result(
                    status: done.status, sessionToken: done.sessionToken ?? "", expiresAt: done.expiresAt, userId: user?.id,
                    login: user?.profile?.login)
            } catch {
                guard Self.isPolicyRefusal(error) else {
                    if case .okta(_, let body, _) = error, body.errorCode == "E0000011" { try? pending.remove(for: token) }
                    throw error
                }
                // The transaction is still open: a person is asked again, a script may run again with the same token.
                try pending.save(transaction, for: token, org: org)
                context.notice("\(error.message)")
                guard context.console.isInteractive, let again = context.console.promptSecret("Choose another password: ") else {
                    throw Self.withRetryHint(error, until: transaction.expiresAt)
                }
                candidate = Secret(again)
            }
        }
    }

    /// Checks `password` against the policy the transaction published, then sets it.
    private func resetPassword(_ transaction: AuthnTransaction, _ password: Secret, _ authn: AuthnAPI) async throws(IdFlowError)
        -> AuthnTransaction
    {
        let broken = transaction.embedded?.policy?.complexity?.failedRules(password.value, login: transaction.user?.profile?.login) ?? []
        guard broken.isEmpty else { throw .weakPassword(causes: broken) }
        let done = try await authn.resetPassword(transaction, newPassword: password)
        guard done.status == "SUCCESS", done.sessionToken != nil else {
            throw Self.unexpected(done, step: "setting the password")
        }
        return done
    }

    /// A refusal of the password itself, after which the same transaction takes another one.
    private static func isPolicyRefusal(_ error: IdFlowError) -> Bool {
        switch error {
        case .weakPassword: return true
        case .okta(_, let body, _): return ["E0000080", "E0000014"].contains(body.errorCode)
        default: return false
        }
    }

    private static func withRetryHint(_ error: IdFlowError, until expiry: String?) -> IdFlowError {
        let hint =
            "choose a password that meets every requirement in causes and run set-password again with the same activation token before \(expiry ?? "the transaction expires") (it stays valid)"
        switch error {
        case .weakPassword(let causes, _): return .weakPassword(causes: causes, hint: hint)
        case .okta(let status, let body, _): return .okta(status: status, body: body, hint: hint)
        default: return error
        }
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
