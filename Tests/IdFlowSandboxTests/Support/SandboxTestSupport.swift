import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import Testing

/// Runs `test` against a fresh sandbox (router-level by default, `.live` for real sockets).
func withSandbox(
    _ setup: TestingSetup = .router,
    configure: (inout SandboxConfiguration) -> Void = { _ in },
    _ test: @Sendable (SandboxClient) async throws -> Void
) async throws {
    var configuration = SandboxConfiguration()
    configure(&configuration)
    let state = SandboxState(configuration: configuration)
    let app = buildApplication(configuration: configuration, state: state)
    try await app.test(setup) { client in
        try await test(SandboxClient(client: client, state: state))
    }
}

/// One HTTP answer, with the body kept as text so the value stays `Sendable`.
struct Reply: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let text: String

    func header(_ name: String) -> String? {
        HTTPField.Name(name).flatMap { headers[$0] }
    }

    func headerValues(_ name: String) -> [String] {
        HTTPField.Name(name).map { headers[values: $0] } ?? []
    }

    /// The body as a JSON object; fails the test when it is not one.
    func object(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        return try #require(value as? [String: Any], "not a JSON object: \(text)", sourceLocation: sourceLocation)
    }

    /// The body as a JSON array of objects.
    func array(sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        return try #require(value as? [[String: Any]], "not a JSON array: \(text)", sourceLocation: sourceLocation)
    }

    /// The Okta error code and causes of an error body.
    func oktaError(sourceLocation: SourceLocation = #_sourceLocation) throws -> (code: String, summary: String, causes: [String]) {
        let body = try object(sourceLocation: sourceLocation)
        let causes = (body["errorCauses"] as? [[String: Any]] ?? []).compactMap { $0["errorSummary"] as? String }
        return (body["errorCode"] as? String ?? "", body["errorSummary"] as? String ?? "", causes)
    }

    /// Whether the first occurrences of these keys appear in this order in the body text.
    /// Used on keys that occur at the top level before any nested object repeats them.
    func keysAppearInOrder(_ keys: [String]) -> Bool {
        let offsets = keys.map { text.range(of: "\"\($0)\":")?.lowerBound }
        guard offsets.allSatisfy({ $0 != nil }) else { return false }
        return zip(offsets, offsets.dropFirst()).allSatisfy { $0! < $1! }
    }
}

/// A test client bound to one sandbox, with the management API token at hand.
struct SandboxClient: Sendable {
    let client: any TestClientProtocol
    let state: SandboxState

    var apiToken: String { state.apiToken }

    enum Auth: Sendable {
        /// `Authorization: SSWS <the sandbox token>`.
        case ssws
        /// No `Authorization` header.
        case none
        /// This exact header value.
        case header(String)
    }

    /// Sends a request; `json` is serialized as the body with `Content-Type: application/json`.
    func send(
        _ method: HTTPRequest.Method, _ path: String, json: Any? = nil, body: String? = nil,
        contentType: String? = nil, headers: HTTPFields = [:], auth: Auth = .ssws
    ) async throws -> Reply {
        var headers = headers
        switch auth {
        case .ssws: headers[.authorization] = "SSWS \(apiToken)"
        case .none: break
        case .header(let value): headers[.authorization] = value
        }
        var buffer: ByteBuffer?
        if let json {
            let data = try JSONSerialization.data(withJSONObject: json)
            buffer = ByteBuffer(bytes: data)
            headers[.contentType] = contentType ?? "application/json"
        } else if let body {
            buffer = ByteBuffer(string: body)
            if let contentType { headers[.contentType] = contentType }
        }
        let response = try await client.execute(uri: path, method: method, headers: headers, body: buffer)
        return Reply(status: response.status, headers: response.headers, text: String(buffer: response.body))
    }

