import HTTPTypes
import Hummingbird

/// Answers matching requests with a scripted fault (see `POST /sandbox/faults`) instead of the
/// real handler. It sits before rate limiting, so a faulted request never counts against a limit.
struct FaultMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext

    let state: SandboxState

    /// Thrown by a dropped response's body so the server closes the connection mid-response.
    struct ConnectionDropped: Error {}

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard !path.hasPrefix("/sandbox"),
            let fault = await state.takeFault(path: path, method: request.method.rawValue)
        else { return try await next(request, context) }

        if fault.hold {
            let state = state
            let limit = Task {
                try await Task.sleep(for: Fault.holdLimit)
                await state.releaseHeldRequests(fault: fault.id)
            }
            await state.holdRequest(fault: fault.id)
            limit.cancel()
        }
        if fault.delayMs > 0 {
            try await Task.sleep(for: .milliseconds(fault.delayMs))
        }
        var headers: HTTPFields = [.contentType: fault.contentType]
        for (name, value) in fault.headers.sorted(by: { $0.key < $1.key }) {
            if let name = HTTPField.Name(name) { headers[name] = value }
        }
        let status = HTTPResponse.Status(code: fault.status ?? 200)
        if fault.dropConnection {
            // Promise more bytes than are sent, then fail the body: the server closes the
            // connection and the client sees a truncated response, i.e. a network error.
            headers[.contentLength] = "4096"
            return Response(
                status: status, headers: headers,
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "{\"truncated\":"))
                    throw ConnectionDropped()
                })
        }
        guard fault.status != nil else { return try await next(request, context) }
        let chunk = ByteBuffer(string: fault.body)
        guard fault.bodyRepeat > 1 else { return Response(status: status, headers: headers, body: .init(byteBuffer: chunk)) }
        return Response(
            status: status, headers: headers,
            body: ResponseBody { writer in
                for _ in 0..<fault.bodyRepeat { try await writer.write(chunk) }
                try await writer.finish(nil)
            })
    }
}
