import Foundation
import IdFlowFoundation

/// `register --idp`: registers a user through a custom identity provider of the Token Server, as the mobile
/// SDK does (custom-registration.md §5): init (two-step identity providers only) → complete, each step's
/// answer judged by its status range; the complete step itself issues the tokens, which are validated like
/// `login-pkce`'s and saved for the profile.
public struct RegisterWithIdentityProvider: Sendable {
    public var identityProvider: String
    /// `--init-data`: its presence makes the registration two-step.
    public var initData: RegistrationData?
    /// `--data` / `--data-stdin`: the complete step's data; read only once init has answered.
    public var data: RegistrationData?
    /// `--transaction-id`: continue a registration a recoverable status stopped.
    public var transactionID: String?
    /// `--token-server`; else the configured one, else the org.
    public var tokenServer: URL?
    /// `--client-secret-file`; else the configured source.
    public var clientSecret: Secret?

    public init(
        identityProvider: String, initData: RegistrationData? = nil, data: RegistrationData? = nil, transactionID: String? = nil,
        tokenServer: URL? = nil, clientSecret: Secret? = nil
    ) {
        self.identityProvider = identityProvider
        self.initData = initData
        self.data = data
        self.transactionID = transactionID
        self.tokenServer = tokenServer
        self.clientSecret = clientSecret
    }

    /// What `register --idp` prints on success.
    public struct Output: Encodable, Sendable {
        public var status: Int
        public var identityProvider: String
        @NullWhenAbsent public var data: JSONValue?
        public var tokens: TokenOutput
        public var profileId: String
    }

    /// The registration in progress: the transaction once the server named one, and the profile id.
    private struct Progress {
        var transactionID: String?
        var profileID: String
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> Output {
        try TokenServerEndpoint.checkIdentifier(identityProvider)
        let transactions = RegistrationTransactions(stateDirectory: context.configuration.stateDirectory)
        var progress: Progress
        if let transactionID {
            let kept = try transactions.kept(
                transactionID, of: identityProvider,
                hint:
                    "it ended (success, failure, --cancel) or was started elsewhere; start again: idflow register --idp \(ShellWord.quote(identityProvider)) …"
            )
            progress = Progress(transactionID: transactionID, profileID: kept.profileId)
        } else {
            progress = Progress(transactionID: nil, profileID: Self.newProfileID())
        }
        let endpoint = try self.endpoint(context)
        // Everything that can fail without the server happens before a step is spent: the keys the ID token
        // will be checked against are fetched first, and the store's room for the tokens taken, as `refresh` does.
        let server = try await AuthorizationServer.discover(
            context, clientID: endpoint.client.clientID, clientSecret: endpoint.client.secret)
        let scope = context.configuration.scope
        try await server.prepareToValidate(scope: scope)
        let reservation = try TokenStore(directory: context.configuration.profileDirectory).reserve()
        let session = Session(flow: self, context: context, endpoint: endpoint, transactions: transactions)

        do throws(IdFlowError) {
            if transactionID == nil, let firstInit = try session.firstInitData() {
                progress.transactionID = try await session.initialize(firstInit, profileID: progress.profileID)
            }
            let answer = try await session.complete(&progress, scopes: scope.split(separator: " ").map(String.init))
            guard var tokens = answer.tokens else {
                throw IdFlowError.protocolViolation("\(identityProvider) answered \(answer.status) at the complete step without tokens")
            }
            // The answer carries no scope (§3.3); what was asked for is what `refresh` keeps asking for.
            if tokens.scope == nil { tokens.scope = scope }
            let output = try await server.acceptLogin(
                tokens, nonce: .notInThisGrant(.customRegistration), requestedScope: scope, storingInto: reservation, context)
            context.message(
                "registered\(output.idTokenClaims?["sub"]?.stringValue.map { " \($0)" } ?? "") through \(identityProvider); tokens saved for profile \(context.configuration.profile)"
            )
            return Output(
                status: answer.status, identityProvider: identityProvider, data: answer.data, tokens: output, profileId: progress.profileID)
        } catch {
            if let kept = progress.transactionID, Self.endsTransaction(error) { try? transactions.remove(kept) }
            throw error
        }
    }

    /// Whether the registration's transaction cannot be continued after `error`: a failure status, a server that
    /// no longer knows it, Ctrl-C. A retry status or a network failure leaves it for `--transaction-id`.
    static func endsTransaction(_ error: IdFlowError) -> Bool {
        if let stop = error.stop(as: CustomRegistrationStop.self) { return !stop.recoverable }
        switch error {
        case .interrupted: return true
        case .oauth(_, let body, _): return body.error == "invalid_transaction"
        default: return false
        }
    }

    private func endpoint(_ context: IdFlowContext) throws(IdFlowError) -> TokenServerEndpoint {
        let base: URL
        if let configured = tokenServer ?? context.configuration.tokenServer {
            base = configured
        } else {
            base = try context.configuration.requireOrgURL()
        }
        try TransportSecurity.check(base)
        let configured = try context.clientSecret(file: nil)
        guard let secret = clientSecret ?? configured else {
            throw .configuration(
                "custom registration needs the client secret of the registering client",
                hint: "pass --client-secret-file PATH, export IDFLOW_CLIENT_SECRET_FILE, or set clientSecretFile in the profile")
        }
        return TokenServerEndpoint(
            tokenServer: base, identityProvider: identityProvider,
            client: ClientCredentials(clientID: try context.configuration.requireClientID(), secret: secret))
    }

