import Foundation
import IdFlowFoundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `--curl` script of a run: every request the `HTTPClient` sends, in order, as a curl command a person can
/// run again or paste into a runbook, with each secret a shell variable and each answer's status after it.
///
/// It lives in the client, not in the commands, so every command and every step of a multi-step flow is in
/// it. On stderr it is written as the run goes, each variable declared just before its first use; in a file
/// it is rewritten after each request with all the variables declared at the top, so a run that fails still
/// leaves what it sent.
public final class CurlScript: HTTPObserver {
    /// Where the script goes.
    public typealias Output = CurlScriptOutput

    private struct State {
        var bindings = ReplayBindings()
        var steps: [String] = []
        var count = 0
        /// The step whose command was written last, so its status can follow it without saying which it is.
        var lastCommand = 0
        var headerWritten = false
        /// Values idflow made for the run (`ReplayBindings.madeByRun`) by the request that sends them first,
        /// written out once that request is answered.
        var unspent: [(step: Int, name: String, value: String)] = []
        /// Those written out: name → (the request that spent it, the value).
        var spent: [String: (step: Int, value: String)] = [:]
        /// Each request's method, by number: what a POST created is named for the requests after it.
        var methods: [Int: String] = [:]
    }

    private let state: Locked<State>
    private let sink: Sink
    private let transportArguments: [String]
    /// The proxy's arguments, given to a command only when idflow sent that request through the proxy.
    private let proxyArguments: [String]
    private let transport: CurlTransport.Options

    private enum Sink: Sendable {
        case stream(@Sendable (String) -> Void)
        case file(Int32)
    }

    /// A script written through `write` (stderr), each piece as it comes.
    public init(write: @escaping @Sendable (String) -> Void, transport: CurlTransport.Options = .init()) {
        sink = .stream(write)
        var initial = State()
        (transportArguments, proxyArguments) = Self.arguments(for: transport, bindings: &initial.bindings)
        self.transport = transport
        state = Locked(initial)
    }

    /// A script in the file at `path`, created 0600 (an existing one is emptied and made 0600).
    public init(file path: String, transport: CurlTransport.Options = .init()) throws(IdFlowError) {
        let fd = try Self.openPrivate(path)
        sink = .file(fd)
        var initial = State()
        (transportArguments, proxyArguments) = Self.arguments(for: transport, bindings: &initial.bindings)
        self.transport = transport
        state = Locked(initial)
        state.withLock { render(&$0) }
    }

