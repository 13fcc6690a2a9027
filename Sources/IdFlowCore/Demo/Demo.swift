import Foundation
import IdFlowFoundation

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
    /// The server's protected resource; with it the demo calls the API with the refreshed access token.
    public var resourceURL: String?
    /// Where the Identity Engine sign-in keeps the authenticator app's seed it enrolls, when the server's policy
    /// offers Google Authenticator; a later step signs in with codes computed from it, nobody at a phone.
    public var authenticatorAppSeed: TOTPSeedFile?
    /// The file of the PIN that seals the passkey the demo enrolls at the org's passkey promotion, when the server's
    /// policy offers one: sealed, the passkey verifies the user, so a step signs in with it alone (no username, no
    /// password). A file, as a user would give it (`--passkey-pin-file`), never an argument.
    public var passkeyPINFile: URL?

    public init(
        email: String = "demo.user@example.com", password: Secret = Secret("Demo-Passw0rd!"),
        customRegistrationClient: ClientCredentials? = nil, resourceURL: String? = nil
    ) {
        self.email = email
        self.password = password
        self.customRegistrationClient = customRegistrationClient
        self.resourceURL = resourceURL
    }

    /// Runs every step, calling `emit` after each; stops at the first failure. Returns whether all passed.
    public func run(_ context: IdFlowContext, emit: @Sendable (Step) -> Void) async -> Bool {
        var run = Run(demo: self, context: context)
        for (name, body) in Run.steps(
            callingTheAPI: resourceURL != nil, usingAnAuthenticatorApp: authenticatorAppSeed != nil,
            usingAPasskey: authenticatorAppSeed != nil && passkeyPINFile != nil,
            registeringThroughAnIdentityProvider: customRegistrationClient != nil)
        {
            do {
                let (result, headline) = try await body(&run)
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
        /// The PEM file of the CA to trust besides the system's (`idflow demo --tls`: the sandbox's generated CA).
        public var caFile: String?
        /// The protected resource the demo calls with the login's access token, when the server has one.
        public var resourceURL: String?
        /// Whether the server's Identity Engine policy offers Google Authenticator (the embedded sandbox's does).
        public var offersAuthenticatorApp: Bool
        /// Whether its policy offers passkeys, with the promotion after a sign-in (the embedded sandbox's does).
        public var offersPasskeys: Bool

        public init(
            orgURL: String, issuer: String, apiToken: String, clientID: String, redirectURI: String,
            customRegistrationClient: ClientCredentials? = nil, caFile: String? = nil, resourceURL: String? = nil,
            offersAuthenticatorApp: Bool = false, offersPasskeys: Bool = false
        ) {
            self.offersAuthenticatorApp = offersAuthenticatorApp
            self.offersPasskeys = offersPasskeys
            self.orgURL = orgURL
            self.issuer = issuer
            self.apiToken = apiToken
            self.clientID = clientID
            self.redirectURI = redirectURI
            self.customRegistrationClient = customRegistrationClient
            self.caFile = caFile
            self.resourceURL = resourceURL
        }
    }

    /// `idflow demo`: runs every step against `server` with a throwaway state directory, one JSON document per
    /// step on stdout and a headline per step on stderr. Returns nil when every step passed, else the failed
    /// step's exit code. Leaves nothing behind.
    public func run(against server: Server, verbose: Bool, console: Console) async -> Int32? {
        let stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "idflow-demo-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        var configuration = Configuration(
            orgURL: URL(string: server.orgURL), apiToken: Secret(server.apiToken), issuer: URL(string: server.issuer),
            clientID: server.clientID, redirectURI: server.redirectURI,
            // The manage scope lets the same login enroll this machine as a push authenticator.
            scope: Configuration.defaultScope + " okta.myAccount.appAuthenticator.manage", stateDirectory: stateDirectory,
            verbose: verbose, maxRetries: 1)
        if let caFile = server.caFile { configuration.transportOptions.caFile = caFile }
        var context = IdFlowContext.live(configuration: configuration, console: console)
        context.message = { _ in }  // the demo prints its own headline per step
        console.line("idflow demo: sandbox at \(server.orgURL)")
        let failure = Locked<Int32?>(nil)
        var demo = self
        demo.customRegistrationClient = server.customRegistrationClient ?? customRegistrationClient
        demo.resourceURL = server.resourceURL ?? resourceURL
        if server.offersAuthenticatorApp {
            try? FileManager.default.createDirectory(
                at: stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            demo.authenticatorAppSeed = TOTPSeedFile(stateDirectory.appendingPathComponent("google-authenticator.totp"))
        }
        if server.offersPasskeys {
            try? FileManager.default.createDirectory(
                at: stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let pinFile = stateDirectory.appendingPathComponent("passkey.pin")
            if (try? SecureFile.write(Data(UUID().uuidString.utf8), to: pinFile)) != nil { demo.passkeyPINFile = pinFile }
        }
        let passed = await demo.run(context) { step in
            if let data = try? JSONOutput.encode(step, style: .compact) { console.standardOutput(data) }
            console.line("\(step.ok ? "✔" : "✘") \(step.step): \(step.headline)")
            if let code = step.error?.exitCode { failure.withLock { $0 = code } }
        }
        return passed ? nil : (failure.current ?? 1)
    }

    static func expect(_ condition: Bool, _ message: String) throws(IdFlowError) {
        if !condition { throw .protocolViolation(message) }
    }

    static func json(_ value: some Encodable) throws(IdFlowError) -> JSONValue {
        do {
            return try JSONValue(data: JSONOutput.encode(value, style: .compact))
        } catch {
            throw .internalFailure("cannot encode a demo step: \(error)")
        }
    }
}