    /// A profile id as the SDK makes one: 6 characters of A–Z and 0–9.
    static func newProfileID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<6).map { _ in alphabet.randomElement(using: &generator)! })
    }

    /// One run's steps: asking for data (flags, stdin, or a person at the terminal), sending, and judging answers.
    private struct Session {
        let flow: RegisterWithIdentityProvider
        let context: IdFlowContext
        let endpoint: TokenServerEndpoint
        let transactions: RegistrationTransactions

        var idp: String { flow.identityProvider }
        var atTerminal: Bool { context.console.isInteractive }

        /// The init data when the registration is two-step: `--init-data`, or at a terminal the first answer
        /// (an empty one means the identity provider is one-step); nil for a one-step registration.
        func firstInitData() throws(IdFlowError) -> String? {
            if let initData = flow.initData { return try initData.read("init data", context.secrets) }
            guard atTerminal, flow.data == nil else { return nil }
            return try ask("Init data for \(idp) (leave empty if \(idp) is a one-step identity provider): ")
        }

        /// The init step, asked again at a terminal after a recoverable status; returns the transaction.
        func initialize(_ first: String, profileID: String) async throws(IdFlowError) -> String {
            var data: String? = first
            while true {
                let answer = try await context.http.send(CustomRegistrationInitRequest(endpoint: endpoint, data: data))
                show(answer, step: .initialize)
                switch answer.range {
                case .success:
                    guard let transactionID = answer.transactionID, !transactionID.isEmpty else {
                        throw .protocolViolation("\(idp) answered \(answer.status) to init without a transaction_id")
                    }
                    try keep(transactionID, profileID: profileID)
                    return transactionID
                case .retry:
                    let stop = self.stop(answer, .initialize, transactionID: nil)
                    guard atTerminal, let again = try ask("Init data for \(idp), again: ") else { throw .customRegistration(stop) }
                    data = again
                case .restart:
                    throw .customRegistration(self.stop(answer, .initialize, transactionID: nil))
                }
            }
        }

        /// The complete step, asked again at a terminal after a recoverable status (same transaction).
        func complete(_ progress: inout Progress, scopes: [String]) async throws(IdFlowError) -> CustomRegistrationAnswer {
            var data = try firstCompleteData()
            while true {
                let request = CustomRegistrationCompleteRequest(
                    endpoint: endpoint, transactionID: progress.transactionID, data: data, scopes: scopes, profileID: progress.profileID)
                let answer = try await context.http.send(request)
                show(answer, step: .complete)
                switch answer.range {
                case .success:
                    if let kept = progress.transactionID { try transactions.remove(kept) }
                    return answer
                case .retry:
                    if let named = answer.transactionID, !named.isEmpty, named != progress.transactionID {
                        if let previous = progress.transactionID { try transactions.remove(previous) }
                        progress.transactionID = named
                    }
                    if let kept = progress.transactionID { try keep(kept, profileID: progress.profileID) }
                    let stop = self.stop(answer, .complete, transactionID: progress.transactionID)
                    guard atTerminal, let again = try ask("Data for \(idp), again: ") else { throw .customRegistration(stop) }
                    data = again
                case .restart:
                    throw .customRegistration(self.stop(answer, .complete, transactionID: nil))
                }
            }
        }

        /// `--data`/`--data-stdin` (read now, after init), else at a terminal a prompt, else no data at all.
        private func firstCompleteData() throws(IdFlowError) -> String? {
            if let data = flow.data { return try data.read("data", context.secrets) }
            guard atTerminal else { return nil }
            return try ask("Data for \(idp): ")
        }

        private func keep(_ transactionID: String, profileID: String) throws(IdFlowError) {
            try transactions.save(
                RegistrationTransaction(
                    tokenServer: endpoint.tokenServer.absoluteString, clientId: endpoint.client.clientID, identityProvider: idp,
                    step: .complete, profileId: profileID, savedAt: context.now()),
                as: transactionID)
        }

        /// Asks at the terminal without echo (the data may be a code); nil for an empty answer.
        private func ask(_ prompt: String) throws(IdFlowError) -> String? {
            let answer = try PromptInterruption.run { context.console.promptSecret(prompt) }
            return answer.flatMap { $0.isEmpty ? nil : $0 }
        }

        private func show(_ answer: CustomRegistrationAnswer, step: RegistrationStep) {
            let said = answer.data.map { ": \(CustomRegistrationStop.describe($0))" } ?? ""
            context.message("\(idp) \(step.rawValue): \(answer.status)\(said)")
        }

        private func stop(_ answer: CustomRegistrationAnswer, _ step: RegistrationStep, transactionID: String?) -> CustomRegistrationStop {
            CustomRegistrationStop(
                status: answer.status, step: step, transactionId: transactionID, identityProvider: idp, data: answer.data,
                recoverable: answer.range == .retry)
        }
    }
}

/// `register --idp IDP --transaction-id TX --cancel`: forgets a kept registration (no server call: the
/// protocol has none; the server's transaction expires on its own).
public struct CancelRegistration: Sendable {
    public var identityProvider: String
    public var transactionID: String

    public init(identityProvider: String, transactionID: String) {
        self.identityProvider = identityProvider
        self.transactionID = transactionID
    }

    public struct Output: Encodable, Sendable, Equatable {
        public var cancelled: Bool
        public var identityProvider: String
        public var transactionId: String
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> Output {
        let transactions = RegistrationTransactions(stateDirectory: context.configuration.stateDirectory)
        _ = try transactions.kept(transactionID, of: identityProvider, hint: "nothing to cancel")
        try transactions.remove(transactionID)
        context.message(
            "cancelled registration \(transactionID) with \(identityProvider); its transaction on the server expires on its own")
        return Output(cancelled: true, identityProvider: identityProvider, transactionId: transactionID)
    }
}
