import Hummingbird

/// `/api/v1/users/{id}/lifecycle/*` and `credentials/forgot_password`: the status machine of okta-core.md §B and §G.
///
/// Bodies are never read: SDKs send these with an empty body and any content type.
struct LifecycleController {
    let state: SandboxState

    func register(in routes: RouteRegistry) {
        let base = "/api/v1/users/:id/lifecycle"
        routes.post("\(base)/activate", use: activate)
        routes.post("\(base)/reactivate", use: reactivate)
        routes.post("\(base)/deactivate", use: deactivate)
        routes.post("\(base)/suspend") { request, context in
            try await state.setSuspended(true, userId: request.pathParameter("id", context: context))
            return .json([:])
        }
        routes.post("\(base)/unsuspend") { request, context in
            try await state.setSuspended(false, userId: request.pathParameter("id", context: context))
            return .json([:])
        }
        routes.post("\(base)/expire_password", use: expirePassword)
        routes.post("\(base)/expire_password_with_temp_password") { request, context in
            let temporary = try await state.expirePasswordWithTempPassword(
                userId: request.pathParameter("id", context: context),
                revokeSessions: request.queryParameters.bool("revokeSessions", default: false))
            return .json(["tempPassword": .string(temporary)])
        }
        routes.post("\(base)/reset_password") { request, context in
            let outcome = try await state.resetPasswordLink(
                userId: request.pathParameter("id", context: context),
                sendEmail: request.queryParameters.bool("sendEmail", default: true),
                revokeSessions: request.queryParameters.bool("revokeSessions", default: false))
            return .json(Self.render(outcome))
        }
        routes.post("/api/v1/users/:id/credentials/forgot_password") { request, context in
            let outcome = try await state.forgotPasswordLink(
                userId: request.pathParameter("id", context: context),
                sendEmail: request.queryParameters.bool("sendEmail", default: true))
            return .json(Self.render(outcome))
        }
        routes.post("\(base)/unlock") { request, context in
            try await state.unlock(userId: request.pathParameter("id", context: context))
            return .json([:])
        }
        routes.post("\(base)/reset_factors") { request, context in
            try await state.resetFactors(userId: request.pathParameter("id", context: context))
            return .json([:])
        }
    }

    /// `expire_password` → the full user, now PASSWORD_EXPIRED; with the older `?tempPassword=true` form,
    /// `{"tempPassword"}` as `expire_password_with_temp_password` answers.
    @Sendable func expirePassword(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let id = request.pathParameter("id", context: context)
        if request.queryParameters.bool("tempPassword", default: false) {
            return .json(["tempPassword": .string(try await state.expirePasswordWithTempPassword(userId: id, revokeSessions: false))])
        }
        let user = try await state.expirePassword(userId: id)
        return .json(UserWire.render(user, orgURL: await state.orgURL, style: state.configuration.activationURLStyle))
    }

    /// `activate?sendEmail=` (default true): `{}` when e-mailed, else the token and URL.
    @Sendable func activate(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let outcome = try await state.activate(
            userId: request.pathParameter("id", context: context),
            sendEmail: request.queryParameters.bool("sendEmail", default: true))
        return .json(Self.render(outcome))
    }

    /// `reactivate?sendEmail=` (default false, unlike activate).
    @Sendable func reactivate(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let outcome = try await state.reactivate(
            userId: request.pathParameter("id", context: context),
            sendEmail: request.queryParameters.bool("sendEmail", default: false))
        return .json(Self.render(outcome))
    }

    /// `deactivate` → 200 `{}` (what Identity Engine orgs answer; Classic orgs answered 204).
    @Sendable func deactivate(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        try await state.deactivate(userId: request.pathParameter("id", context: context))
        return .json([:])
    }

    static func render(_ outcome: RecoveryLinkOutcome) -> OrderedJSON {
        switch outcome {
        case .emailed: return [:]
        case .url(let url): return ["resetPasswordUrl": .string(url)]
        }
    }

    static func render(_ outcome: ActivationOutcome) -> OrderedJSON {
        switch outcome {
        case .emailed: return [:]
        case .token(let token, let url): return ["activationUrl": .string(url), "activationToken": .string(token)]
        }
    }
}
