import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The outermost middleware: turns every error into an Okta- or OAuth-shaped body and gives every
/// response the headers real orgs send (`x-okta-request-id`, `Cache-Control: no-cache, no-store`,
/// `Date`, `X-Rate-Limit-*`), whichever route, fault or error produced it.
struct OktaResponseMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext

    let state: SandboxState

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            response = try Self.render(error, request: request, context: context)
        }
        if response.headers[.oktaRequestID] == nil {
            response.headers[.oktaRequestID] = RandomToken.requestID()
        }
        if response.headers[.cacheControl] == nil {
            response.headers[.cacheControl] = "no-cache, no-store"
            response.headers[.pragma] = "no-cache"
            response.headers[.expires] = "0"
        }
        // On a live server `SandboxDateHeaderHandler` writes the final Date (Hummingbird replaces this one with
        // real time); setting it here makes router tests see the sandbox clock as well.
        response.headers[.date] = Timestamps.httpDate(state.clock.now)
        if response.headers[.rateLimitLimit] == nil {
            // Admin routes are never limited; they report the "other" family's headers.
            let status = await state.rateLimitStatus(RateLimitFamily(path: request.uri.path) ?? .other)
            response.headers[.rateLimitLimit] = String(status.limit)
            response.headers[.rateLimitRemaining] = String(status.remaining)
            // Said on the sandbox clock, as the window runs and as Date is written: a client reads the reset
            // against the Date header, so reset − Date is its wait.
            response.headers[.rateLimitReset] = String(status.reset)
        }
        return response
    }

    /// The wire form of an error thrown anywhere below: our own error types render themselves;
    /// Hummingbird's (an unknown route, an oversized body) and unexpected ones get an Okta body,
    /// never Hummingbird's default `{"error":{"message"}}`.
    static func render(_ error: any Error, request: Request, context: Context) throws -> Response {
        switch error {
        case let error as OktaErrorResponse:
            return try error.response(from: request, context: context)
        case let error as OAuthErrorResponse:
            return try error.response(from: request, context: context)
        case let error as DirectAuthError:
            return try error.response(from: request, context: context)
        case let error as ResourceChallenge:
            return try error.response(from: request, context: context)
        case let error as OktaResourceChallenge:
            return try error.response(from: request, context: context)
        case let error as HTTPError where error.status == .notFound:
            return try OktaErrorResponse.notFound(request.uri.path, type: "Route").response(from: request, context: context)
        case let error as HTTPError where error.status == .contentTooLarge:
            return try OktaErrorResponse.malformedBody.response(from: request, context: context)
        case let error as any HTTPResponseError:
            return try OktaErrorResponse(error.status, "E0000009", error.status.reasonPhrase)
                .response(from: request, context: context)
        default:
            context.logger.error("unexpected error", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            return try OktaErrorResponse.internalError(String(describing: type(of: error)))
                .response(from: request, context: context)
        }
    }
}
