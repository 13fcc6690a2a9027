import HTTPTypes
import Hummingbird

/// `/api/v1/authn…`: the classic, stateful Authn API (okta-core.md §C). No SSWS token needed.
struct AuthnController {
    let state: SandboxState

    func register(in routes: RouteRegistry) {
        routes.post("/api/v1/authn", use: authenticate)
        routes.post("/api/v1/authn/credentials/reset_password", use: resetPassword)
        routes.post("/api/v1/authn/cancel", use: cancel)
        routes.post("/api/v1/authn/factors/:factorId/verify") { request, context in
            try await verifyFactor(request, context: context, resend: false)
        }
        routes.post("/api/v1/authn/factors/:factorId/verify/resend") { request, context in
            try await verifyFactor(request, context: context, resend: true)
        }
        routes.post("/api/v1/authn/previous", use: previous)
        AuthnRecoveryController(state: state).register(in: routes)
    }

    /// Every field any `POST /api/v1/authn…` call uses.
    struct AuthnBody: Decodable {
        var username: String?
        var password: String?
        var token: String?
        var stateToken: String?
        var newPassword: String?
        var oldPassword: String?
        var relayState: String?
        var options: Options?
        var factorType: String?
        var passCode: String?
        var recoveryToken: String?
        var answer: String?

        /// Primary authentication's `options`; only the warning is acted on.
        struct Options: Decodable {
            var warnBeforePasswordExpired: Bool?
        }
    }

    /// `{"token"}` redeems an activation token or a password-reset token, `{"username","password"}` signs in,
    /// `{"stateToken"}` alone reads the transaction.
    @Sendable func authenticate(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSONBody(AuthnBody.self, context: context) ?? AuthnBody()
        let outcome: AuthnOutcome
        if let token = body.token {
            if let reset = try await state.redeemPasswordResetToken(token) {
                outcome = reset
            } else {
                outcome = try await state.redeemActivationToken(token)
            }
        } else if let username = body.username, let password = body.password {
            outcome = try await state.authenticate(
                username: username, password: password,
                warnBeforePasswordExpired: body.options?.warnBeforePasswordExpired ?? false, relayState: body.relayState)
        } else if let stateToken = body.stateToken {
            outcome = try await state.transactionState(stateToken: stateToken)
        } else {
            throw OktaErrorResponse.authenticationFailed
        }
        return .json(AuthnWire.render(outcome, orgURL: await state.orgURL))
    }

    /// `{"stateToken","newPassword"}` in PASSWORD_RESET → SUCCESS with a session token.
    @Sendable func resetPassword(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSONBody(AuthnBody.self, context: context) ?? AuthnBody()
        guard let stateToken = body.stateToken else { throw OktaErrorResponse.invalidToken }
        let newPassword = try Required.value(body.newPassword, else: OktaErrorResponse.blank("newPassword"))
        let outcome = try await state.resetPassword(stateToken: stateToken, newPassword: newPassword)
        return .json(AuthnWire.render(outcome, orgURL: await state.orgURL))
    }

    /// `POST /api/v1/authn/factors/{id}/verify[/resend]` `{"stateToken"}` for a push factor: sends the
    /// push, then answers each poll with WAITING, SUCCESS, REJECTED or TIMEOUT.
    func verifyFactor(_ request: Request, context: SandboxRequestContext, resend: Bool) async throws -> Response {
        var request = request
        let body = try await request.decodeJSONBody(AuthnBody.self, context: context) ?? AuthnBody()
        guard let stateToken = body.stateToken else { throw OktaErrorResponse.invalidToken }
        let outcome = try await state.verifyPushFactor(
            stateToken: stateToken, factorId: request.pathParameter("factorId", context: context), resend: resend,
            clientOS: Self.clientOS(userAgent: request.headers[.userAgent]))
        return .json(AuthnWire.render(outcome, orgURL: await state.orgURL))
    }

    /// `POST /api/v1/authn/previous` `{"stateToken"}`: from MFA_CHALLENGE back to MFA_REQUIRED.
    @Sendable func previous(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSONBody(AuthnBody.self, context: context) ?? AuthnBody()
        guard let stateToken = body.stateToken else { throw OktaErrorResponse.invalidToken }
        return .json(AuthnWire.render(try await state.previousAuthnStep(stateToken: stateToken), orgURL: await state.orgURL))
    }

    /// The push challenge's `clientOS`, as far as the signing-in client's User-Agent tells it.
    static func clientOS(userAgent: String?) -> String {
        let agent = userAgent ?? ""
        for (marker, name) in [("Windows", "Windows"), ("Mac OS X", "Mac OS X"), ("Darwin", "Mac OS X"), ("Linux", "Linux")]
        where agent.contains(marker) {
            return name
        }
        return "UNKNOWN"
    }

    /// `{"stateToken"}` → 200 `{}`; the token is dead afterwards.
    @Sendable func cancel(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSONBody(AuthnBody.self, context: context) ?? AuthnBody()
        guard let stateToken = body.stateToken else { throw OktaErrorResponse.invalidToken }
        try await state.cancelTransaction(stateToken: stateToken)
        return .json([:])
    }
}
