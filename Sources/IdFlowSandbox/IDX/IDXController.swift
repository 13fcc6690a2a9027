import Foundation
import HTTPTypes
import Hummingbird

/// The Identity Engine's interaction code flow (idx.md §11): `{issuer}/v1/interact`, `/idp/idx/introspect` and
/// the hrefs its documents hand out, for password sign-in with the second factor and the sign-up that
/// `IDXPolicy` (`--config` key `idx`) asks for, and account recovery under the password policy (`recover`, a new
/// password for an expired one, `unlock-account`). Request bodies are read as JSON whatever their content type
/// says (`application/json` or `application/ion+json`, with or without `okta-version`), as §4 asks of a server.
struct IDXController {
    let state: SandboxState

    func register(in routes: RouteRegistry) {
        routes.oauth("/interact", .post, use: interact)
        routes.post("/idp/idx/introspect", use: introspect)
        routes.post("/idp/idx/identify", use: identify)
        routes.post("/idp/idx/enroll", use: selectEnrollProfile)
        routes.post("/idp/idx/enroll/new", use: enrollProfile)
        routes.post("/idp/idx/identify/select", use: cancel)
        routes.post("/idp/idx/challenge", use: challenge)
        routes.post("/idp/idx/challenge/answer", use: answer)
        routes.post("/idp/idx/challenge/answer/webauthn-autofillui", use: answerAutofill)
        routes.post("/idp/idx/challenge/resend", use: resend)
        routes.post("/idp/idx/challenge/poll", use: pollCode)
        routes.post("/idp/idx/authenticators/poll", use: pollPush)
        routes.post("/idp/idx/credential/enroll", use: credentialEnroll)
        routes.post("/idp/idx/challenge/send", use: send)
        routes.post("/idp/idx/skip", use: skip)
        routes.post("/idp/idx/consent", use: consent)
        routes.post("/idp/idx/recover", use: recover)
        routes.post("/idp/idx/unlock-account", use: unlockAccount)
        routes.post("/idp/idx/cancel", use: cancel)
    }

    /// `POST {issuer}/v1/interact` (form): the same checks as `/authorize` (client, redirect URI, scopes,
    /// PKCE S256, state); OAuth errors as JSON.
    @Sendable func interact(
        _ request: Request, context: SandboxRequestContext, server: HostedAuthorizationServer
    ) async throws -> Response {
        var request = request
        let body = String(decoding: try await request.bodyData(context: context), as: UTF8.self)
        let form = FormParameters(body)
        let client = try ClientAuthentication.authenticate(
            form: form, authorization: request.headers[.authorization], clients: state.configuration.oauthClients)
        guard let redirectURI = form["redirect_uri"], client.allowsRedirect(to: redirectURI) else {
            throw OAuthErrorResponse(
                .badRequest, "invalid_request", "The 'redirect_uri' parameter must be a Login redirect URI in the client app settings.")
        }
        let authorizeRequest: AuthorizeRequest
        do {
            // The interaction stands in for an authorization request: the same rules, with response_type implied.
            authorizeRequest = try AuthorizeController.validate(
                FormParameters(body + "&response_type=code"), server: server, client: client, redirectURI: redirectURI, mode: .query)
        } catch let error as AuthorizeController.RedirectedError {
            throw OAuthErrorResponse(.badRequest, error.error, error.description)
        }
        guard authorizeRequest.codeChallenge != nil else {
            throw OAuthErrorResponse(.badRequest, "invalid_request", "PKCE code challenge is required.")
        }
        let handle = await state.beginInteraction(authorizeRequest)
        return .json(["interaction_handle": .string(handle)])
    }

    /// `{"interactionHandle"}` (or `{"stateHandle"}` to pick a transaction up again) → where it stands (200; a
    /// push is looked at first, so an approval shows as the success document here too).
    @Sendable func introspect(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        guard
            let transaction = await state.idxTransaction(
                stateHandle: body["stateHandle"]?.stringValue, interactionHandle: body["interactionHandle"]?.stringValue)
        else { return IDXWire.expired() }
        return await document(await state.pollPush(transaction), status: .ok)
    }

