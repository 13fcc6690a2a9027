import Foundation
import IdFlowFoundation
import OneTimePasscode

/// One Direct Authentication sign-in under way: the first factor, then, on `mfa_required`, the second at
/// `/challenge`; out-of-band answers waited for (push) or asked for (SMS, voice); passkey options answered by a
/// passkey kept here (`DirectAuthPasskey`).
struct DirectAuthSession: Sendable {
    let login: LoginDirect
    let server: AuthorizationServer
    let endpoints: DirectAuthEndpoints
    let scope: String
    let context: IdFlowContext

    /// The tokens; `noteBinding` is told how an out-of-band answer was tied to the sign-in, for the JSON output.
    func signIn(noteBinding: @Sendable (DirectLoginOutput.Binding) -> Void) async throws(IdFlowError) -> TokenResponse {
        let outcome: DirectTokenRequest.Outcome
        switch login.primary {
        case .otp(let code):
            let otp = try await oneTimeCode(code)
            outcome = try await token(.otp, [("login_hint", login.username), ("otp", otp)])
        case .password(let source):
            let password = try context.secrets.read("password", from: source)
            do throws(IdFlowError) {
                outcome = try await token(.password, [("username", login.username), ("password", password.value)])
            } catch {
                guard case .oauth(_, let body, _) = error, body.error == "invalid_grant" else { throw error }
                throw await RefusedSignIn.explain(error, username: login.username, context: context)
            }
        case .oob(let channel):
            let start = try await primaryStart(channel)
            outcome = try await answer(start, grant: .oob, mfaToken: nil, noteBinding: noteBinding)
        case .resume(let id):
            outcome = try await resume(id, noteBinding: noteBinding)
        case .webAuthn:
            let request = PasskeyStartRequest(
                endpoint: endpoints.primaryAuthenticate, client: server.client,
                username: login.username.isEmpty ? nil : login.username, acrValues: login.acrValues)
            let start = try await server.http.send(request)
            outcome = try await token(.webAuthn, try await passkey.answer(start, fetchedFrom: request.endpoint))
        }
        switch outcome {
        case .tokens(let tokens): return tokens
        case .mfaRequired(let mfa): return try await secondFactor(mfa, noteBinding: noteBinding)
        case .pending, .slowDown: throw .protocolViolation("the token endpoint asked to wait although nothing was sent out of band")
        }
    }

    /// The passkey that answers this sign-in's WebAuthn options.
    private var passkey: DirectAuthPasskey {
        DirectAuthPasskey(settings: login.passkey, context: context)
    }

    private func token(_ grant: DirectAuthGrant, _ fields: [(String, String)]) async throws(IdFlowError) -> DirectTokenRequest.Outcome {
        try await server.http.send(
            DirectTokenRequest(
                endpoint: endpoints.token, client: server.client, grant: grant, scope: scope, acrValues: login.acrValues, fields: fields,
                intent: login.intent))
    }

    /// `/primary-authenticate`, or `/oob-authenticate` where the server does not know the newer name.
    private func primaryStart(_ channel: OOBChannel) async throws(IdFlowError) -> OOBStart {
        var request = PrimaryAuthenticateRequest(
            endpoints: endpoints, client: server.client, username: login.username, channel: channel, acrValues: login.acrValues,
            intent: login.intent)
        if let start = try await server.http.send(request) { return start }
        context.message("direct: /primary-authenticate is not there (404); trying its older name /oob-authenticate")
        request.legacy = true
        guard let start = try await server.http.send(request) else { throw .protocolViolation("/oob-authenticate answered 404") }
        return start
    }

    /// Waits for a push, or asks for the SMS or voice code, then redeems the out-of-band code.
    private func answer(
        _ start: OOBStart, grant: DirectAuthGrant, mfaToken: String?, noteBinding: @Sendable (DirectLoginOutput.Binding) -> Void
    )
        async throws(IdFlowError) -> DirectTokenRequest.Outcome
    {
        var fields = [("oob_code", start.oobCode)]
        if let mfaToken { fields.append(("mfa_token", mfaToken)) }
        if start.bindingMethod == .prompt {
            guard let code = try readBindingCode(start.channel) else {
                // A recovery goes on to set the password, which `login-direct --resume` does not: it is not kept.
                guard login.intent == nil else {
                    throw .rejected(
                        "the code sent by \(start.channel == .sms ? "SMS" : "voice call") is needed, and there is no terminal to ask for it",
                        hint: "pipe it in with --binding-code-stdin (and the new password from a file)")
                }
                throw try keep(start, grant: grant, mfaToken: mfaToken)
            }
            noteBinding(DirectLoginOutput.Binding(method: BindingMethod.prompt.rawValue))
            return try await token(grant, fields + [("binding_code", code.value)])
        }
        if start.bindingMethod == .transfer, let number = start.bindingCode {
            noteBinding(DirectLoginOutput.Binding(method: BindingMethod.transfer.rawValue, number: number))
            // What the person must act on: set apart, and shown even with --quiet.
            for line in ["", "    Pick \(number) on the phone to approve the sign-in.", ""] { context.notice(line) }
        }
        return try await OOBPolling(start: start, context: context).poll { () throws(IdFlowError) in
            try await token(grant, fields)
        }
    }

