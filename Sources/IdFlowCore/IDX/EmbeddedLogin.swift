import Foundation

extension IDX {
    /// What a script gets on stdout (exit 3) when a form needs an answer it did not give.
    public struct PendingForm: Sendable, Equatable, Encodable {
        /// The transaction `--resume` continues.
        public var transaction: String?
        public var remediation: String
        public var fields: [PendingField]
        public var messages: [Message]

        enum CodingKeys: String, CodingKey { case transaction, remediation, fields, messages }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(transaction, forKey: .transaction)
            try container.encode(remediation, forKey: .remediation)
            try container.encode(fields, forKey: .fields)
            try container.encode(messages, forKey: .messages)
        }

        var message: String {
            let names = fields.filter(\.required).map(\.name)
            let what = names.isEmpty ? "" : " (\(names.joined(separator: ", ")))"
            return "the sign-in needs answers for \(remediation)\(what) that were not given"
        }
    }
}

/// Signs in without a browser through the Identity Engine (idx.md §10): interact with PKCE S256, state and
/// nonce; introspect; then one generic loop that picks a remediation, fills its form from the answers and
/// sends it, until the server hands out an interaction code, which is exchanged for tokens and validated
/// like every other login.
public struct EmbeddedLogin: Sendable {
    public var answers: IDX.AnswerSet
    /// Take the remediation of this name whenever it is offered, instead of the first the answers cover.
    public var remediation: String?
    public var clientSecret: Secret?
    public var store: Bool
    /// Sign up instead of in (`register --embedded`): the first step must be `select-enroll-profile`.
    public var signUp: Bool
    /// Continue the transaction a stopped run kept (`--resume TX`) instead of starting one.
    public var resume: String?
    /// A loop that does not reach an interaction code within this many steps is a server fault.
    static let maximumSteps = 30
    static let signUpRemediation = "select-enroll-profile"

