import Hummingbird

/// Counts each request against its endpoint family's window and answers 429 E0000047 once the
/// family's limit is spent. The `X-Rate-Limit-*` headers themselves are added by
/// `OktaResponseMiddleware`, so errors and faults carry them too.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext

    let state: SandboxState

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let family = RateLimitFamily(path: request.uri.path),
            await state.consumeRateLimit(family).exceeded
        {
            throw OktaErrorResponse.rateLimited
        }
        return try await next(request, context)
    }
}