    /// The code an SMS or voice call brought: from `--binding-code-stdin`, or typed at a terminal; nil in a script
    /// that gave none.
    private func readBindingCode(_ channel: OOBChannel) throws(IdFlowError) -> Secret? {
        let what = "code sent by \(channel == .sms ? "SMS" : "voice call")"
        if let source = login.bindingCode { return try context.secrets.read(what, from: source) }
        guard context.console.isInteractive else { return nil }
        let typed = try PromptInterruption.run { context.console.promptLine("Enter the \(what): ") } ?? ""
        guard !typed.isEmpty else { throw .invalidInput("no \(what) was typed", hint: "run login-direct again and type the code") }
        return Secret(typed)
    }

    /// A script gave no SMS or voice code: the sign-in is kept so `--resume` redeems the code that was sent rather
    /// than sending another, and the run stops (exit 3) with the transaction on stdout.
    private func keep(_ start: OOBStart, grant: DirectAuthGrant, mfaToken: String?) throws(IdFlowError) -> IdFlowError {
        let expiry = context.now().addingTimeInterval(TimeInterval(start.expiresIn))
        let pending = LoginDirect.PendingCode(
            id: RandomValue.hex(bytes: 12), issuer: server.issuer.absoluteString, clientID: server.client.clientID,
            username: login.username, channel: start.channel, grant: grant, oobCode: start.oobCode, mfaToken: mfaToken,
            expiresAt: ISO8601.string(expiry))
        let kept = LoginDirect.PendingCode.kept(stateDirectory: context.configuration.stateDirectory)
        kept.removeExpired(now: context.now())
        try kept.save(pending)
        return .stopped(LoginDirect.CodeNeeded(transaction: pending.id, channel: pending.channel, expiresAt: pending.expiresAt))
    }

    /// `--resume ID`: redeems the kept SMS or voice code with the code now given. A wrong code keeps the sign-in
    /// for another try, as the server does until its limit of attempts; an expired one ends it.
    private func resume(_ id: String, noteBinding: @Sendable (DirectLoginOutput.Binding) -> Void) async throws(IdFlowError)
        -> DirectTokenRequest.Outcome
    {
        let kept = LoginDirect.PendingCode.kept(stateDirectory: context.configuration.stateDirectory)
        let pending = try kept.kept(id, issuer: server.issuer, clientID: server.client.clientID, now: context.now())
        guard let code = try readBindingCode(pending.channel) else {
            throw .invalidInput(
                "--resume \(id) needs the code sent by \(pending.channel == .sms ? "SMS" : "voice call")",
                hint: "pipe it in with --binding-code-stdin")
        }
        noteBinding(DirectLoginOutput.Binding(method: BindingMethod.prompt.rawValue))
        var fields = [("oob_code", pending.oobCode), ("binding_code", code.value)]
        if let mfaToken = pending.mfaToken { fields.append(("mfa_token", mfaToken)) }
        do throws(IdFlowError) {
            let outcome = try await token(pending.grant, fields)
            try? kept.remove(id)
            return outcome
        } catch {
            // The server forgot the code (expired, or too many wrong ones): so does idflow. Otherwise (a wrong code,
            // the network) the kept sign-in stays for another try.
            if case .timedOut = error {
                try? kept.remove(id)
                throw error
            }
            throw error.addingHint("if that code was mistyped, --resume \(id) again with the right one (the server allows a few tries)")
        }
    }

