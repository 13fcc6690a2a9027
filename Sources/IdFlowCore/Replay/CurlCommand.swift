import Foundation
import IdFlowFoundation

/// One request as a curl command, its secrets replaced by variables of `ReplayBindings`.
///
/// Nothing secret is ever a program's argument: a secret header goes through `-H @<(printf …)`, a URL that
/// carries one through `-K <(printf …)`, a body that carries one is built by `jq` from `$ENV` and piped in.
/// Everything else (URLs, header values, JSON a server chose) is single-quoted by `ShellWord`. A value read
/// from an answer reaches a config or header line only once the script has refused any that could break out.
struct CurlCommand {
    var step: Int
    var method: String
    var url: URL
    var headers: [(String, String)]
    var body: Data?
    /// curl options for a company network (`--cacert`, `--cert`, `--key`, `--proxy`), already quoted.
    var transportArguments: [String]

    /// The command text; binds every secret it meets (declaring the new ones) in `bindings`.
    func render(_ bindings: inout ReplayBindings) -> String {
        var lines: [String] = []
        var pipedBody: String?
        var arguments: [String] = ["curl -sS"]
        let hasBody = body.map { !$0.isEmpty } ?? false
        if method != "GET" || hasBody { arguments.append("-X " + ShellWord.quote(method)) }
        let urlText = url.absoluteString
        let urlSegments = Self.urlSegments(urlText, bindings: &bindings)
        // Only a URL that carries a secret goes through `-K` (kept out of `ps`); any other is one argv word, which
        // no value in it can turn into more options.
        let carriesSecret = urlSegments.contains { segment in
            if case .variable(let name) = segment { !bindings.notSecret.contains(name) } else { false }
        }
        // The variables this request splices into a config or a header file.
        var spliced: [String] = []
        if !carriesSecret {
            arguments.append(ShellWord.word(urlSegments))
        } else {
            arguments.append(Self.config("url", urlSegments))
            spliced += urlSegments.compactMap { if case .variable(let name) = $0 { name } else { nil } }
        }
        for (name, value) in headers.sorted(by: { $0.0.lowercased() < $1.0.lowercased() }) {
            let header = Self.header(name: name, value: value, url: urlText, bindings: &bindings)
            arguments.append(header.argument)
            if let variable = header.variable { spliced.append(variable) }
        }
        arguments += transportArguments
        if let body, hasBody {
            let contentType = headers.first { $0.0.lowercased() == "content-type" }?.1
            switch Self.body(body, contentType: contentType, url: urlText, bindings: &bindings) {
            case .argument(let word): arguments.append("--data-binary " + word)
            case .piped(let producer):
                pipedBody = producer
                arguments.append("--data-binary @-")
            }
        }
        arguments.append("-o \"$IDFLOW_OUT/\(step).json\" -D \"$IDFLOW_OUT/\(step).headers\" -w '\(step) %{http_code}\\n'")
        lines.append("# request \(step)")
        // Those a server chose are checked first, so none can add options or headers (`CurlScript.header`).
        let fromAnswers = spliced.reduce(into: [String]()) { if bindings.isFromAnswer($1), !$0.contains($1) { $0.append($1) } }
        if !fromAnswers.isEmpty { lines.append(([CurlScript.boundValueCheck] + fromAnswers).joined(separator: " ")) }
        if let pipedBody { lines.append(pipedBody + " |") }
        lines.append(arguments.joined(separator: " \\\n  "))
        return lines.joined(separator: "\n")
    }

