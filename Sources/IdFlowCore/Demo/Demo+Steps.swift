import Foundation
import IdFlowFoundation

extension Demo {
    /// One run of the demo: each step is a method, and what one step hands the next (the user, its tokens,
    /// the sign-in that waits for the push) is kept here rather than in variables the steps' closures share.
    struct Run {
        /// A step: its JSON result and the headline shown on stderr.
        typealias Body = (inout Run) async throws(IdFlowError) -> (JSONValue, String)

        let demo: Demo
        let context: IdFlowContext
        var userID = ""
        var activationToken: ActivationToken?
        var sessionToken: Secret?
        var firstLogin: TokenOutput?
        var pushSignIn: Task<TokenOutput, any Error>?
        var pushTransaction = ""

        /// The steps in order; the last registers a second user through an identity provider when the server has
        /// a custom-registration client.
        static func steps(
            callingTheAPI: Bool = false, usingAnAuthenticatorApp: Bool = false, usingAPasskey: Bool = false,
            registeringThroughAnIdentityProvider: Bool
        ) -> [(String, Body)] {
            var steps: [(String, Body)] = [
                ("register", { (run: inout Run) throws(IdFlowError) in try await run.register() }),
                ("activate", { (run: inout Run) throws(IdFlowError) in try await run.activate() }),
                ("set-password", { (run: inout Run) throws(IdFlowError) in try await run.setPassword() }),
                ("login-pkce", { (run: inout Run) throws(IdFlowError) in try await run.loginPKCE() }),
                ("refresh", { (run: inout Run) throws(IdFlowError) in try await run.refresh() }),
                ("login-embedded", { (run: inout Run) throws(IdFlowError) in try await run.loginEmbedded() }),
                ("enroll", { (run: inout Run) throws(IdFlowError) in try await run.enroll() }),
                ("push-sign-in", { (run: inout Run) throws(IdFlowError) in try await run.startPushSignIn() }),
                ("challenges", { (run: inout Run) throws(IdFlowError) in try await run.challenges() }),
                ("resolve", { (run: inout Run) throws(IdFlowError) in try await run.resolve() }),
                ("login-direct", { (run: inout Run) throws(IdFlowError) in try await run.loginDirect() }),
            ]
            if callingTheAPI {
                // Right after the refresh: the app calls its API with the access token it holds now.
                steps.insert(("api", { (run: inout Run) throws(IdFlowError) in try await run.callAPI() }), at: 5)
            }
            if usingAnAuthenticatorApp {
                // Last of the sign-ins: the push steps have let time pass since the enrollment's code.
                steps.append(("login-totp", { (run: inout Run) throws(IdFlowError) in try await run.loginWithAuthenticatorApp() }))
            }
            if usingAPasskey {
                // After login-totp, whose sign-in enrolled the passkey at the org's promotion.
                steps.append(("login-passkey", { (run: inout Run) throws(IdFlowError) in try await run.loginWithPasskey() }))
            }
            if registeringThroughAnIdentityProvider {
                steps.append(("register-idp", { (run: inout Run) throws(IdFlowError) in try await run.registerThroughIdentityProvider() }))
            }
            return steps
        }

        mutating func register() async throws(IdFlowError) -> (JSONValue, String) {
            let user = try await RegisterUser(email: demo.email, firstName: "Demo", lastName: "User").run(context)
            userID = user["id"]?.stringValue ?? ""
            try Demo.expect(user["status"] == "STAGED", "the new user is \(user["status"]?.stringValue ?? "?"), not STAGED")
            return (user, "registered \(demo.email) as \(userID) (STAGED)")
        }

        mutating func activate() async throws(IdFlowError) -> (JSONValue, String) {
            let result = try await ActivateUser(user: userID).run(context)
            try Demo.expect(result.status == "PROVISIONED", "the user is \(result.status) after activation, not PROVISIONED")
            activationToken = try ActivationToken(result.activationToken ?? "", purpose: .activation)
            return (try Demo.json(result), "activated \(userID) (PROVISIONED), activation token issued")
        }

        mutating func setPassword() async throws(IdFlowError) -> (JSONValue, String) {
            guard let token = activationToken else { throw .internalFailure("no activation token") }
            let result = try await SetPassword(token: token, password: demo.password).run(context)
            sessionToken = Secret(result.sessionToken)
            return (try Demo.json(result), "password set, user ACTIVE, single-use session token issued")
        }

