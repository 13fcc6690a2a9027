import Foundation
import IdFlowFoundation

/// `idflow api`: calls a protected resource as the app does. The profile's access token is sent (refreshed first
/// when it expires within `clockSkew`); a 401 on a token that looked valid gets one refresh and one retry; a 401
/// whose RFC 9728 metadata names other issuers stops with the issuer to log in to, the token sent nowhere else.
public struct CallResource: Sendable {
    /// Where the request body comes from (`--data`).
    public enum Body: Sendable, Equatable {
        /// The text itself (JSON, unless a `Content-Type` header says otherwise).
        case inline(String)
        /// `@FILE`.
        case file(String)
        /// `@-`.
        case standardInput

        /// `--data`'s grammar: `@-` is stdin, `@FILE` a file, anything else the body itself.
        public init(argument: String) {
            if argument == "@-" {
                self = .standardInput
            } else if argument.hasPrefix("@") {
                self = .file(String(argument.dropFirst()))
            } else {
                self = .inline(argument)
            }
        }
    }

    public var url: String
    /// `-X`; default GET, or POST with a body.
    public var method: String?
    /// `-H 'Name: value'`, in order (a later one replaces an earlier one of the same name).
    public var headers: [String]
    public var body: Body?
    /// `--include`: print `{"status", "headers", "body"}`.
    public var include: Bool
    /// `--raw`: print a body that is not JSON as it came.
    public var raw: Bool
    /// False with `--no-refresh`: the stored token is sent as it is and a 401 is final.
    public var refresh: Bool

    /// How close to its expiry a stored access token is refreshed before it is sent: a token that ends within
    /// this many seconds may be dead by the time the resource checks it, on a clock that is a little ahead.
    public static let clockSkew: TimeInterval = 60
    /// Redirects followed before giving up.
    public static let maxRedirects = 5
    /// Headers the stored token would be bypassed by (or that DPoP owns); refused rather than sent.
    static let reservedHeaders: Set<String> = ["authorization", "dpop"]

    public init(
        url: String, method: String? = nil, headers: [String] = [], body: Body? = nil, include: Bool = false, raw: Bool = false,
        refresh: Bool = true
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.include = include
        self.raw = raw
        self.refresh = refresh
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> ResourceOutput {
        var request = try prepare(context)
        let tokenOrigin = Origin(request.url)
        var access = try await ProfileAccess.load(context, refreshing: refresh ? .whenStale(minimumTTL: Self.clockSkew) : nil)
        var token: AccessTokenPresentation?
        if let access { token = try access.presentation() }
        request.presentation = token
        var answer = try await exchange(request, tokenOrigin: tokenOrigin, token: token, context)
        var retried = false
        while answer.response.status == 401, answer.carriedToken || token == nil {
            let challenge = BearerChallenge.bearer(in: answer.response.header("WWW-Authenticate"))
            // RFC 9728: the resource says which issuers it trusts; a token of another one is not worth refreshing,
            // and the person needs to know where to log in.
            if let metadata = try await metadata(named: challenge, for: answer.request.url, context) {
                let issuer = access?.issuer.absoluteString ?? (try? context.configuration.requireIssuer())?.absoluteString
                if access == nil || !metadata.trusts(issuer: issuer ?? "") {
                    throw refusal(answer, challenge: challenge, metadata: metadata, profileIssuer: access?.issuer.absoluteString, context)
                }
            }
            guard var current = access, let sent = token, refresh, !retried else { break }
            retried = true
            context.message(
                "\(Redactor.url(answer.request.url.absoluteString)) refused the access token (HTTP 401); refreshing once and retrying")
            try await current.refresh(context, condition: .whenStale(minimumTTL: Self.clockSkew, refused: sent.token))
            access = current
            token = try current.presentation()
            request.presentation = token
            answer = try await exchange(request, tokenOrigin: tokenOrigin, token: token, context)
        }
        guard answer.response.isSuccess else { throw failure(answer, access: access, retried: retried, context) }
        let rendered = try Self.render(answer.response, raw: raw)
        if include { return .document(Self.document(answer.response, body: rendered.json)) }
        return .body(rendered.bytes, rendered.json)
    }

    // MARK: The request

    /// The first request, checked before anything is read from the store or sent.
    func prepare(_ context: IdFlowContext) throws(IdFlowError) -> ResourceRequest {
        guard let target = URL(string: url), let scheme = target.scheme?.lowercased(), ["http", "https"].contains(scheme),
            target.host?.isEmpty == false
        else {
            throw .invalidInput(
                "\(url) is not an absolute http(s) URL", hint: "give the API's full URL, e.g. https://api.example.com/v1/me")
        }
        try TransportSecurity.check(target)
        var fields: [String: String] = [:]
        for header in headers {
            let (name, value) = try Self.parseHeader(header)
            fields = fields.filter { $0.key.lowercased() != name.lowercased() }
            fields[name] = value
        }
        let names = Set(fields.keys.map { $0.lowercased() })
        if !names.contains("accept") { fields["Accept"] = raw ? "*/*" : "application/json" }
        var data: Data?
        if let body {
            let bytes = try read(body, context)
            // Without a content type of the user's, the body is JSON, and is checked before it is sent.
            if !names.contains("content-type") {
                guard (try? JSONValue(parsing: bytes)) != nil else {
                    throw .invalidInput(
                        "the --data body is not JSON", hint: "give a JSON document, or say what it is with -H 'Content-Type: …'")
                }
                fields["Content-Type"] = "application/json"
            }
            data = bytes
        }
        let verb = method?.uppercased() ?? (body == nil ? "GET" : "POST")
        guard !verb.isEmpty, verb.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) else {
            throw .invalidInput("\(method ?? "") is not an HTTP method", hint: "e.g. -X POST")
        }
        return ResourceRequest(method: verb, url: target, headers: fields, body: data, presentation: nil)
    }

