import Foundation

/// The whole life of a user against a fresh server, one step after another: what `idflow demo` runs on the
/// embedded sandbox. Each step is the same flow the matching command runs; the demo only chains them and
/// checks that each did what it should.
public struct Demo: Sendable {
    /// One step's record: printed as one JSON document on stdout.
    public struct Step: Encodable, Sendable {
        public var step: String
        public var ok: Bool
        public var headline: String
        public var result: JSONValue?
        public var error: ErrorReport.Details?
    }

    public var email: String
    public var password: Secret
    /// The server's custom-registration client; with it the demo ends by registering a second user through the
    /// one-step identity provider `invite-code` (its tokens go to the profile `custom-registration`).
    public var customRegistrationClient: ClientCredentials?

    public init(
        email: String = "demo.user@example.com", password: Secret = Secret("Demo-Passw0rd!"),
        customRegistrationClient: ClientCredentials? = nil
    ) {
        self.email = email
        self.password = password
        self.customRegistrationClient = customRegistrationClient
    }

    /// Runs every step, calling `emit` after each; stops at the first failure. Returns whether all passed.
    public func run(_ context: IdFlowContext, emit: @Sendable (Step) -> Void) async -> Bool {
        var sessionToken: Secret?
        var activationToken: ActivationToken?
        var userID = ""
        var firstLogin: TokenOutput?
        var pushSignIn: Task<TokenOutput, any Error>?
        var pushTransaction = ""

        var steps: [(String, () async throws(IdFlowError) -> (JSONValue, String))] = [
            (
                "register",
                { () throws(IdFlowError) in
                    let user = try await RegisterUser(email: email, firstName: "Demo", lastName: "User").run(context)
                    userID = user["id"]?.stringValue ?? ""
                    try Self.expect(user["status"] == "STAGED", "the new user is \(user["status"]?.stringValue ?? "?"), not STAGED")
                    return (user, "registered \(email) as \(userID) (STAGED)")
                }
            ),
            (
                "activate",
                { () throws(IdFlowError) in
                    let result = try await ActivateUser(user: userID).run(context)
                    try Self.expect(result.status == "PROVISIONED", "the user is \(result.status) after activation, not PROVISIONED")
                    activationToken = try ActivationToken(result.activationToken ?? "")
                    return (try Self.json(result), "activated \(userID) (PROVISIONED), activation token issued")
                }
            ),
            (
                "set-password",
                { () throws(IdFlowError) in
                    guard let token = activationToken else { throw .internalFailure("no activation token") }
                    let result = try await SetPassword(token: token, password: password).run(context)
                    sessionToken = Secret(result.sessionToken)
                    return (try Self.json(result), "password set, user ACTIVE, single-use session token issued")
                }
            ),
            (
                "login-pkce",
                { () throws(IdFlowError) in
                    guard let token = sessionToken else { throw .internalFailure("no session token") }
                    let output = try await LoginPKCE(method: .sessionToken(token)).run(context)
                    try Self.expect(output.response.refreshToken != nil, "no refresh token was issued")
                    try Self.expect(output.idTokenClaims?["sub"] == .string(userID), "the ID token is not for \(userID)")
                    firstLogin = output
                    return (try Self.json(output), "authorization code + PKCE exchanged; ID token validated for \(userID)")
                }
            ),
            (
                "refresh",
                { () throws(IdFlowError) in
                    let output = try await RefreshTokens().run(context)
                    try Self.expect(
                        output.response.accessToken != firstLogin?.response.accessToken, "refresh returned the same access token")
                    let rotated = output.response.refreshToken != firstLogin?.response.refreshToken
                    return (try Self.json(output), "access token refreshed; refresh token \(rotated ? "rotated and saved" : "kept")")
                }
            ),
            (
                "login-embedded",
                { () throws(IdFlowError) in
                    let answers = IDX.AnswerSet(["identifier": email, "credentials.passcode": password.value])
                    let output = try await EmbeddedLogin(answers: answers, store: false).run(context)
                    try Self.expect(output.idTokenClaims?["sub"] == .string(userID), "the embedded sign-in is not for \(userID)")
                    return (
                        try Self.json(output),
                        "signed in through the Identity Engine's forms (identify, password, interaction code); ID token validated"
                    )
                }
            ),
            (
                "enroll",
                { () throws(IdFlowError) in
                    let enrollment = try await EnrollDevice(name: "idflow-demo").run(context)
                    return (try Self.json(enrollment), "this machine is \(email)'s push authenticator (\(enrollment.enrollmentId))")
                }
            ),
            (
                "push-sign-in",
                { () throws(IdFlowError) in
                    // The sign-in waits for the push while the next steps answer it, as two terminals would.
                    let password = password
                    pushSignIn = Task {
                        try await LoginPKCE(
                            method: .credentials(username: email, password: password), store: false,
                            mfa: PushMFA(context: context, timeout: .seconds(60), pollInterval: .milliseconds(250))
                        ).run(context)
                    }
                    return (["username": .string(email), "mfa": "push"], "signed in with the password; waiting for the push")
                }
            ),
            (
                "challenges",
                { () throws(IdFlowError) in
                    let listed = try await ListChallenges(wait: .seconds(30), pollInterval: .milliseconds(250)).run(context)
                    guard let challenge = listed.challenges.first else { throw .timedOut("no push challenge arrived") }
                    pushTransaction = challenge.transactionId
                    return (
                        try Self.json(listed), "push challenge \(challenge.transactionId) pending (\(challenge.transactionType))"
                    )
                }
            ),
            (
                "resolve",
                { () throws(IdFlowError) in
                    let answer = try await ResolveChallenge(target: .transaction(pushTransaction), approve: true).run(context)
                    let login: TokenOutput
                    do {
                        login = try await pushSignIn?.value ?? { throw IdFlowError.internalFailure("no push sign-in") }()
                    } catch let error as IdFlowError {
                        throw error
                    } catch {
                        throw .internalFailure("the push sign-in failed: \(error)")
                    }
                    try Self.expect(login.idTokenClaims?["sub"] == .string(userID), "the push sign-in is not for \(userID)")
                    return (
                        try Self.json(answer),
                        "push approved (\(answer.keyType)); the waiting sign-in got its tokens"
                    )
                }
            ),
        ]
        if let client = customRegistrationClient {
            steps.append(
                (
                    "register-idp",
                    { () throws(IdFlowError) in
                        var registering = context
                        registering.configuration.clientID = client.clientID
                        registering.configuration.profile = "custom-registration"
                        let output = try await RegisterWithIdentityProvider(
                            identityProvider: "invite-code", data: .text("K7Q2"), clientSecret: client.secret
                        ).run(registering)
                        try Self.expect(output.status == 2000, "invite-code answered \(output.status), not 2000")
                        let subject = output.tokens.idTokenClaims?["sub"]?.stringValue ?? "?"
                        return (
                            try Self.json(output),
                            "registered \(subject) through the one-step identity provider invite-code; ID token validated"
                        )
                    }
                ))
        }

        for (name, body) in steps {
            do {
                let (result, headline) = try await body()
                emit(Step(step: name, ok: true, headline: headline, result: result, error: nil))
            } catch {
                emit(Step(step: name, ok: false, headline: error.message, result: nil, error: ErrorReport(error).error))
                return false
            }
        }
        return true
    }