        mutating func loginPKCE() async throws(IdFlowError) -> (JSONValue, String) {
            guard let token = sessionToken else { throw .internalFailure("no session token") }
            let output = try await LoginPKCE(method: .sessionToken(token)).run(context)
            try Demo.expect(output.response.refreshToken != nil, "no refresh token was issued")
            try Demo.expect(output.idTokenClaims?["sub"] == .string(userID), "the ID token is not for \(userID)")
            firstLogin = output.tokens
            return (try Demo.json(output), "authorization code + PKCE exchanged; ID token validated for \(userID)")
        }

        func refresh() async throws(IdFlowError) -> (JSONValue, String) {
            let output = try await RefreshTokens().run(context)
            try Demo.expect(output.response.accessToken != firstLogin?.response.accessToken, "refresh returned the same access token")
            let rotated = output.response.refreshToken != firstLogin?.response.refreshToken
            return (try Demo.json(output), "access token refreshed; refresh token \(rotated ? "rotated and saved" : "kept")")
        }

        func callAPI() async throws(IdFlowError) -> (JSONValue, String) {
            guard let url = demo.resourceURL else { throw .internalFailure("no resource URL") }
            let answer = try await CallResource(url: url).run(context).json
            try Demo.expect(
                answer["sub"] == .string(userID), "the API answered for \(answer["sub"]?.stringValue ?? "nobody"), not \(userID)")
            return (answer, "called the API at \(url) with the access token: it answered for \(userID)")
        }

        func loginEmbedded() async throws(IdFlowError) -> (JSONValue, String) {
            let output = try await embeddedSignIn(what: "the embedded sign-in")
            if let seed = demo.authenticatorAppSeed {
                try Demo.expect(FileManager.default.fileExists(atPath: seed.url.path), "no authenticator app was enrolled")
                return (
                    try Demo.json(output),
                    "signed in through the Identity Engine's forms (identify, password, then Google Authenticator enrolled with "
                        + "its seed kept 0600 and a computed code); ID token validated"
                )
            }
            return (
                try Demo.json(output),
                "signed in through the Identity Engine's forms (identify, password, interaction code); ID token validated"
            )
        }

        func loginWithAuthenticatorApp() async throws(IdFlowError) -> (JSONValue, String) {
            // With a passkey PIN, this sign-in also accepts the org's passkey promotion: the next step signs in with it.
            let output = try await embeddedSignIn(what: "the TOTP sign-in", enrollingAPasskey: demo.passkeyPINFile != nil)
            let enrolled = demo.passkeyPINFile == nil ? "" : "; a passkey enrolled at the org's promotion, sealed under a PIN"
            return (
                try Demo.json(output),
                "signed in with the password and a TOTP code computed from the kept seed, nobody at a phone (a code is never reused)"
                    + enrolled
            )
        }

        /// The usernameless sign-in: the passkey the previous step enrolled answers the Identity Engine's autofill
        /// challenge alone, its PIN verifying the user, with no username and no password.
        func loginWithPasskey() async throws(IdFlowError) -> (JSONValue, String) {
            var login = EmbeddedLogin(answers: IDX.AnswerSet(), store: false)
            login.passkey = true
            login.passkeySettings = passkeySettings
            let output = try await login.run(context)
            try Demo.expect(output.idTokenClaims?["sub"] == .string(userID), "the passkey sign-in is not for \(userID)")
            return (try Demo.json(output.tokens), "signed in with the passkey alone: no username, no password, the PIN verified the user")
        }

        /// The demo's passkeys: sealed under the PIN it made for the run.
        private var passkeySettings: PasskeyAuthenticator.Settings {
            PasskeyAuthenticator.Settings(pin: demo.passkeyPINFile.map { .file($0.path) })
        }

        /// The Identity Engine sign-in both embedded steps run: the password, and the authenticator app's code from
        /// the kept seed when the server's policy has one.
        private func embeddedSignIn(what: String, enrollingAPasskey: Bool = false) async throws(IdFlowError) -> TokenOutput {
            let answers = IDX.AnswerSet(["identifier": demo.email, "credentials.passcode": demo.password.value])
            var login = EmbeddedLogin(answers: answers, store: false, totpSecretFile: demo.authenticatorAppSeed)
            login.passkey = enrollingAPasskey
            login.passkeySettings = passkeySettings
            let output = try await login.run(context)
            try Demo.expect(output.idTokenClaims?["sub"] == .string(userID), "\(what) is not for \(userID)")
            return output.tokens
        }

        func enroll() async throws(IdFlowError) -> (JSONValue, String) {
            let enrollment = try await EnrollDevice(name: "idflow-demo").run(context)
            return (try Demo.json(enrollment), "this machine is \(demo.email)'s push authenticator (\(enrollment.enrollmentId))")
        }

