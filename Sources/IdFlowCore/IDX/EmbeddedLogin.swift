import Foundation
import IdFlowFoundation

/// Signs in without a browser through the Identity Engine (idx.md §10): interact with PKCE S256, state and
/// nonce; introspect; then one generic loop that picks a remediation, fills its form from the answers (or, at a
/// terminal, from prompts) and sends it, polling where the server says to wait, until the server hands out an
/// interaction code, which is exchanged for tokens and validated like every other login.
public struct EmbeddedLogin: Sendable {
    public var answers: IDX.AnswerSet
    /// Take the remediation (or current-authenticator capability, e.g. `resend`) of this name once it is
    /// offered, instead of the first the answers cover.
    public var remediation: String?
    public var clientSecret: Secret?
    public var store: Bool
    /// Sign up instead of in (`register --embedded`): the first step must be `select-enroll-profile`.
    public var signUp: Bool
    /// Continue the transaction a stopped run kept (`--resume TX`) instead of starting one.
    public var resume: String?
    /// How long polling (an Okta Verify push, idx.md §8) waits for the answer given elsewhere (`--mfa-timeout`).
    public var pollTimeout: Duration
    /// Where an authenticator app's seed is kept and codes are computed from (`--totp-secret-file`).
    public var totpSecretFile: TOTPSeedFile?
    /// The password that replaces an expired one, or the forgotten one after `recover` (`--new-password-*`).
    public var newPassword = NewPassword()
    /// `--recover`: take the password's `recover` capability when offered (forgotten password, idx.md §12.3).
    public var recover = false
    /// `--unlock`: take `unlock-account` when offered, then sign in again (idx.md §12.5).
    public var unlock = false
    /// With `--unlock`: the password for the sign-in after the unlock, held back so that it never answers the
    /// unlock's code.
    public var passwordAfterUnlock: Secret?
    /// `--passkey`: enroll a passkey where the flow offers one (and at a promotion), sign in with one where a
    /// choice is offered, and, with no identifier, sign in with a passkey alone (autofill).
    public var passkey = false
    /// How passkeys are made and opened (`--passkey-pin-file`, `--attestation`, `--aaguid`); used whenever the flow
    /// reaches a passkey step, `--passkey` or not.
    public var passkeySettings = PasskeyAuthenticator.Settings()
    /// `--enroll-now`: enroll an authenticator the policy lets the user put off (a grace period) instead of skipping it.
    public var enrollNow = false
    /// `--consent`: grant the consent an app asks for (`consent`, `granular-consent`) without asking.
    public var consent = false
    /// This is the sign-in after an unlock or a reset (`signInAgain`), which must not end the same way once more.
    var signingInAgain = false
    /// A loop that does not reach an interaction code within this many forms sent is a server fault.
    static let maximumSteps = 30
    static let signUpRemediation = "select-enroll-profile"

    public init(
        answers: IDX.AnswerSet, remediation: String? = nil, clientSecret: Secret? = nil, store: Bool = true, signUp: Bool = false,
        resume: String? = nil, pollTimeout: Duration = .seconds(300), totpSecretFile: TOTPSeedFile? = nil
    ) {
        self.totpSecretFile = totpSecretFile
        self.resume = resume
        self.answers = answers
        self.remediation = remediation
        self.clientSecret = clientSecret
        self.store = store
        self.signUp = signUp
        self.pollTimeout = pollTimeout
    }

    /// Ctrl-C or SIGTERM anywhere in the run (a request, a wait, a prompt) ends it as `.interrupted` (exit 130) after
    /// the sign-in was cancelled on the server; one watch of both signals covers the whole run.
    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> SignInOutput {
        try await Interruption.cancellingOnInterrupt("interrupted during the embedded sign-in") { () throws(IdFlowError) in
            try await signIn(context)
        }
    }

    private func signIn(_ context: IdFlowContext) async throws(IdFlowError) -> SignInOutput {
        let server = try await AuthorizationServer.discoverForLogin(context, clientSecret: clientSecret)
        let kept = IDX.Transactions(stateDirectory: context.configuration.stateDirectory)
        var transaction: IDX.Transaction
        if let resume {
            transaction = try kept.kept(resume, issuer: server.issuer, clientID: server.client.clientID, now: context.now())
        } else {
            transaction = try await interact(server, context)
        }
        kept.removeExpired(now: context.now())
        var walk = IDX.Walk(login: self, server: server, context: context)
        do throws(IdFlowError) {
            let outcome = try await walk.run(&transaction)
            // A file left behind is refused by the server later as an expired session.
            if resume != nil { try? kept.remove(transaction.id) }
            switch outcome {
            case .tokens(let output):
                return output
            case .signInAgain:
                // A server that ends the new sign-in as it ended the one before would have it start over for ever.
                guard !signingInAgain else {
                    throw .protocolViolation("the Identity Engine ended the new sign-in as it ended the one before, without signing in")
                }
                return try await signInAgain(after: walk, context)
            }
        } catch {
            guard var pending = error.idxPending else {
                // A wrong answer the server lets the person correct: the transaction lives on for another try. So does
                // one the server throttled (a code resent too soon, 429): it did not act, and a later `--resume` may.
                if walk.keepsTransaction || error.isRateLimited {
                    try kept.save(transaction)
                } else if resume != nil {
                    try? kept.remove(transaction.id)
                }
                throw error
            }
            try kept.save(transaction)
            pending.transaction = transaction.id
            throw .idxPending(pending)
        }
    }

    /// After an unlocked account (or a reset that does not sign in): a new sign-in with the answers not spent yet
    /// (the password) and the identifier again, `--unlock` and `--recover` done.
    private func signInAgain(after walk: IDX.Walk, _ context: IdFlowContext) async throws(IdFlowError) -> SignInOutput {
        var again = self
        again.recover = false
        again.unlock = false
        again.resume = nil
        again.remediation = nil
        again.answers = walk.answers
        if again.answers.lookup("identifier") == nil, let identifier = walk.lastIdentifier {
            again.answers.answer("identifier", with: identifier)
        }
        if let password = passwordAfterUnlock, again.answers.lookup("credentials.passcode") == nil {
            again.answers.answer("credentials.passcode", with: password.value)
        }
        again.passwordAfterUnlock = nil
        again.signingInAgain = true
        context.message("idx: signing in again")
        var output = try await again.signIn(context)
        output.passwordChanged = output.passwordChanged || walk.newPasswordSent
        return output
    }

    /// `/v1/interact` with a fresh PKCE pair, state and nonce: the transaction a stopped run keeps.
    private func interact(_ server: AuthorizationServer, _ context: IdFlowContext) async throws(IdFlowError) -> IDX.Transaction {
        let redirectURI = try context.configuration.requireRedirectURI()
        let scope = context.configuration.scope
        let pkce = PKCEPair.generate()
        let state = RandomValue.base64URL(bytes: 24)
        let nonce = RandomValue.base64URL(bytes: 24)
        let request = IDX.InteractRequest(
            url: IDX.interactURL(issuer: server.issuer), client: server.client, redirectURI: redirectURI, scope: scope, pkce: pkce,
            state: state, nonce: nonce)
        let handle = try await server.http.send(request)
        return IDX.Transaction(
            id: RandomValue.hex(bytes: 12), issuer: server.issuer.absoluteString, clientID: server.client.clientID,
            interactionHandle: handle, stateHandle: nil, codeVerifier: pkce.verifier, state: state, nonce: nonce, scope: scope)
    }
}
