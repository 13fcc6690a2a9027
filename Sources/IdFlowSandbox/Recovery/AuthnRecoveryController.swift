import Hummingbird

/// `/api/v1/authn/credentials/change_password`, `/api/v1/authn/skip` and `/api/v1/authn/recovery/…`: the Authn
/// recovery calls (okta-core.md §F2). Like the rest of Authn, no SSWS token is needed.
struct AuthnRecoveryController {
    let state: SandboxState

    typealias AuthnBody = AuthnController.AuthnBody

    func register(in routes: RouteRegistry) {
        routes.post("/api/v1/authn/credentials/change_password") { request, context in
            let body = try await Self.body(request, context: context)
            return try await respond(
                state.changePassword(
                    stateToken: Self.stateToken(body), oldPassword: body.oldPassword ?? "",
                    newPassword: Required.value(body.newPassword, else: OktaErrorResponse.blank("newPassword"))))
        }
        routes.post("/api/v1/authn/skip") { request, context in
            try await respond(state.skipPasswordWarning(stateToken: Self.stateToken(Self.body(request, context: context))))
        }
        routes.post("/api/v1/authn/recovery/password") { request, context in
            try await startRecovery(request, context: context, type: .password)
        }
        routes.post("/api/v1/authn/recovery/unlock") { request, context in
            try await startRecovery(request, context: context, type: .unlock)
        }
        // The links say SMS and CALL, Okta's reference sends sms and call: the factor is matched in any case.
        routes.post("/api/v1/authn/recovery/factors/:factorType/verify") { request, context in
            let body = try await Self.body(request, context: context)
            _ = try Self.codeFactor(request, context: context)
            return try await respond(state.verifyRecoveryCode(stateToken: Self.stateToken(body), passCode: body.passCode ?? ""))
        }
        routes.post("/api/v1/authn/recovery/factors/:factorType/resend") { request, context in
            let body = try await Self.body(request, context: context)
            return try await respond(
                state.resendRecoveryCode(stateToken: Self.stateToken(body), factor: Self.codeFactor(request, context: context)))
        }
        routes.post("/api/v1/authn/recovery/token") { request, context in
            let body = try await Self.body(request, context: context)
            return try await respond(state.redeemRecoveryToken(body.recoveryToken ?? ""))
        }
        routes.post("/api/v1/authn/recovery/answer") { request, context in
            let body = try await Self.body(request, context: context)
            return try await respond(state.answerRecoveryQuestion(stateToken: Self.stateToken(body), answer: body.answer ?? ""))
        }
    }

    /// `{"username","factorType","relayState"?}`; a missing or unknown `factorType` is E0000001.
    func startRecovery(_ request: Request, context: SandboxRequestContext, type: RecoveryType) async throws -> Response {
        let body = try await Self.body(request, context: context)
        let username = try Required.value(body.username, else: OktaErrorResponse.blank("username"))
        guard let factor = body.factorType.flatMap(RecoveryFactor.init(wire:)) else {
            throw OktaErrorResponse.validation("factorType", causes: ["factorType: must be one of EMAIL, SMS or CALL"])
        }
        return try await respond(state.startRecovery(username: username, factor: factor, type: type, relayState: body.relayState))
    }

    func respond(_ outcome: AuthnOutcome) async -> Response {
        .json(AuthnWire.render(outcome, orgURL: await state.orgURL))
    }

    static func body(_ request: Request, context: SandboxRequestContext) async throws -> AuthnBody {
        var request = request
        return try await request.decodeJSONBody(AuthnBody.self, context: context) ?? AuthnBody()
    }

    /// The state token of a call that needs one: missing is E0000011, as an unknown one.
    static func stateToken(_ body: AuthnBody) throws -> String {
        guard let stateToken = body.stateToken else { throw OktaErrorResponse.invalidToken }
        return stateToken
    }

    /// The `{SMS|CALL}` of a code factor's path, in any case; anything else is not found.
    static func codeFactor(_ request: Request, context: SandboxRequestContext) throws -> RecoveryFactor {
        let name = request.pathParameter("factorType", context: context)
        guard let factor = RecoveryFactor(wire: name), factor != .email else { throw OktaErrorResponse.notFound(name, type: "Factor") }
        return factor
    }
}