    /// `-K <(printf …)`: curl reads `option = "…"` from a config that no `ps` shows, for a value that carries a
    /// secret. The literal text is escaped as curl's config syntax wants; the variables' values are not, so only
    /// ones that cannot leave the quotes may go here (a value from an answer has passed the script's check).
    static func config(_ option: String, _ segments: [ShellWord.Segment]) -> String {
        let escaped = segments.map { segment -> ShellWord.Segment in
            if case .literal(let text) = segment {
                return .literal(text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))
            }
            return segment
        }
        return "-K <(\(ShellWord.printf([.literal("\(option) = \"")] + escaped + [.literal("\"")], newline: true)))"
    }

    /// The URL with each secret query or fragment value replaced by its variable.
    static func urlSegments(_ text: String, bindings: inout ReplayBindings) -> [ShellWord.Segment] {
        var segments: [ShellWord.Segment] = []
        var rest = Substring(text)
        var tail: [(Character, Substring)] = []
        if let hash = rest.firstIndex(of: "#") {
            tail.insert(("#", rest[rest.index(after: hash)...]), at: 0)
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            tail.insert(("?", rest[rest.index(after: question)...]), at: 0)
            rest = rest[..<question]
        }
        // A path may name what an earlier answer gave (a created user's id, a token in a path): its variable.
        segments += bindings.replacingKnownSecrets(in: String(rest))
        for (separator, parameters) in tail {
            segments.append(.literal(String(separator)))
            segments += parameterSegments(parameters, url: text, bindings: &bindings, encodedAsIs: true)
        }
        return segments
    }

    /// `key=value&…` with secret values as variables; with `encodedAsIs` the variable stands for the text as sent.
    static func parameterSegments(_ text: Substring, url: String, bindings: inout ReplayBindings, encodedAsIs: Bool)
        -> [ShellWord.Segment]
    {
        var segments: [ShellWord.Segment] = []
        for (index, pair) in text.split(separator: "&", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { segments.append(.literal("&")) }
            guard let equals = pair.firstIndex(of: "=") else {
                segments.append(.literal(String(pair)))
                continue
            }
            let rawKey = pair[..<equals]
            let key = rawKey.removingPercentEncoding ?? String(rawKey)
            let rawValue = String(pair[pair.index(after: equals)...])
            guard ReplayBindings.isSecret(key: key, url: url), !rawValue.isEmpty else {
                segments.append(.literal(String(pair)))
                continue
            }
            let value = encodedAsIs ? rawValue : (rawValue.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? rawValue)
            let name = bindings.bind(value, key: key, url: url)
            segments += [.literal(String(rawKey) + "="), .variable(name)]
        }
        return segments
    }

    /// `-H 'Name: value'`, or for a credential `-H @<(printf …)` with the scheme word kept in sight (and the
    /// variable it splices into the header file).
    static func header(name: String, value: String, url: String, bindings: inout ReplayBindings) -> (argument: String, variable: String?) {
        let lower = name.lowercased()
        guard Redactor.secretHeaders.contains(lower) else { return ("-H " + ShellWord.quote("\(name): \(value)"), nil) }
        var prefix = "\(name): "
        var credential = value
        var key = name
        if lower.hasSuffix("authorization"), let space = value.firstIndex(of: " ") {
            let scheme = String(value[..<space])
            prefix += scheme + " "
            credential = String(value[value.index(after: space)...])
            key = "authorization:" + scheme.lowercased()
        }
        let variable = bindings.bind(credential, key: key, url: url)
        return ("-H @<(\(ShellWord.printf([.literal(prefix), .variable(variable)], newline: true)))", variable)
    }

    enum Body {
        /// A quoted word for `--data-binary`.
        case argument(String)
        /// A command whose output is the body, piped into curl.
        case piped(String)
    }

    static func body(_ data: Data, contentType: String?, url: String, bindings: inout ReplayBindings) -> Body {
        let body = plainBody(data, contentType: contentType, url: url, bindings: &bindings)
        // `--data-binary @x` would read the file x: a body that starts with `@` is piped in instead.
        if case .argument = body, data.first == UInt8(ascii: "@") {
            return .piped(ShellWord.printf([.literal(String(decoding: data, as: UTF8.self))]))
        }
        return body
    }

    private static func plainBody(_ data: Data, contentType: String?, url: String, bindings: inout ReplayBindings) -> Body {
        let type = contentType?.lowercased() ?? ""
        let text = String(decoding: data, as: UTF8.self)
        if type.contains("json"), let document = try? JSONValue(data: data) {
            var usesVariable = false
            let program = JQProgram.expression(
                document, url: url, bindings: &bindings, usesVariable: &usesVariable, secretContext: false)
            return usesVariable ? .piped("jq -cjn " + ShellWord.quote(program)) : .argument(ShellWord.quote(text))
        }
        if type.contains("x-www-form-urlencoded") {
            let segments = parameterSegments(Substring(text), url: url, bindings: &bindings, encodedAsIs: false)
            guard ShellWord.hasVariable(segments) else { return .argument(ShellWord.quote(text)) }
            // The values percent-encoded as FormEncoding does: jq 1.6's @uri leaves !*'() as they are.
            let form =
                #"def form: @uri | gsub("!"; "%21") | gsub("\\*"; "%2A") | gsub("'"; "%27") | gsub("\\("; "%28") | gsub("\\)"; "%29"); "#
            let program = ShellWord.merge(segments).map { segment -> String in
                switch segment {
                case .literal(let text): JQProgram.stringLiteral(text)
                case .variable(let name): "($ENV.\(name)|form)"
                }
            }.joined(separator: " + ")
            return .piped("jq -jn " + ShellWord.quote(form + program))
        }
        let segments = bindings.replacingKnownSecrets(in: text)
        return ShellWord.hasVariable(segments) ? .piped(ShellWord.printf(segments)) : .argument(ShellWord.quote(text))
    }
}
