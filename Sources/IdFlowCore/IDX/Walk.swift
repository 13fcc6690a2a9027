import Foundation
import IdFlowFoundation

extension IDX {
    /// One embedded sign-in's way through the documents (idx.md §10): what it still has to answer, the
    /// remediation asked for by name, and the clock of an out-of-band wait.
    struct Walk {
        let login: EmbeddedLogin
        let server: AuthorizationServer
        let context: IdFlowContext
        var answers: AnswerSet
        /// `--remediation`, or the form a person just filled in at a prompt: taken once, when offered.
        var wanted: String?
        /// Started by the first poll; every later poll of the sign-in counts against the same limit.
        var poll: PollingClock?
        var formsSent = 0
        /// The answers idflow filled in itself for the current document (a TOTP code, the authenticator app chosen).
        var automatic: Set<String> = []
        /// A computed TOTP code the server refused is tried once more, with the next step's code.
        var totpRetries = 1
        /// The enrollments whose QR code was drawn already: a form offered again is not drawn twice.
        var shownEnrollments: Set<String> = []
        /// `--recover` / `--unlock`: taken once, when first offered.
        var recoveryStarted = false
        var unlockStarted = false
        /// The identifier last answered, for messages and for signing in again after an unlock.
        var lastIdentifier: String?
        /// A new password was sent (the output says `password_changed` once the sign-in succeeds).
        var newPasswordSent = false
        /// The expiring password's warning, for the output.
        var passwordWarning: PasswordExpiryWarning?
        /// The run ends on a refused answer the server still lets the person correct (`letsCorrect`): the server
        /// keeps the transaction until its limit of tries, so idflow keeps it too.
        var keepsTransaction = false

        init(login: EmbeddedLogin, server: AuthorizationServer, context: IdFlowContext) {
            self.login = login
            self.server = server
            self.context = context
            answers = login.answers
            wanted = login.remediation
        }

        var prompter: FormPrompter { FormPrompter(console: context.console) }
        var atTerminal: Bool { context.console.isInteractive }

        /// Introspect (where a kept transaction stands, too), then the loop until the interaction code has been
        /// exchanged; `transaction` follows the state handle and expiry. Ctrl-C, or a wait that runs out, sends
        /// the document's `cancel` form before giving up, so the server's transaction ends with the run.
        mutating func run(_ transaction: inout Transaction) async throws(IdFlowError) -> Outcome {
            var document = try await send(
                IntrospectRequest(url: introspectURL(issuer: server.issuer), interactionHandle: transaction.interactionHandle))
            if login.resume != nil { scopeResumedAnswers(document) }
            do throws(IdFlowError) {
                if login.signUp && login.resume == nil { document = try await startSignUp(document) }
                while true {
                    transaction.follow(document)
                    report(document.messages)
                    if let success = document.successWithInteractionCode {
                        answers.spend(automatic)
                        if !answers.names.isEmpty {
                            context.console.line(
                                "warning: --answer \(answers.names.sorted().joined(separator: ", ")) was not used: no form of this sign-in asked for it"
                            )
                        }
                        let tokens = try await exchange(success, transaction)
                        return .tokens(SignInOutput(tokens: tokens, passwordWarning: passwordWarning, passwordChanged: newPasswordSent))
                    }
                    if endsWithSignInAgain(document) { return .signInAgain }
                    document = try await step(document, transaction)
                }
            } catch {
                // Ctrl-C ends a prompt as `.interrupted`, or cancels the run's task so that a wait or request fails.
                switch error {
                case .interrupted, .timedOut: await cancel(document)
                default: if Task.isCancelled { await cancel(document) }
                }
                throw error
            }
        }

        /// Takes one step from `document` and returns the server's next document.
        /// How a walk ends: signed in, or the transaction ended with the user to sign in again in a new one.
        enum Outcome {
            case tokens(SignInOutput)
            case signInAgain
        }