    /// The code to send: given, or the seed's code for a step not spent yet (the ledger the embedded sign-in uses).
    private func oneTimeCode(_ code: LoginDirect.Code?) async throws(IdFlowError) -> String {
        switch code {
        case .given(let source): return try context.secrets.read("one-time code", from: source).value
        case .seed(let file):
            let totp = TOTP(secret: try file.read())
            let code = try await TOTPStepLedger(stateDirectory: context.configuration.stateDirectory).spendCode(
                totp, context: context, sleep: { [http = context.http] in try await http.sleep($0) })
            context.message("totp: answering with the code of \(file.url.lastPathComponent)")
            return code
        case nil:
            guard context.console.isInteractive else {
                throw .invalidInput("--mfa otp needs the code", hint: "give it with --otp-stdin or --totp-secret-file")
            }
            let typed = try PromptInterruption.run { context.console.promptSecret("One-time code: ") } ?? ""
            guard !typed.isEmpty else { throw .invalidInput("no one-time code was typed", hint: "run login-direct again and type it") }
            return typed
        }
    }

    /// The second factor at `/challenge`, then its token request.
    private func secondFactor(_ mfa: MFARequired, noteBinding: @Sendable (DirectLoginOutput.Binding) -> Void) async throws(IdFlowError)
        -> TokenResponse
    {
        let factor: LoginDirect.SecondFactor
        if let chosen = login.mfa {
            factor = chosen
        } else {
            factor = try SecondFactorChoice(offered: mfa.supportedChallengeTypes, context: context).choose()
        }
        let grant: DirectAuthGrant =
            switch factor {
            case .otp: .mfaOTP
            case .webauthn: .mfaWebAuthn
            case .push, .sms, .voice: .mfaOOB
            }
        let channel = OOBChannel(rawValue: factor.rawValue)
        context.message("direct: a second factor is needed; answering with \(factor.rawValue)")
        let challenge = try await server.http.send(
            ChallengeRequest(
                endpoint: endpoints.challenge, client: server.client, mfaToken: mfa.mfaToken, grant: grant, channel: channel,
                acrValues: login.acrValues))
        let outcome: DirectTokenRequest.Outcome
        switch challenge {
        case .otp:
            let otp = try await oneTimeCode(login.mfaCode)
            outcome = try await token(.mfaOTP, [("mfa_token", mfa.mfaToken), ("otp", otp)])
        case .oob(let start):
            outcome = try await answer(start, grant: .mfaOOB, mfaToken: mfa.mfaToken, noteBinding: noteBinding)
        case .webAuthn(let start):
            let fields = try await passkey.answer(start, fetchedFrom: endpoints.challenge)
            outcome = try await token(.mfaWebAuthn, [("mfa_token", mfa.mfaToken)] + fields)
        }
        guard case .tokens(let tokens) = outcome else {
            throw .protocolViolation("the server asked for yet another factor after the second one")
        }
        return tokens
    }
}

/// Which second factor to use when `--mfa` did not say: asked at a terminal among those the server offers, a
/// stop with a hint in a script (exit 3).
struct SecondFactorChoice {
    var offered: [String]?
    var context: IdFlowContext

    /// The factors idflow can answer among the grants offered (all when the server did not say).
    var factors: [LoginDirect.SecondFactor] {
        guard let offered else { return LoginDirect.SecondFactor.allCases }
        var factors: [LoginDirect.SecondFactor] = []
        if offered.contains(DirectAuthGrant.mfaOTP.rawValue) { factors.append(.otp) }
        if offered.contains(DirectAuthGrant.mfaOOB.rawValue) { factors += [.push, .sms, .voice] }
        if offered.contains(DirectAuthGrant.mfaWebAuthn.rawValue) { factors.append(.webauthn) }
        return factors
    }

    func choose() throws(IdFlowError) -> LoginDirect.SecondFactor {
        let names = factors.map(\.rawValue)
        guard !names.isEmpty else {
            throw .rejected(
                "the server asks for a second factor idflow cannot answer (offered: \((offered ?? []).joined(separator: " ")))",
                hint: "sign in with login-pkce --browser")
        }
        guard context.console.isInteractive else {
            throw .rejected(
                "the sign-in needs a second factor (mfa_required) and no --mfa says which",
                hint: "rerun with --mfa \(names.joined(separator: "|")) (what the server offers)")
        }
        let typed = try PromptInterruption.run { context.console.promptLine("Second factor (\(names.joined(separator: ", "))): ") } ?? ""
        guard let factor = LoginDirect.SecondFactor(rawValue: typed.trimmingCharacters(in: .whitespaces)), names.contains(factor.rawValue)
        else { throw .invalidInput("\(typed) is not one of \(names.joined(separator: ", "))", hint: "run login-direct again with --mfa") }
        return factor
    }
}
