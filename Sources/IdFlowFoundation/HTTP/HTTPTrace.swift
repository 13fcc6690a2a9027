import Foundation

/// Writes the `--verbose` trace: one block per attempt, secrets masked by `Redactor`.
public struct HTTPTrace: Sendable {
    private let write: @Sendable (String) -> Void

    public init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    package func request(_ request: HTTPRequest, attempt: Int) {
        var lines = [
            "> \(request.method) \(Redactor.url(request.url.absoluteString))\(attempt > 1 ? " (attempt \(attempt))" : "")"
        ]
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            lines.append("> \(name): \(Redactor.header(name: name, value: value))")
        }
        if let body = request.body, !body.isEmpty {
            lines.append("> " + Redactor.body(body, contentType: request.header("Content-Type"), url: request.url.absoluteString))
        }
        write(lines.joined(separator: "\n"))
    }

    func response(_ response: HTTPResponse, elapsed: Duration) {
        let millis = Int(elapsed.inSeconds * 1000)
        var lines = ["< \(response.status) \(Redactor.url(response.url.absoluteString)) (\(millis) ms)"]
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
            lines.append("< \(name): \(Redactor.header(name: name, value: value))")
        }
        if !response.body.isEmpty {
            lines.append("< " + Redactor.body(response.body, contentType: response.contentType, url: response.url.absoluteString))
        }
        write(lines.joined(separator: "\n"))
    }

    func failure(_ url: URL, reason: String, elapsed: Duration) {
        write("< \(Redactor.url(url.absoluteString)) failed after \(elapsed.components.seconds) s: \(reason)")
    }

    func note(_ message: String) {
        write("* " + message)
    }
}