    /// `Name: value` → its parts; `Authorization` and `DPoP` are refused, because the token is the stored login's.
    static func parseHeader(_ header: String) throws(IdFlowError) -> (String, String) {
        guard let colon = header.firstIndex(of: ":") else {
            throw .invalidInput("-H \(header.prefix(40)) is not `Name: value`", hint: "e.g. -H 'X-Request-Id: 42'")
        }
        let name = header[..<colon].trimmingCharacters(in: .whitespaces)
        let value = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        let tokenCharacters = CharacterSet(charactersIn: "!#$%&'*+-.^_`|~").union(.alphanumerics)
        // By Unicode scalar, not Character: "\r\n" is one Character, equal to neither "\r" nor "\n".
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({ tokenCharacters.contains($0) && $0.isASCII }),
            !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" })
        else {
            throw .invalidInput("-H \(name.prefix(40)): the header name or value is not valid", hint: "e.g. -H 'X-Request-Id: 42'")
        }
        guard !reservedHeaders.contains(name.lowercased()) else {
            throw .invalidInput(
                "-H \(name): idflow sends the profile's own access token and will not send another one in its place",
                hint:
                    "drop -H \(name); choose the login with --profile, or send a token of your own with curl: `curl -H \"Authorization: Bearer $(idflow token get | jq -r .access_token)\" URL`"
            )
        }
        return (name, value)
    }

    private func read(_ body: Body, _ context: IdFlowContext) throws(IdFlowError) -> Data {
        switch body {
        case .inline(let text):
            return Data(text.utf8)
        case .file(let path):
            guard let data = InputFile.read(path, environment: context.secrets.environment) else {
                throw .invalidInput(
                    "cannot read the --data file \(path)", hint: InputFile.whyUnreadable(path, environment: context.secrets.environment))
            }
            return data
        case .standardInput:
            return context.secrets.readStandardInput()
        }
    }

    // MARK: Sending

    /// The final answer of one request and the redirects it led to, and whether that answer came back to a
    /// request that carried the token.
    struct Answer {
        var request: ResourceRequest
        var response: HTTPResponse
        var carriedToken: Bool { request.presentation != nil }
    }

    /// Sends `request`, following redirects: the token goes only to `tokenOrigin`, so a redirect to another origin
    /// is followed without it (and a redirect from there back, with it again).
    func exchange(
        _ request: ResourceRequest, tokenOrigin: Origin?, token: AccessTokenPresentation?, _ context: IdFlowContext
    ) async throws(IdFlowError) -> Answer {
        var current = request
        var hops = 0
        while true {
            let response = try await context.http.send(current)
            guard [301, 302, 303, 307, 308].contains(response.status), let location = response.header("Location"),
                let next = URL(string: location, relativeTo: current.url)?.absoluteURL
            else { return Answer(request: current, response: response) }
            hops += 1
            guard hops <= Self.maxRedirects else {
                throw .resource(
                    ResourceFailure(
                        status: response.status, url: Redactor.url(request.url.absoluteString),
                        message: "\(Redactor.url(request.url.absoluteString)) redirected more than \(Self.maxRedirects) times",
                        hint: "call the final URL directly"))
            }
            let following = current.redirected(status: response.status, to: next, tokenOrigin: tokenOrigin, token: token)
            if token != nil, following.presentation == nil, current.presentation != nil {
                context.message(
                    "following the redirect to \(Redactor.url(next.absoluteString)) without the access token: it is another origin")
            }
            current = following
        }
    }