    /// Sends a form-encoded POST (OAuth endpoints).
    func postForm(_ path: String, _ fields: [(String, String)], headers: HTTPFields = [:]) async throws -> Reply {
        let body = fields.map { "\(formEscape($0.0))=\(formEscape($0.1))" }.joined(separator: "&")
        return try await send(
            .post, path, body: body, contentType: "application/x-www-form-urlencoded", headers: headers, auth: .none)
    }

    // MARK: Registration steps

    /// `POST /api/v1/users`; expects 200 and returns the user object.
    @discardableResult
    func createUser(
        email: String, firstName: String? = "Ada", lastName: String? = "Lovelace", password: String? = nil,
        activate: Bool = false, extraProfile: [String: Any] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [String: Any] {
        var profile: [String: Any] = ["email": email]
        if let firstName { profile["firstName"] = firstName }
        if let lastName { profile["lastName"] = lastName }
        profile.merge(extraProfile) { $1 }
        var body: [String: Any] = ["profile": profile]
        if let password { body["credentials"] = ["password": ["value": password]] }
        let reply = try await send(.post, "/api/v1/users?activate=\(activate)", json: body)
        #expect(reply.status == .ok, "create user: \(reply.text)", sourceLocation: sourceLocation)
        return try reply.object(sourceLocation: sourceLocation)
    }

    /// Activates without e-mail and returns the activation token.
    func activationToken(userId: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let reply = try await send(.post, "/api/v1/users/\(userId)/lifecycle/activate?sendEmail=false")
        #expect(reply.status == .ok, "activate: \(reply.text)", sourceLocation: sourceLocation)
        return try #require(try reply.object()["activationToken"] as? String, sourceLocation: sourceLocation)
    }

    /// Redeems an activation token; returns the PASSWORD_RESET state token.
    func stateToken(activationToken: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let reply = try await send(.post, "/api/v1/authn", json: ["token": activationToken], auth: .none)
        #expect(reply.status == .ok, "authn token: \(reply.text)", sourceLocation: sourceLocation)
        return try #require(try reply.object()["stateToken"] as? String, sourceLocation: sourceLocation)
    }

    /// The whole registration chain; returns the user id and the session token of the final SUCCESS.
    func registerActiveUser(
        email: String, password: String = "Correct-Horse-7", sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (userId: String, sessionToken: String) {
        let user = try await createUser(email: email, sourceLocation: sourceLocation)
        let userId = try #require(user["id"] as? String, sourceLocation: sourceLocation)
        let token = try await activationToken(userId: userId, sourceLocation: sourceLocation)
        let stateToken = try await stateToken(activationToken: token, sourceLocation: sourceLocation)
        let reply = try await send(
            .post, "/api/v1/authn/credentials/reset_password",
            json: ["stateToken": stateToken, "newPassword": password], auth: .none)
        #expect(reply.status == .ok, "reset_password: \(reply.text)", sourceLocation: sourceLocation)
        let sessionToken = try #require(try reply.object()["sessionToken"] as? String, sourceLocation: sourceLocation)
        return (userId, sessionToken)
    }

    /// Moves the sandbox clock through the admin API.
    func advanceClock(seconds: Int) async throws {
        let reply = try await send(.post, "/sandbox/clock", json: ["advanceSeconds": seconds])
        #expect(reply.status == .ok)
    }
}

func formEscape(_ string: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return string.addingPercentEncoding(withAllowedCharacters: allowed) ?? string
}

/// Every key path in a JSON value (`_embedded.user.profile.login`; array elements as `[]`),
/// so contract tests compare nested shapes, not only the top level.
func keyPaths(_ value: Any, prefix: String = "") -> Set<String> {
    var paths: Set<String> = []
    if let object = value as? [String: Any] {
        for (key, child) in object {
            let path = prefix.isEmpty ? key : "\(prefix).\(key)"
            paths.insert(path)
            paths.formUnion(keyPaths(child, prefix: path))
        }
    } else if let array = value as? [Any] {
        for element in array { paths.formUnion(keyPaths(element, prefix: "\(prefix)[]")) }
    }
    return paths
}