    /// Opens `path` for the script: a regular file of this user's, 0600, emptied. The script names the secrets it
    /// needs, so a file someone else owns (and can read, or make world-readable again), a FIFO or a device, or a
    /// file whose mode cannot be set, is refused. O_NONBLOCK keeps a FIFO without a reader from hanging the open.
    private static func openPrivate(_ path: String) throws(IdFlowError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o600)
        let hint = "pass a path in a folder you can write, not a symbolic link, a FIFO or a device (--curl writes to stderr)"
        guard fd >= 0 else {
            throw .configuration("cannot write the --curl-file \(path): \(String(cString: strerror(errno)))", hint: hint)
        }
        var status = stat()
        let problem: String?
        if fstat(fd, &status) != 0 {
            problem = String(cString: strerror(errno))
        } else if status.st_mode & S_IFMT != S_IFREG {
            problem = "it is not a regular file"
        } else if status.st_uid != geteuid() {
            problem = "it belongs to another user (uid \(status.st_uid))"
        } else if fchmod(fd, 0o600) != 0 || ftruncate(fd, 0) != 0 {
            problem = String(cString: strerror(errno))
        } else {
            problem = nil
        }
        if let problem {
            close(fd)
            throw .configuration("cannot write the --curl-file \(path): \(problem)", hint: hint)
        }
        // Writes block as before: only the open had to be kept from waiting.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    deinit {
        if case .file(let fd) = sink { close(fd) }
    }

    public static func make(_ output: Output, transport: CurlTransport.Options, console: Console) throws(IdFlowError) -> CurlScript {
        switch output {
        case .standardError: return CurlScript(write: { console.line($0) }, transport: transport)
        case .file(let path): return try CurlScript(file: path, transport: transport)
        }
    }

    /// Writes the command for `request` (as the client sends it) and returns its number for `answer`.
    public func request(_ request: HTTPRequest) -> Int {
        state.withLock { state in
            state.count += 1
            let command = CurlCommand(
                step: state.count, method: request.method, url: request.url, headers: request.headers.map { ($0.key, $0.value) },
                body: request.body, transportArguments: transportArguments + proxyArguments(for: request.url))
            state.methods[state.count] = request.method
            let known = Set(state.bindings.variables.map(\.name))
            let text = command.render(&state.bindings)
            for variable in state.bindings.variables where !known.contains(variable.name) {
                if let value = state.bindings.madeByRun[variable.name] { state.unspent.append((state.count, variable.name, value)) }
            }
            state.lastCommand = state.count
            append(text, &state)
            return state.count
        }
    }

    /// Writes the status of request `step` and, for each secret first met in the answer, how the script reads it.
    public func answer(_ step: Int, _ response: HTTPResponse, retried: Bool) {
        state.withLock { state in
            var lines = ["# → \(response.status)" + (state.lastCommand == step ? "" : " (request \(step))")]
            if retried {
                lines[0] += " (idflow waited and sent it again)"
            } else {
                for variable in bindAnswer(step, response, &state.bindings) {
                    if let assignment = variable.assignment { lines.append(assignment) }
                }
                if state.methods[step] == "POST", let variable = bindCreated(step, response, &state.bindings),
                    let assignment = variable.assignment
                {
                    lines.append(assignment)
                }
            }
            // Answered, the request has spent what idflow made for it: now its value can be said. Not after an
            // answer that is sent again or a server error, which may have left the code unredeemed.
            if !retried, response.status < 500 {
                for unspent in state.unspent where unspent.step <= step {
                    state.spent[unspent.name] = (step, unspent.value)
                    lines.append(Self.spentLine(name: unspent.name, value: unspent.value, step: step))
                }
                state.unspent.removeAll { $0.step <= step }
            }
            state.lastCommand = 0
            append(lines.joined(separator: "\n"), &state)
        }
    }

    /// Writes that request `step` got no answer.
    public func failure(_ step: Int, reason: String) {
        state.withLock { state in
            let line = "# → no answer" + (state.lastCommand == step ? "" : " to request \(step)") + ": " + ShellWord.commentText(reason)
            state.lastCommand = 0
            append(line, &state)
        }
    }

    /// The whole script as it stands (what a file holds).
    public var text: String {
        state.withLock { state in Self.renderText(state) }
    }

    private func append(_ text: String, _ state: inout State) {
        switch sink {
        case .stream(let write):
            var pieces: [String] = []
            if !state.headerWritten {
                pieces.append(Self.header)
                state.headerWritten = true
            }
            let declarations = state.bindings.takeUndeclared()
            if !declarations.isEmpty { pieces.append(declarations.map(\.declaration).joined(separator: "\n")) }
            pieces.append(text)
            state.steps.append(text)
            write(pieces.joined(separator: "\n"))
        case .file:
            state.steps.append(text)
            render(&state)
        }
    }

    private func render(_ state: inout State) {
        guard case .file(let fd) = sink else { return }
        _ = state.bindings.takeUndeclared()
        let bytes = Array(Self.renderText(state).utf8)
        // Rewritten in place: the descriptor stays the one opened 0600, and a reader sees at worst a shorter script.
        _ = ftruncate(fd, 0)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(offset)) }
            if written <= 0 { break }
            offset += written
        }
    }

    private static func renderText(_ state: State) -> String {
        var pieces = [header]
        let variables = state.bindings.variables
        if !variables.isEmpty {
            var block = ["# Secrets: export those read from the environment before running; the others are set from an answer below."]
            for variable in variables {
                switch variable.source {
                case .environment:
                    block.append(variable.declaration)
                    if let spent = state.spent[variable.name] {
                        block.append(spentLine(name: variable.name, value: spent.value, step: spent.step))
                    }
                case .answer(let step, _):
                    let origin = variable.origin.replacingOccurrences(
                        of: "of the answer above (request \(step))", with: "of the answer to request \(step)")
                    block.append("# \(variable.name): \(ShellWord.commentText(origin)), set after it")
                }
            }
            pieces.append(block.joined(separator: "\n"))
        }
        pieces += state.steps
        return pieces.joined(separator: "\n\n") + "\n"
    }

    /// The comment that gives a value idflow made for the run (the PKCE code verifier) once request `step`,
    /// which sent it, has been answered. Before that it is a secret like any other: with the authorization code
    /// it redeems it for tokens. After, the code is spent, and the verifier redeems only a code issued for the
    /// `code_challenge` of this script's own authorize request: a code only whoever signs in as the script does
    /// (with the user's password) obtains. So it gives nothing the script's other secrets do not, and without it
    /// a replay of a login could not finish.
    static func spentLine(name: String, value: String, step: Int) -> String {
        "# \(name) of this run, spent by request \(step) (it redeems only a code issued for this script's code_challenge): "
            + "export \(name)=\(ShellWord.quote(value))"
    }

    /// The shell function a request calls first with the variables from answers it puts in a config or a header.
    static let boundValueCheck = "idflow_refuse_unsafe"

    /// The script's first lines. The function refuses a value a server chose that holds a quote, a backslash or
    /// a control character before it is spliced into a `-K` config (`url = "…"`) or a `-H @file` header line,
    /// where it could end its line and add curl options of its own (`output = …` writes a file, `upload-file = …`
    /// sends one) or headers. No token, id or code Okta issues holds one, so refusing costs a genuine replay
    /// nothing; a value that goes only into a JSON body (jq encodes it) or a form (jq's @uri) is not checked.
    static let header = """
        #!/usr/bin/env bash
        # idflow --curl: the HTTP requests of one run, in order, as curl commands (needs curl and jq).
        # Each answer is saved as $IDFLOW_OUT/<n>.json with its headers in <n>.headers; each status is printed as "<n> <status>".
        set -euo pipefail
        IDFLOW_OUT="${IDFLOW_OUT:-$(mktemp -d)}"
        # A value read from an answer goes into curl's config and headers: one that could add lines there stops the replay.
        \(boundValueCheck)() {
          local name
          for name in "$@"; do
            case "${!name}" in
              *[\\"\\\\[:cntrl:]]*)
                printf 'idflow replay: stopped: %s, read from an answer, holds a quote, a backslash or a control character, which could add options or headers to curl; check what the server answered in %s\\n' "$name" "$IDFLOW_OUT" >&2
                exit 65 ;;
            esac
          done
        }
        """

    /// The curl options matching the run's company-network settings: paths, and the proxy, whose user info is a
    /// variable read from the environment like any other secret, the URL going through `-K` so it stays out of `ps`.
    /// The proxy as idflow decided for `url` (`CurlTransport.Options.proxy(for:)`, the one `NO_PROXY` reading):
    /// its arguments when the request went through it; `--noproxy '*'` when a proxy is set but this request went
    /// direct, so that curl's own reading of `NO_PROXY` and of the environment cannot decide differently.
    private func proxyArguments(for url: URL?) -> [String] {
        guard !proxyArguments.isEmpty else { return [] }
        return transport.proxy(for: url) != nil ? proxyArguments : ["--noproxy '*'"]
    }

    /// The transport's arguments for every command, and the proxy's apart (`proxyArguments(for:)`).
    static func arguments(for options: CurlTransport.Options, bindings: inout ReplayBindings) -> (
        common: [String], proxy: [String]
    ) {
        var arguments: [String] = []
        var proxyArguments: [String] = []
        if let caFile = options.caFile { arguments.append("--cacert " + ShellWord.quote(caFile)) }
        if let directory = options.caDirectory { arguments.append("--capath " + ShellWord.quote(directory)) }
        if let certificate = options.clientCertificate { arguments.append("--cert " + ShellWord.quote(certificate)) }
        if let key = options.clientKey { arguments.append("--key " + ShellWord.quote(key)) }
        if let proxy = options.proxy, !proxy.isEmpty {
            if let range = Redactor.userInfoRange(in: proxy), !range.isEmpty {
                let name = bindings.bind(String(proxy[range]), key: "proxy:userinfo", url: proxy)
                let segments: [ShellWord.Segment] = [
                    .literal(String(proxy[..<range.lowerBound])), .variable(name), .literal(String(proxy[range.upperBound...])),
                ]
                proxyArguments.append(CurlCommand.config("proxy", segments))
            } else {
                proxyArguments.append("--proxy " + ShellWord.quote(proxy))
            }
        }
        return (arguments, proxyArguments)
    }

    /// The `id` of what a POST created (a user of `register`, each user of `register --batch`), so that the requests
    /// that follow (activate it, read it back) name it as a variable: a replay, which creates another, acts on that
    /// one rather than on the run's. Not a secret; named like one so that every later use is the variable.
    private func bindCreated(_ step: Int, _ response: HTTPResponse, _ bindings: inout ReplayBindings) -> ReplayVariable? {
        guard (200..<300).contains(response.status), let document = try? JSONValue(data: response.body),
            let id = document["id"]?.stringValue, id.count >= 8, bindings.existing(id) == nil
        else { return nil }
        // `/api/v1/users` names a `USER_ID`: the last path segment that is a word, made singular.
        let segment = response.url.pathComponents.last { $0.allSatisfy { $0.isLetter || $0 == "-" } && $0 != "/" } ?? "created"
        let base = segment.hasSuffix("s") ? String(segment.dropLast()) : segment
        return bindings.bindAnswer(
            id, key: base + "Id", origin: ".id of the answer above (request \(step))",
            extraction: "jq -r '.id' \"$IDFLOW_OUT/\(step).json\"", step: step, secret: false)
    }

    /// The secrets first met in an answer: JSON members (the nearest first) and the parameters of a redirect.
    private func bindAnswer(_ step: Int, _ response: HTTPResponse, _ bindings: inout ReplayBindings) -> [ReplayVariable] {
        var found: [ReplayVariable] = []
        let url = response.url.absoluteString
        let file = "\"$IDFLOW_OUT/\(step).json\""
        if let document = try? JSONValue(data: response.body) {
            var queue: [([JQProgram.PathComponent], JSONValue)] = [([], document)]
            while !queue.isEmpty {
                let (path, value) = queue.removeFirst()
                switch value {
                case .object(let members):
                    // An Identity Engine form field names its secret: `{"name": "interaction_code", "value": …}`.
                    let fieldName = members["name"]?.stringValue.flatMap { ReplayBindings.isSecret(key: $0, url: url) ? $0 : nil }
                    for key in members.keys.sorted() {
                        let member = members[key] ?? .null
                        let memberPath = path + [.key(key)]
                        let secretName = ReplayBindings.isSecret(key: key, url: url) ? key : key == "value" ? fieldName : nil
                        if let secretName, let text = member.stringValue {
                            let jqPath = JQProgram.path(memberPath)
                            if let variable = bindings.bindAnswer(
                                text, key: secretName, origin: "\(jqPath) of the answer above (request \(step))",
                                extraction: "jq -r \(ShellWord.quote(jqPath)) \(file)", step: step)
                            {
                                found.append(variable)
                            }
                        } else {
                            queue.append((memberPath, member))
                        }
                    }
                case .array(let items):
                    for (index, item) in items.enumerated() { queue.append((path + [.index(index)], item)) }
                default: break
                }
            }
        }
        if let location = response.header("Location"), let components = URLComponents(string: location) {
            let parameters =
                (components.queryItems ?? []) + FormEncoding.decode(components.fragment ?? "").map { URLQueryItem(name: $0.0, value: $0.1) }
            for item in parameters where ReplayBindings.isSecret(key: item.name, url: url) {
                let name = item.name
                // The name goes into a sed pattern: only one made of letters, digits and `_` is used there.
                guard let value = item.value, !name.isEmpty, name.allSatisfy({ ($0.isLetter || $0.isNumber || $0 == "_") && $0.isASCII })
                else { continue }
                let pattern = "s/^[Ll][Oo][Cc][Aa][Tt][Ii][Oo][Nn]:.*[?&#]\(name)=\\([^&#[:space:]]*\\).*/\\1/p"
                let extraction = "sed -n \(ShellWord.quote(pattern)) \"$IDFLOW_OUT/\(step).headers\" | head -n 1"
                if let variable = bindings.bindAnswer(
                    value, key: item.name, origin: "\(item.name)= in the Location of the answer above (request \(step))",
                    extraction: extraction, step: step)
                {
                    found.append(variable)
                }
            }
        }
        return found
    }
}