    public init(
        answers: IDX.AnswerSet, remediation: String? = nil, clientSecret: Secret? = nil, store: Bool = true, signUp: Bool = false,
        resume: String? = nil
    ) {
        self.resume = resume
        self.answers = answers
        self.remediation = remediation
        self.clientSecret = clientSecret
        self.store = store
        self.signUp = signUp
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> TokenOutput {
        let server = try await AuthorizationServer.discover(context, clientSecret: clientSecret)
        let kept = IDX.Transactions(stateDirectory: context.configuration.stateDirectory)
        var transaction: IDX.Transaction
        if let resume {
            transaction = try kept.kept(resume, issuer: server.issuer, clientID: server.client.clientID)
        } else {
            transaction = try await interact(server, context)
        }
        do throws(IdFlowError) {
            let output = try await walk(&transaction, server, context)
            // A file left behind is refused by the server later as an expired session.
            if resume != nil { try? kept.remove(transaction.id) }
            return output
        } catch {
            guard case .idxPending(var pending) = error else {
                if resume != nil { try? kept.remove(transaction.id) }
                throw error
            }
            try kept.save(transaction)
            pending.transaction = transaction.id
            throw .idxPending(pending)
        }
    }

    /// `/v1/interact` with a fresh PKCE pair, state and nonce: the transaction a stopped run keeps.
    private func interact(_ server: AuthorizationServer, _ context: IdFlowContext) async throws(IdFlowError) -> IDX.Transaction {
        let redirectURI = try context.configuration.requireRedirectURI()
        let scope = context.configuration.scope
        let pkce = PKCEPair.generate()
        let state = RandomValue.base64URL(bytes: 24)
        let nonce = RandomValue.base64URL(bytes: 24)
        let handle = try await server.http.send(
            IDX.InteractRequest(
                url: IDX.interactURL(issuer: server.issuer), client: server.client, redirectURI: redirectURI, scope: scope, pkce: pkce,
                state: state, nonce: nonce))
        return IDX.Transaction(
            id: RandomValue.base64URL(bytes: 12), issuer: server.issuer.absoluteString, clientID: server.client.clientID,
            interactionHandle: handle, stateHandle: nil, codeVerifier: pkce.verifier, state: state, nonce: nonce, scope: scope)
    }

    /// Introspect (where a kept transaction stands, too), then the loop (idx.md §10) until the interaction
    /// code has been exchanged; `transaction` follows the state handle.
    private func walk(
        _ transaction: inout IDX.Transaction, _ server: AuthorizationServer, _ context: IdFlowContext
    ) async throws(IdFlowError) -> TokenOutput {
        var document = try await server.http.send(
            IDX.IntrospectRequest(url: IDX.introspectURL(issuer: server.issuer), interactionHandle: transaction.interactionHandle))
        transaction.stateHandle = document.stateHandle ?? transaction.stateHandle
        var answers = self.answers
        if signUp {
            guard let form = document.remediations.first(where: { $0.name == Self.signUpRemediation }) else {
                throw .rejected(
                    "the Identity Engine's policy offers no self-service sign-up for this app",
                    hint: "enable sign-up in the app's profile enrollment policy, or create the user with register --email")
            }
            try requireSameOrigin(form.href, server)
            context.message("idx: \(form.name)")
            document = try await server.http.send(IDX.ProceedRequest(form: form, body: form.fill(answers, in: document).body))
            try refuseErrors(document, after: form)
        }
        for _ in 0..<Self.maximumSteps {
            report(document.messages, context)
            transaction.stateHandle = document.stateHandle ?? transaction.stateHandle
            if let success = document.successWithInteractionCode {
                try requireSameOrigin(success.href, server)
                let verifier = transaction.codeVerifier
                return try await server.completeLogin(
                    context, scope: transaction.scope, nonce: .mustEqual(transaction.nonce), store: store
                ) { () throws(IdFlowError) in
                    try await server.http.send(IDX.InteractionCodeTokenRequest(form: success, client: server.client, verifier: verifier))
                }
            }
            let (form, filled) = try pick(document, answers)
            try requireSameOrigin(form.href, server)
            context.message("idx: \(form.name)")
            let next = try await server.http.send(IDX.ProceedRequest(form: form, body: filled.body))
            try refuseErrors(next, after: form)
            answers.spend(filled.used)
            document = next
        }
        throw .protocolViolation("the Identity Engine did not finish the sign-in within \(Self.maximumSteps) steps")
    }

    /// The remediation to take (idx.md §10): the one named by `--remediation`; else the first whose required
    /// fields the answers cover and that takes some input; else the pending form for the script (exit 3).
    func pick(_ document: IDX.Document, _ answers: IDX.AnswerSet) throws(IdFlowError) -> (IDX.Remediation, IDX.FilledForm) {
        let offered = document.remediations.filter { $0.method.uppercased() == "POST" }
        guard !document.remediations.isEmpty else {
            let first = document.messages.first
            let expired = first?.key == "idx.session.expired"
            throw .authentication(
                first?.message ?? "the Identity Engine offered nothing to do next",
                hint: expired ? "the sign-in expired; start it again" : "start the sign-in again")
        }
        if let wanted = remediation {
            guard let form = document.remediations.first(where: { $0.name == wanted }) else {
                throw .rejected(
                    "the Identity Engine does not offer \(wanted) at this step",
                    hint: "offered: \(document.remediations.map(\.name).joined(separator: ", "))")
            }
            let filled = form.fill(answers, in: document)
            guard filled.isComplete else { throw .idxPending(pending(form, filled, document)) }
            return (form, filled)
        }
        for form in offered {
            let filled = form.fill(answers, in: document)
            if filled.isComplete && filled.tookInput { return (form, filled) }
        }
        guard let first = offered.first else {
            throw .rejected(
                "the Identity Engine only offers steps idflow cannot take without a browser: "
                    + document.remediations.map(\.name).joined(separator: ", "), hint: "sign in with --browser")
        }
        throw .idxPending(pending(first, first.fill(answers, in: document), document))
    }

    private func pending(_ form: IDX.Remediation, _ filled: IDX.FilledForm, _ document: IDX.Document) -> IDX.PendingForm {
        IDX.PendingForm(transaction: nil, remediation: form.name, fields: filled.inputs, messages: document.messages)
    }

    /// A form the server sent back with an ERROR (idx.md §5.4): bad credentials exit 4, anything else
    /// (validation) exit 3, with the server's own words.
    private func refuseErrors(_ document: IDX.Document, after form: IDX.Remediation) throws(IdFlowError) {
        guard let error = document.errors.first else { return }
        let credentials: Set<String> = ["errors.E0000004", "api.authn.error.PASSCODE_INVALID", "incorrectPassword"]
        let hint = "correct the answers for \(form.name) and run again"
        if let key = error.key, credentials.contains(key) { throw .authentication(error.message, hint: hint) }
        if document.remediations.isEmpty { throw .authentication(error.message, hint: "start the sign-in again") }
        throw .rejected(error.message, hint: hint)
    }

    private func requireSameOrigin(_ url: URL, _ server: AuthorizationServer) throws(IdFlowError) {
        guard IDX.sameOrigin(url, server.issuer) else {
            throw .security(
                "the Identity Engine sent a form to \(url.host ?? "another host"), not to the issuer's host",
                hint: "check --issuer; idflow only sends the transaction to the server that started it")
        }
    }

    private func report(_ messages: [IDX.Message], _ context: IdFlowContext) {
        for message in messages where !message.isError { context.message("\(message.severity.lowercased()): \(message.message)") }
    }
}
