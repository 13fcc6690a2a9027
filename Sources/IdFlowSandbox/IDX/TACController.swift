import Hummingbird

/// `POST /api/v1/users/{userId}/authenticator-enrollments/tac` (SSWS, as every `/api/v1` route): Okta's "Create an
/// auto-activated TAC authenticator enrollment", the call an admin or a help desk makes to give a user a Temporary
/// Access Code. The answer holds the code, the only place it ever appears; the Identity Engine then offers `tac` to
/// that user at sign-in until the code expires (sandbox clock) or, single-use, is used.
struct TACController {
    let state: SandboxState

    func register(in routes: RouteRegistry) {
        routes.post("/api/v1/users/:id/authenticator-enrollments/tac", use: create)
        routes.delete("/api/v1/users/:id/authenticator-enrollments/:enrollmentId", use: delete)
    }

    /// `DELETE /api/v1/users/{userId}/authenticator-enrollments/{enrollmentId}` for the user's TAC ("Delete an
    /// authenticator enrollment", as the guide deletes a TAC) → 204, and the code stops working; 404 E0000007 for
    /// any other enrollment id (the sandbox deletes no other enrollment this way).
    @Sendable func delete(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        try await state.deleteTAC(
            userIdOrLogin: request.pathParameter("id", context: context),
            enrollmentId: request.pathParameter("enrollmentId", context: context))
        return Response(status: .noContent)
    }

    /// → 200 and the enrollment with `profile.tac`; 404 E0000007 for an unknown user, 400 E0000001 for a `ttl` out of
    /// range or another authenticator's id.
    @Sendable func create(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        var request = request
        let id = request.pathParameter("id", context: context)
        let body = try await request.decodeJSONBody(TACRequest.self, context: context) ?? TACRequest()
        let (enrollment, userId) = try await state.createTAC(userIdOrLogin: id, request: body)
        return .json(enrollment.rendered(userId: userId, orgURL: await state.orgURL))
    }
}
