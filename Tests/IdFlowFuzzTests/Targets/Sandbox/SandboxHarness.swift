import Foundation
import HTTPTypes
import Hummingbird
import IdFlowCore
import IdFlowFoundation
import Logging
import NIOCore
import NIOEmbedded

@testable import IdFlowSandbox

/// One sandbox for a fuzzing process, answering requests through its real router (middleware, routes, error
/// shaping) without a socket: what a test or a peer sends reaches the same code as over HTTP.
///
/// Its state lives as long as the process, as a long-running sandbox's does, with one ACTIVE user
/// (`fuzz@example.com`, password `Fuzz-Passw0rd!`) made at start; `{user}` in a request's path is that user's id.
final class SandboxHarness: Sendable {
    static let login = "fuzz@example.com"
    static let password = "Fuzz-Passw0rd!"

    let state: SandboxState
    let responder: RouterResponder<SandboxRequestContext>
    let logger = Logger(label: "idflow-fuzz", factory: { _ in SwiftLogNoOpLogHandler() })
    let userID: String

    init() {
        let state = SandboxState(configuration: SandboxConfiguration())
        self.state = state
        responder = buildRouter(state: state).buildResponder()
        let responder = self.responder
        let logger = logger
        let created = Locked<String>("")
        blocking {
            let body =
                #"{"profile":{"login":"fuzz@example.com","email":"fuzz@example.com","firstName":"Fuzz","lastName":"Er"},"credentials":{"password":{"value":"Fuzz-Passw0rd!"}}}"#
            let answer = await Self.send(
                responder, logger: logger, apiToken: state.apiToken,
                request: RawRequest(method: .post, path: "/api/v1/users?activate=true", headers: [:], body: Data(body.utf8)))
            let id = (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["id"] as? String
            created.withLock { $0 = id ?? "" }
        }
        userID = created.withLock { $0 }
    }

    /// A request as the fuzzer wrote it: `METHOD /path?query`, header lines, a blank line, the body.
    struct RawRequest {
        var method: HTTPRequest.Method
        var path: String
        var headers: [String: String]
        var body: Data

        init(method: HTTPRequest.Method, path: String, headers: [String: String], body: Data) {
            self.method = method
            self.path = path
            self.headers = headers
            self.body = body
        }

        init?(_ input: Data) {
            guard let newline = input.firstIndex(of: 0x0A) ?? (input.isEmpty ? nil : input.endIndex) else { return nil }
            let line = String(decoding: input[input.startIndex..<newline], as: UTF8.self).split(separator: " ", maxSplits: 1)
            guard line.count == 2, let method = HTTPRequest.Method(String(line[0])), line[1].hasPrefix("/") else { return nil }
            self.method = method
            path = String(line[1])
            headers = [:]
            body = Data()
            var rest = newline < input.endIndex ? input[input.index(after: newline)...] : Data()[...]
            while let end = rest.firstIndex(of: 0x0A) {
                let text = String(decoding: rest[rest.startIndex..<end], as: UTF8.self)
                rest = rest[rest.index(after: end)...]
                guard let colon = text.firstIndex(of: ":") else { break }
                headers[String(text[..<colon])] = String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            }
            body = Data(rest)
        }
    }

    struct Answer {
        var status: HTTPResponse.Status
        var body: Data
    }

    /// Sends `input` when it names a path under one of `prefixes`; `{user}` becomes the prepared user's id.
    func send(_ input: Data, prefixes: [String]) {
        guard var request = RawRequest(input) else { return }
        request.path = request.path.replacingOccurrences(of: "{user}", with: userID)
        guard prefixes.contains(where: { request.path.hasPrefix($0) }) else { return }
        let responder = responder
        let logger = logger
        let apiToken = state.apiToken
        let ready = request
        blocking {
            _ = await Self.send(responder, logger: logger, apiToken: apiToken, request: ready)
        }
    }

    private static func send(
        _ responder: RouterResponder<SandboxRequestContext>, logger: Logger, apiToken: String, request: RawRequest
    ) async -> Answer {
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        fields[.accept] = "application/json"
        if request.path.hasPrefix("/api/v1/users") { fields[.authorization] = "SSWS \(apiToken)" }
        for (name, value) in request.headers {
            guard let name = HTTPField.Name(name) else { continue }
            fields[name] = value.replacingOccurrences(of: "{apiToken}", with: apiToken)
        }
        let head = HTTPRequest(
            method: request.method, scheme: "http", authority: "127.0.0.1:8080", path: request.path, headerFields: fields)
        let hummingbirdRequest = Request(head: head, body: .init(buffer: ByteBuffer(bytes: request.body)))
        let channel = EmbeddedChannel()
        // Closed after each request, as the server closes a connection: an open one keeps its pipeline alive.
        defer { _ = try? channel.finish() }
        let context = SandboxRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
        do {
            let response = try await responder.respond(to: hummingbirdRequest, context: context)
            let collected = Locked(ByteBuffer())
            try await response.body.write(CollectingWriter(sink: collected))
            return Answer(status: response.status, body: collected.withLock { Data($0.readableBytesView) })
        } catch {
            return Answer(status: .internalServerError, body: Data())
        }
    }
}

/// Gathers a response body the way the server would write it to the socket.
private struct CollectingWriter: ResponseBodyWriter {
    let sink: Locked<ByteBuffer>

    mutating func write(_ buffer: ByteBuffer) async throws {
        sink.withLock { collected in
            var buffer = buffer
            collected.writeBuffer(&buffer)
        }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