        /// The sign-in waits for the push while the next steps answer it, as two terminals would.
        mutating func startPushSignIn() async throws(IdFlowError) -> (JSONValue, String) {
            let (email, password, context) = (demo.email, demo.password, context)
            pushSignIn = Task {
                try await LoginPKCE(
                    method: .credentials(username: email, password: password), store: false,
                    mfa: PushMFA(context: context, timeout: .seconds(60), pollInterval: .milliseconds(250))
                ).run(context).tokens
            }
            return (["username": .string(email), "mfa": "push"], "signed in with the password; waiting for the push")
        }

        mutating func challenges() async throws(IdFlowError) -> (JSONValue, String) {
            let listed = try await ListChallenges(wait: .seconds(30), pollInterval: .milliseconds(250)).run(context)
            guard let challenge = listed.challenges.first else { throw .timedOut("no push challenge arrived") }
            pushTransaction = challenge.transactionId
            return (try Demo.json(listed), "push challenge \(challenge.transactionId) pending (\(challenge.transactionType))")
        }

        func resolve() async throws(IdFlowError) -> (JSONValue, String) {
            let answer = try await ResolveChallenge(target: .transaction(pushTransaction), approve: true).run(context)
            let login: TokenOutput
            do {
                login = try await pushSignIn?.value ?? { throw IdFlowError.internalFailure("no push sign-in") }()
            } catch let error as IdFlowError {
                throw error
            } catch {
                throw .internalFailure("the push sign-in failed: \(error)")
            }
            try Demo.expect(login.idTokenClaims?["sub"] == .string(userID), "the push sign-in is not for \(userID)")
            return (try Demo.json(answer), "push approved (\(answer.keyType)); the waiting sign-in got its tokens")
        }

        /// Direct Authentication with a push, no browser and no password: the sign-in waits while this machine, the
        /// user's push authenticator, approves the challenge, picking the number when the server asks for one
        /// (the number the sign-in reported, as a person reads it off the terminal).
        func loginDirect() async throws(IdFlowError) -> (JSONValue, String) {
            let number = Locked<String?>(nil)
            var waiting = context
            waiting.notice = { _ in }  // the number is in this step's headline and JSON
            let (email, waitingContext) = (demo.email, waiting)
            let signIn = Task {
                try await LoginDirect(username: email, primary: .oob(.push), store: false)
                    .run(waitingContext) { binding in number.withLock { $0 = binding.number } }
            }
            do throws(IdFlowError) {
                let listed = try await ListChallenges(wait: .seconds(30), pollInterval: .milliseconds(250)).run(context)
                guard let challenge = listed.challenges.first else { throw .timedOut("no push challenge arrived for login-direct") }
                if challenge.challengeTextItems?.isEmpty == false {
                    // The sign-in reports its number as soon as the server answers, which is when the challenge appears.
                    for _ in 0..<100 where number.current == nil { try? await context.http.sleep(.milliseconds(50)) }
                }
                _ = try await ResolveChallenge(target: .transaction(challenge.transactionId), approve: true, number: number.current)
                    .run(context)
            } catch {
                signIn.cancel()
                throw error
            }
            let output: DirectLoginOutput
            do {
                output = try await signIn.value
            } catch let error as IdFlowError {
                throw error
            } catch {
                throw .internalFailure("the Direct Authentication sign-in failed: \(error)")
            }
            try Demo.expect(
                output.tokens.idTokenClaims?["sub"] == .string(userID), "the Direct Authentication sign-in is not for \(userID)")
            let picked = output.binding?.number.map { ", the number \($0) picked" } ?? ""
            return (
                try Demo.json(output),
                "signed in with Direct Authentication: a push approved by this machine\(picked); no browser, no password"
            )
        }

        func registerThroughIdentityProvider() async throws(IdFlowError) -> (JSONValue, String) {
            guard let client = demo.customRegistrationClient else { throw .internalFailure("no custom-registration client") }
            var registering = context
            registering.configuration.clientID = client.clientID
            registering.configuration.profile = "custom-registration"
            let output = try await RegisterWithIdentityProvider(
                identityProvider: "invite-code", data: .text("K7Q2"), clientSecret: client.secret
            )
            .run(registering)
            try Demo.expect(output.status == 2000, "invite-code answered \(output.status), not 2000")
            let subject = output.tokens.idTokenClaims?["sub"]?.stringValue ?? "?"
            return (try Demo.json(output), "registered \(subject) through the one-step identity provider invite-code; ID token validated")
        }
    }
}
