import Hummingbird

/// `/api/v1/authn…`: the classic, stateful Authn API (okta-core.md §C). No SSWS token needed.
struct AuthnController {
    let state: SandboxState

    func register(in routes: RouteRegistry) {
        routes.post("/api/v1/authn", use: authenticate)
        routes.post("/api/v1/authn/credentials/reset_password", use: resetPassword)
        routes.post("/api/v1/authn/cancel", use: cancel)
    }

    /// Every field any of the three `POST /api/v1/authn` forms uses.
    struct AuthnBody: Decodable {
        var username: String?
        var password: String?
        var token: String?
        var stateToken: String?
        var newPassword: String?
    }

    /// `{"token"}` redeems an activation token, `{"username","password"}` signs in,
    /// `{"stateToken"}` alone reads the transaction.
    @Sendable func authenticate(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSONBody(AuthnBody.self, context: context) ?? AuthnBody()
        let outcome: AuthnOutcome
        if let token = body.token {
            outcome = try await state.redeemActivationToken(token)
        } else if let username = body.username, let password = body.password {
            outcome = try await state.authenticate(username: username, password: password)
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
        guard let newPassword = body.newPassword else {
            throw OktaErrorResponse.validation("newPassword", causes: ["newPassword: The field cannot be left blank"])
        }
        let outcome = try await state.resetPassword(stateToken: stateToken, newPassword: newPassword)
        return .json(AuthnWire.render(outcome, orgURL: await state.orgURL))
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