    // MARK: RFC 9728

    /// The metadata a 401's challenge points at, when it speaks for `url`; nil when there is none or it cannot
    /// be read (then idflow goes on as without it). A document for another resource is refused (exit 13).
    func metadata(named challenge: BearerChallenge?, for url: URL, _ context: IdFlowContext) async throws(IdFlowError)
        -> ProtectedResourceMetadata?
    {
        guard let location = challenge?.resourceMetadata, let metadataURL = URL(string: location, relativeTo: url)?.absoluteURL else {
            return nil
        }
        let metadata: ProtectedResourceMetadata
        do throws(IdFlowError) {
            metadata = try await context.http.send(ProtectedResourceMetadataRequest(url: metadataURL))
        } catch {
            if case .insecureURL = error { throw error }
            context.notice(
                "warning: the resource's metadata at \(Redactor.url(metadataURL.absoluteString)) could not be read: \(error.message)")
            return nil
        }
        guard metadata.describes(url) else {
            throw .security(
                "the metadata at \(Redactor.url(metadataURL.absoluteString)) is for the resource \(metadata.resource), not for \(Redactor.url(url.absoluteString)); its authorization servers are not trusted",
                hint: "the resource's resource_metadata points at another resource's document; tell the API's owners")
        }
        return metadata
    }

    /// Exit 4 naming the issuer to log in to: nothing is stored, or the stored login's issuer is not one the
    /// resource trusts.
    func refusal(
        _ answer: Answer, challenge: BearerChallenge?, metadata: ProtectedResourceMetadata, profileIssuer: String?, _ context: IdFlowContext
    ) -> IdFlowError {
        let place = Redactor.url(answer.request.url.absoluteString)
        let configured = (try? context.configuration.requireIssuer())?.absoluteString
        // The configured issuer when the resource trusts it, else the first it names that is an issuer at all.
        let issuer =
            configured.flatMap { metadata.trusts(issuer: $0) ? $0 : nil }
            ?? metadata.authorizationServers.first(where: SuggestedValue.isIssuer)
        let listed =
            metadata.authorizationServers.isEmpty ? "no authorization server" : metadata.authorizationServers.joined(separator: ", ")
        let message: String
        if let profileIssuer {
            message =
                "\(place) takes tokens from \(listed), not from \(profileIssuer), where profile \(context.configuration.profile) logged in; the token was not sent anywhere else"
        } else {
            message = "nothing is stored for profile \(context.configuration.profile), and \(place) takes tokens from \(listed)"
        }
        return .resource(
            ResourceFailure(
                status: answer.response.status, url: place, message: message,
                hint: issuer.map { ProfileAccess.loginHint(issuer: $0, context) }
                    ?? (metadata.authorizationServers.isEmpty
                        ? "the resource names no authorization server; ask its owners where its tokens come from"
                        : "the resource names no authorization server that is an https issuer URL; ask its owners where its tokens come from"),
                errorCode: challenge?.error, errorDescription: challenge?.errorDescription,
                document: include ? Self.document(answer.response, body: Self.lenientBody(answer.response)) : nil))
    }

    // MARK: Answers

