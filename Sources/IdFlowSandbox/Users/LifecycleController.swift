import Hummingbird

/// `/api/v1/users/{id}/lifecycle/*`: the status machine of okta-core.md §B.
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

    static func render(_ outcome: ActivationOutcome) -> JSONValue {
        switch outcome {
        case .emailed: return [:]
        case .token(let token, let url): return ["activationUrl": .string(url), "activationToken": .string(token)]
        }
    }
}