    /// The server the demo runs against, as `idflow sandbox` describes itself.
    public struct Server: Sendable {
        public var orgURL: String
        public var issuer: String
        public var apiToken: String
        public var clientID: String
        public var redirectURI: String
        /// The client that registers users through custom identity providers, when the server has one.
        public var customRegistrationClient: ClientCredentials?

        public init(
            orgURL: String, issuer: String, apiToken: String, clientID: String, redirectURI: String,
            customRegistrationClient: ClientCredentials? = nil
        ) {
            self.orgURL = orgURL
            self.issuer = issuer
            self.apiToken = apiToken
            self.clientID = clientID
            self.redirectURI = redirectURI
            self.customRegistrationClient = customRegistrationClient
        }
    }

    /// `idflow demo`: runs every step against `server` with a throwaway state directory, one JSON document per
    /// step on stdout and a headline per step on stderr. Returns nil when every step passed, else the failed
    /// step's exit code. Leaves nothing behind.
    public func run(against server: Server, verbose: Bool, console: Console) async -> Int32? {
        let stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "idflow-demo-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let configuration = Configuration(
            orgURL: URL(string: server.orgURL), apiToken: Secret(server.apiToken), issuer: URL(string: server.issuer),
            clientID: server.clientID, redirectURI: server.redirectURI,
            // The manage scope lets the same login enroll this machine as a push authenticator.
            scope: Configuration.defaultScope + " okta.myAccount.appAuthenticator.manage", stateDirectory: stateDirectory,
            verbose: verbose, maxRetries: 1)
        var context = IdFlowContext.live(configuration: configuration, console: console)
        context.message = { _ in }  // the demo prints its own headline per step
        console.line("idflow demo: sandbox at \(server.orgURL)")
        let failure = Locked<Int32?>(nil)
        var demo = self
        demo.customRegistrationClient = server.customRegistrationClient ?? customRegistrationClient
        let passed = await demo.run(context) { step in
            if let data = try? JSONOutput.encode(step, style: .compact) { console.standardOutput(data) }
            console.line("\(step.ok ? "✔" : "✘") \(step.step): \(step.headline)")
            if let code = step.error?.exitCode { failure.withLock { $0 = code } }
        }
        return passed ? nil : (failure.current ?? 1)
    }

    private static func expect(_ condition: Bool, _ message: String) throws(IdFlowError) {
        if !condition { throw .protocolViolation(message) }
    }

    private static func json(_ value: some Encodable) throws(IdFlowError) -> JSONValue {
        do {
            return try JSONValue(data: JSONOutput.encode(value, style: .compact))
        } catch {
            throw .internalFailure("cannot encode a demo step: \(error)")
        }
    }
}