    /// The failure a final non-2xx answer stands for, with what to do about it.
    func failure(_ answer: Answer, access: ProfileAccess?, retried: Bool, _ context: IdFlowContext) -> IdFlowError {
        let response = answer.response
        let place = Redactor.url(answer.request.url.absoluteString)
        let challenge = BearerChallenge.bearer(in: response.header("WWW-Authenticate"))
        let bodyError = Self.bodyError(response)
        let code = challenge?.error ?? bodyError?.code
        let description = challenge?.errorDescription ?? bodyError?.description
        let detail = [code, description].compactMap { $0 }.joined(separator: ": ")
        let said = detail.isEmpty ? (response.body.isEmpty ? "" : ": \(response.snippet)") : " (\(detail))"
        var message = "\(place) answered HTTP \(response.status)\(said)"
        var hint: String?
        let issuer = access?.issuer.absoluteString ?? (try? context.configuration.requireIssuer())?.absoluteString
        switch response.status {
        case 401:
            if access == nil {
                message =
                    "nothing is stored for profile \(context.configuration.profile), and \(place) wants a token (HTTP 401\(detail.isEmpty ? "" : ": \(detail)"))"
                hint = issuer.map { ProfileAccess.loginHint(issuer: $0, context) } ?? "log in first with `idflow login-pkce`"
            } else if !answer.carriedToken {
                message = "\(place) answered HTTP 401\(said); it is another origin than the URL called, so the token was not sent there"
            } else if !refresh {
                hint = "run without --no-refresh to refresh and retry once, or run `idflow refresh` first"
            } else {
                message =
                    "\(place) refused the access token\(retried ? " again after a refresh" : "") (HTTP 401\(detail.isEmpty ? "" : ": \(detail)"))"
                hint = issuer.map { ProfileAccess.loginHint(issuer: $0, context) }
            }
        case 403:
            if code == "insufficient_scope", let scope = challenge?.scope {
                message = "\(place) needs the scope \(scope), which the access token does not have (HTTP 403 insufficient_scope)"
                let granted = access?.tokens.response.scope ?? context.configuration.scope
                let wanted = (granted.split(separator: " ").map(String.init) + scope.split(separator: " ").map(String.init))
                    .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.joined(separator: " ")
                hint = issuer.map { ProfileAccess.loginHint(issuer: $0, context, scope: wanted) }
            } else {
                hint = "the user or client is not allowed this call; the resource decides who may"
            }
        case 300...399:
            message = "\(place) answered HTTP \(response.status) with no usable Location; the redirect was not followed"
        default:
            break
        }
        return .resource(
            ResourceFailure(
                status: response.status, url: place, message: message, hint: hint, errorCode: code, errorDescription: description,
                document: include ? Self.document(response, body: Self.lenientBody(response)) : nil))
    }

    /// An OAuth (`error`) or Okta (`errorCode`) error body's code and description.
    static func bodyError(_ response: HTTPResponse) -> (code: String, description: String?)? {
        guard response.looksLikeJSON, let document = try? JSONValue(parsing: response.body) else { return nil }
        if let code = document["error"]?.stringValue { return (code, document["error_description"]?.stringValue) }
        if let code = document["errorCode"]?.stringValue { return (code, document["errorSummary"]?.stringValue) }
        return nil
    }

    /// The body to print: JSON as the server sent it (a newline added), other bodies as they came with `--raw`.
    static func render(_ response: HTTPResponse, raw: Bool) throws(IdFlowError) -> (bytes: Data, json: JSONValue) {
        if response.body.isEmpty { return (Data(), .null) }
        if let document = try? JSONValue(parsing: response.body) {
            var bytes = response.body
            if bytes.last != 0x0A { bytes.append(0x0A) }
            return (bytes, document)
        }
        guard raw else {
            throw .invalidInput(
                "\(Redactor.url(response.url.absoluteString)) answered HTTP \(response.status) with a body that is not JSON (\(response.contentType ?? "no content type"), \(response.body.count) bytes); it was not printed",
                hint: "add --raw to print it as it came")
        }
        return (response.body, String(data: response.body, encoding: .utf8).map(JSONValue.string) ?? .null)
    }

    /// A failed answer's body for `--include`: JSON, else its text, else null.
    static func lenientBody(_ response: HTTPResponse) -> JSONValue {
        if response.body.isEmpty { return .null }
        if let document = try? JSONValue(parsing: response.body) { return document }
        return String(data: response.body, encoding: .utf8).map(JSONValue.string) ?? .null
    }

    static func document(_ response: HTTPResponse, body: JSONValue) -> ResourceResponseDocument {
        ResourceResponseDocument(status: response.status, headers: response.headers, body: body)
    }
}

/// What `api` prints: the body as it came, or with `--include` the whole answer as a document.
public enum ResourceOutput: Encodable, Sendable, RawStandardOutput {
    /// The bytes to print as they are, and the same body as JSON (null when empty, a string for text).
    case body(Data, JSONValue)
    case document(ResourceResponseDocument)

    public var standardOutputBytes: Data? {
        if case .body(let bytes, _) = self { return bytes }
        return nil
    }

    /// The answer as JSON (the demo reads it).
    public var json: JSONValue {
        switch self {
        case .body(_, let json): return json
        case .document(let document): return (try? JSONValue(encoding: document)) ?? .null
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .body(_, let json): try json.encode(to: encoder)
        case .document(let document): try document.encode(to: encoder)
        }
    }
}