    /// `identify {"identifier", "stateHandle"}` → the password challenge (for any identifier: whether the
    /// user exists is only revealed by the password check). From `identify-recovery`, the user's recovery
    /// authenticators (`select-authenticator-authenticate`), or 400 with `oie.selfservice.reset.password.not.allowed`.
    @Sendable func identify(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        guard let transaction = await liveTransaction(body) else { return IDXWire.expired() }
        let recovering: Bool
        switch transaction.step {
        case .identify: recovering = false
        case .identifyRecovery: recovering = true
        default: return IDXWire.expired()
        }
        guard let identifier = body["identifier"]?.stringValue, !identifier.isEmpty else {
            return await document(transaction, error: IDXMessage(text: "Enter a username.", key: "errors.E0000001"), status: .badRequest)
        }
        if recovering { return await document(await state.beginRecovery(transaction, login: identifier)) }
        return await document(await state.identify(transaction, login: identifier))
    }

    /// `recover {"stateHandle"}` (the password's `recover`, idx.md §12.3): from `identify`, `identify-recovery`; from the
    /// password challenge, the recovery authenticators of the user named there (`select-authenticator-authenticate`
    /// with `recoveryAuthenticator`); without any, 400 with `oie.selfservice.reset.password.not.allowed`.
    @Sendable func recover(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        guard let transaction = await liveTransaction(body) else { return IDXWire.expired() }
        guard let outcome = await state.recover(transaction) else {
            return await document(transaction, error: Self.notOffered, status: .badRequest)
        }
        return await document(outcome)
    }

    /// `unlock-account {"stateHandle"}` from `identify` (idx.md §12.5) → `select-authenticator-unlock-account`; with
    /// `passwordPolicy.lockout.selfServiceUnlock` off, 400 with `oie.selfservice.user.unlock.not.allowed`.
    @Sendable func unlockAccount(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        guard let transaction = await liveTransaction(body) else { return IDXWire.expired() }
        return await document(await state.beginUnlock(transaction))
    }

    /// `select-enroll-profile {"stateHandle"}` (idx.md §9) → the `enroll-profile` form; with sign-up turned off
    /// (`idx.signUp` false) the identify document again, 403 with `errors.E0000006`.
    @Sendable func selectEnrollProfile(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        guard let transaction = await liveTransaction(body), case .identify = transaction.step else { return IDXWire.expired() }
        guard state.configuration.idx.signUp else {
            return await document(
                transaction, error: IDXMessage(text: "You do not have permission to perform the requested action", key: "errors.E0000006"),
                status: .forbidden)
        }
        return await document(await state.selectEnrollProfile(transaction))
    }