        private mutating func step(_ document: Document, _ transaction: Transaction) async throws(IdFlowError) -> Document {
            // What idflow filled in itself was for the document before.
            answers.spend(automatic)
            automatic = []
            choosePasswordFirst(document)
            try await answerAuthenticatorApp(document)
            try answerPasswordForms(document)
            choosePasskey(document)
            if let passkey = try await passkeyAnswer(document) { return try await sendPasskeyAnswer(passkey) }
            if let consent = try consentAnswer(document) { return try await sendConsent(consent, in: document) }
            skipGracePeriodEnrollment(document)
            try chooseOktaVerifyMethod(document)
            switch try stopsByName(nextStep(document), in: document) {
            case .send(let form, let filled):
                formsSent += 1
                guard formsSent <= EmbeddedLogin.maximumSteps else {
                    throw .protocolViolation("the Identity Engine did not finish the sign-in within \(EmbeddedLogin.maximumSteps) steps")
                }
                if form.name == wanted { wanted = nil }
                context.message("idx: \(form.name)")
                let next = try await proceed(form, body: filled.body)
                answers.spend(filled.used)
                if retriesRefusedCode(next, after: form, used: filled.used) { return next }
                // A refused new password is chosen again (at a prompt), or kept for `--resume` (a script).
                if Self.newPasswordForms.contains(form.name), next.offersAgain(form) { return next }
                if atTerminal, next.offersAgain(form), next.errors.first?.key == "errors.E0000004", let lastIdentifier,
                    let blocked = await RefusedSignIn.blockedAccount(lastIdentifier, context: context)
                {
                    // A locked or suspended account: asking for the password again could never succeed.
                    throw blocked
                }
                if atTerminal, next.offersAgain(form) {
                    // A wrong answer the server lets a person correct: say why, and the form is asked again.
                    for error in next.errors { context.console.line("error: \(error.message)") }
                    return next
                }
                // A wrong answer the server lets the person correct leaves its transaction alive: kept for `--resume`.
                keepsTransaction = next.letsCorrect(form)
                do throws(IdFlowError) {
                    try refuseErrors(next, after: form, resume: keepsTransaction ? transaction.id : nil)
                } catch {
                    throw await explainRefusal(error, next)
                }
                return next
            case .poll(let form):
                if form.name == wanted { wanted = nil }
                return try await waitAndPoll(form, in: document)
            case .redirect(let form):
                if form.name == wanted { wanted = nil }
                return try await signInElsewhere(form, transaction)
            case .ask(let forms):
                let stray = strayAnswers(in: document)
                if !stray.answers.isEmpty {
                    context.console.line("warning: \(strayAnswerError(stray.answers, fields: stray.fields, at: forms[0].name).message)")
                }
                let form = forms.count == 1 ? forms[0] : try prompter.choose(forms, in: document)
                answers = try prompter.fill(form, in: document, answers: answers)
                wanted = form.name
                return document
            case .stop(let pending):
                let stray = strayAnswers(in: document)
                if !stray.answers.isEmpty { throw strayAnswerError(stray.answers, fields: stray.fields, at: pending.remediation) }
                throw .idxPending(pending)
            }
        }

        /// `register --embedded` begins with the policy's sign-up form, and says so when there is none.
        private func startSignUp(_ document: Document) async throws(IdFlowError) -> Document {
            guard let form = document.remediations.first(where: { $0.name == EmbeddedLogin.signUpRemediation }) else {
                throw .rejected(
                    "the Identity Engine's policy offers no self-service sign-up for this app",
                    hint: "enable sign-up in the app's profile enrollment policy, or create the user with register --email")
            }
            context.message("idx: \(form.name)")
            let next = try await proceed(form, body: form.fill(answers, in: document).body)
            try refuseErrors(next, after: form)
            return next
        }

        /// The success form at the token endpoint with the PKCE verifier, then the ID token checks and the
        /// store every login shares.
        private func exchange(_ success: Remediation, _ transaction: Transaction) async throws(IdFlowError) -> TokenOutput {
            try requireSameOrigin(success.href)
            let verifier = transaction.codeVerifier
            let server = self.server
            return try await server.completeLogin(
                context, scope: transaction.scope, nonce: .mustEqual(transaction.nonce), store: login.store
            ) { () throws(IdFlowError) in
                try await server.http.send(InteractionCodeTokenRequest(form: success, client: server.client, verifier: verifier))
            }
        }

        /// Sends a filled form to its href, on the issuer's origin only.
        func proceed(_ form: Remediation, body: [String: JSONValue]) async throws(IdFlowError) -> Document {
            try requireSameOrigin(form.href)
            return try await send(ProceedRequest(form: form, body: body))
        }

        /// Ends the server's transaction when the run gives up; failing to is only noted. Sent from a task of its
        /// own: the run's task may be the one Ctrl-C cancelled.
        private func cancel(_ document: Document) async {
            guard let form = document.cancel, IDX.sameOrigin(form.href, server.issuer) else { return }
            let request = ProceedRequest(form: form, body: form.fill(AnswerSet(), in: document).body)
            let (http, context) = (server.http, self.context)
            await Task.detached {
                do throws(IdFlowError) {
                    _ = try await http.send(request)
                    context.message("idx: cancelled the sign-in on the server")
                } catch {
                    context.notice("idx: could not cancel the sign-in on the server (\(error.message)); it expires on its own")
                }
            }.value
        }

        func send<Request: APIRequest>(_ request: Request) async throws(IdFlowError) -> Request.Response {
            try await server.http.send(request)
        }

        func requireSameOrigin(_ url: URL) throws(IdFlowError) {
            guard IDX.sameOrigin(url, server.issuer) else {
                throw .security(
                    "the Identity Engine sent a form to \(url.host ?? "another host"), not to the issuer's host",
                    hint: "check --issuer; idflow only sends the transaction to the server that started it")
            }
        }

        private func report(_ messages: [Message]) {
            for message in messages where !message.isError { context.message("\(message.severity.lowercased()): \(message.message)") }
        }
    }
}

extension IDX.Document {
    /// Whether the server answered a form with errors and offers the same form again, so the answer can be
    /// corrected (idx.md §5.4).
    func offersAgain(_ form: IDX.Remediation) -> Bool {
        !errors.isEmpty && remediations.contains { $0.name == form.name }
    }

    /// Whether the refusal is of an answer only (a wrong code): the form offered again with the error on its
    /// fields, none at the top. A top-level error (too many tries, `authfactor.challenge.suspended_factor`; a refused
    /// sign-in, `errors.E0000004`) is the server ending or refusing the transaction itself.
    func letsCorrect(_ form: IDX.Remediation) -> Bool {
        offersAgain(form) && !messages.contains(where: \.isError)
    }
}