    /// `enroll-profile {"userProfile": {...}, "stateHandle"}` → `select-authenticator-enroll`, or the same form
    /// with field messages (400) for a missing, malformed or taken e-mail address.
    @Sendable func enrollProfile(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        guard let transaction = await liveTransaction(body), case .enrollProfile = transaction.step else { return IDXWire.expired() }
        let profile =
            body["userProfile"]?.objectValue.map { Dictionary($0.members.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }) } ?? [:]
        return await document(await state.enrollProfile(transaction, profile: profile))
    }

    /// At passkey promotion, `credential/enroll {"credentials": {"clientData", "attestation"}, "stateHandle"}` →
    /// the success document, or the promotion again (400) with the reason.
    /// Otherwise `credential/enroll {"authenticator": {"id", "methodType", "phoneNumber"}, "stateHandle"}`
    /// (`select-authenticator-enroll`, the phone's `authenticator-enrollment-data`) → the authenticator's
    /// `enroll-authenticator` (a code sent for e-mail and phone); a phone number that is not E.164 → 400,
    /// `select-authenticator-enroll` with Okta's top-level message.
    @Sendable func credentialEnroll(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        if let transaction = await liveTransaction(body), case .promoteWebAuthn = transaction.step {
            guard let outcome = await state.answerWebAuthnPromotion(transaction, credentials: body["credentials"]) else {
                return IDXWire.expired()
            }
            return await document(outcome)
        }
        guard let transaction = await liveTransaction(body), transaction.step.enrollee != nil else { return IDXWire.expired() }
        guard let next = await state.chooseEnrollment(transaction, authenticator: body["authenticator"]) else {
            return await document(transaction, error: Self.notOffered, status: .badRequest)
        }
        return await document(next)
    }

    /// `challenge {"authenticator": {"id", "methodType"}, "stateHandle"}` (`select-authenticator-authenticate`,
    /// `authenticator-verification-data`, and Okta Verify's `resend`) → the chosen factor's `challenge-authenticator`
    /// (a code in the outbox for e-mail and phone), `authenticator-verification-data` for a phone or Okta Verify
    /// without a method, or `challenge-poll` for a push sent to the user's newest app-authenticator enrollment. From
    /// `select-authenticator-unlock-account`, `{"identifier", "authenticator"}` names the user too; an identifier that
    /// cannot unlock is 400 with `oie.selfservice.user.unlock.not.allowed`.
    @Sendable func challenge(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        guard let transaction = await liveTransaction(body) else { return IDXWire.expired() }
        let chosen = body["authenticator"]
        let clientOS = AuthnController.clientOS(userAgent: request.headers[.userAgent])
        if case .selectUnlockAuthenticator = transaction.step {
            return await document(
                await state.chooseUnlockAuthenticator(
                    transaction, identifier: body["identifier"]?.stringValue ?? "", id: chosen?["id"]?.stringValue,
                    methodType: chosen?["methodType"]?.stringValue, clientOS: clientOS))
        }
        guard
            let next = await state.chooseAuthenticator(
                transaction, id: chosen?["id"]?.stringValue, methodType: chosen?["methodType"]?.stringValue, clientOS: clientOS)
        else { return await document(transaction, error: Self.notOffered, status: .badRequest) }
        return await document(next)
    }

    /// `challenge/answer {"credentials": {…}, "stateHandle"}`: the password of a sign-in (a wrong one, or any from a
    /// locked-out or suspended user, is `errors.E0000004` on the same challenge, 401), the credentials of a factor or an
    /// enrollment (a wrong one is a message on its field, 400: `api.authn.error.PASSCODE_INVALID`,
    /// `authfactor.challenge.soft_token.*`, `securityQuestion.answer.tooShort.arg`, …), or a new password
    /// (`password.passwordRequirementsNotMet` on its field, 400).
    @Sendable func answer(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        let credentials = body["credentials"]
        guard let transaction = await liveTransaction(body) else { return IDXWire.expired() }
        switch transaction.step {
        case .challengePassword:
            guard let next = await state.answerPassword(transaction, password: credentials?["passcode"]?.stringValue ?? "") else {
                return await document(
                    transaction, error: IDXMessage(text: "Authentication failed", key: "errors.E0000004"), status: .unauthorized)
            }
            return await document(next)
        case .challengeCode, .challengeSecurityQuestion, .challengeTOTP, .challengeTAC, .enrollPassword, .enrollEmail, .enrollPhone,
            .enrollSecurityQuestion, .enrollGoogleOTP:
            return await document(await state.answerChallenge(transaction, credentials: credentials))
        case .changePassword:
            return await document(await state.answerNewPassword(transaction, password: credentials?["passcode"]?.stringValue ?? ""))
        case .enrollWebAuthn:
            return await document(await state.answerWebAuthnEnrollment(transaction, credentials: credentials))
        case .challengeWebAuthn:
            return await document(await state.answerWebAuthnChallenge(transaction, credentials: credentials))
        default:
            return IDXWire.expired()
        }
    }

    /// `challenge/answer/webauthn-autofillui {"credentials": {"authenticatorData", "clientData", "signatureData",
    /// "userHandle"}, "stateHandle"}` at `identify`: a usernameless passkey sign-in → what the policy asks next (the
    /// success document when the passkey is enough), or `identify` again (400) with
    /// `authfactor.webauthn.error.assertion_validation_failure`.
    @Sendable func answerAutofill(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        guard let transaction = await liveTransaction(body) else { return IDXWire.expired() }
        guard let outcome = await state.answerWebAuthnAutofill(transaction, credentials: body["credentials"]) else {
            return await document(transaction, error: Self.notOffered, status: .badRequest)
        }
        return await document(outcome)
    }

    /// `challenge/resend {"stateHandle"}` → a new code in the outbox on the same channel (the old one stops working),
    /// same document; within 30 s of the last code, nothing is sent and the same step answers 429 "Too many requests"
    /// (`IDXThrottle.swift`).
    @Sendable func resend(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        guard let transaction = await liveTransaction(body), let next = await state.resendCode(transaction) else {
            return IDXWire.expired()
        }
        return await document(next)
    }

    /// `challenge/send {"stateHandle"}` from Okta Verify's TOTP challenge (its `send`) → a push instead.
    @Sendable func send(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        guard let transaction = await liveTransaction(body),
            let next = await state.sendPushInstead(transaction, clientOS: AuthnController.clientOS(userAgent: request.headers[.userAgent]))
        else { return IDXWire.expired() }
        return await document(next)
    }

    /// `skip {"stateHandle"}` at sign-up, once only optional authenticators are left → the new user and the success
    /// document; at `reenroll-authenticator-warning`, on with the sign-in and the password unchanged; anywhere else 400
    /// with the step as it was.
    @Sendable func skip(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        guard let transaction = await liveTransaction(body) else { return IDXWire.expired() }
        if let next = await state.skipPasswordChange(transaction) { return await document(next) }
        if let next = await state.skipWebAuthnPromotion(transaction) { return await document(next) }
        if let next = await state.skipGracePeriod(transaction) { return await document(next) }
        guard let next = await state.skipEnrollment(transaction) else {
            return await document(transaction, error: Self.notOffered, status: .badRequest)
        }
        return await document(next)
    }

    /// `challenge/poll {"stateHandle"}` during an e-mail code → the same waiting document: the sandbox sends no
    /// magic link, so only the code moves the transaction on.
    @Sendable func pollCode(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        guard let transaction = await liveTransaction(body) else { return IDXWire.expired() }
        switch transaction.step {
        case .challengeCode(_, let code) where code.channel == .email: return await document(transaction)
        case .enrollEmail: return await document(transaction)
        default: return IDXWire.expired()
        }
    }

    /// `authenticators/poll {"stateHandle"}` during a push → the same `challenge-poll` document while it
    /// waits, the success document once approved, or (403) `api.authn.poll.error.push_rejected` /
    /// `api.authn.poll.error.push_timeout` with `select-authenticator-authenticate` to send another.
    @Sendable func pollPush(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        guard let transaction = await liveTransaction(body) else { return IDXWire.expired() }
        switch transaction.step {
        case .challengePush, .pushEnded: return await document(await state.pollPush(transaction))
        default: return IDXWire.expired()
        }
    }

    /// `cancel {"stateHandle"}` → a fresh identify document for the same interaction (a waiting push is
    /// withdrawn).
    @Sendable func cancel(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        guard let transaction = await liveTransaction(body) else { return IDXWire.expired() }
        return await document(await state.cancelInteraction(transaction))
    }

    /// The top-level message for an authenticator the step does not offer.
    static let notOffered = IDXMessage(text: "The authenticator is not available for this step.", key: "errors.E0000001")

    private func liveTransaction(_ body: OrderedJSON) async -> IDXTransaction? {
        guard let stateHandle = body["stateHandle"]?.stringValue else { return nil }
        return await state.idxTransaction(stateHandle: stateHandle)
    }

    /// The document after asking for a code: the next step, or the same one throttled (`IDXThrottle.swift`).
    private func document(_ request: IDXCodeRequest) async -> Response {
        switch request {
        case .sent(let next): return await document(next)
        case .tooSoon(let same):
            return IDXThrottle.throttled(
                await document(same, error: SandboxState.codeResendTooSoon, status: .tooManyRequests),
                retryAt: await state.nextCodeAllowed(same))
        }
    }

    /// The document of a form's outcome: the next step (200, or 403 for a refusal), or the step to show again
    /// with field messages (400).
    private func document(_ outcome: IDXOutcome) async -> Response {
        switch outcome {
        case .next(let next): return await document(next)
        case .invalid(let again, let errors): return await document(again, fieldErrors: errors, status: .badRequest)
        case .refused(let again, let message): return await document(again, error: message, status: .badRequest)
        }
    }

    /// The document for `transaction`; without a `status`, 200, or 403 for a step that refuses the sign-in.
    private func document(
        _ transaction: IDXTransaction, error: IDXMessage? = nil, fieldErrors: IDXFieldErrors? = nil, status: HTTPResponse.Status? = nil
    ) async -> Response {
        let view = await state.idxView(transaction)
        return IDXWire.response(
            IDXWire.document(view, orgURL: await state.orgURL, error: error, fieldErrors: fieldErrors),
            status: status ?? (transaction.step.isRefusal ? .forbidden : .ok))
    }

    /// The JSON body, whatever content type it came with; anything else is Okta's E0000003.
    static func body(_ request: Request, context: SandboxRequestContext) async throws -> OrderedJSON {
        var request = request
        return try await request.decodeJSONBody(OrderedJSON.self, context: context) ?? .object(JSONObject())
    }
}
