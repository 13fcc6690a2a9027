import Foundation
import IdFlowCore
import IdFlowFoundation

/// A running `idflow` whose stderr a test reads while it runs (a URL to open, a prompt) before it answers
/// on stdin, as a person at the terminal would. `start` connects pipes; `startInTerminal` gives it a
/// pseudo-terminal as stdin, stderr and controlling terminal (stdout stays a pipe, as in `idflow … | jq`), so
/// it sees a person at the keyboard, prompts without echo, and gets Ctrl-C from the terminal.
public final class InteractiveSession: @unchecked Sendable {
    private let process: ChildProcess
    private let input: FileHandle
    private let isTerminal: Bool
    private let stdout = Locked(Data())
    private let stderr = Locked(Data())
    private var readers: [Thread] = []
    private let arguments: [String]

    private init(process: ChildProcess, input: FileHandle, isTerminal: Bool, arguments: [String]) {
        self.process = process
        self.input = input
        self.isTerminal = isTerminal
        self.arguments = arguments
    }

    /// Reads `read` continuously into `sink` until it reports the end, so a chatty child never blocks.
    private func drain(_ sink: Locked<Data>, _ read: @escaping @Sendable () -> Data) -> Thread {
        Thread {
            while true {
                let chunk = read()
                if chunk.isEmpty { break }
                sink.withLock { $0.append(chunk) }
            }
        }
    }

    /// Starts `idflow arguments…` with exactly `environment` (plus PATH).
    public static func start(_ arguments: [String], environment: [String: String]) throws -> InteractiveSession {
        let process = try Self.spawn(
            IdFlowBinary.url, arguments, environment, standardInput: .pipe, standardOutput: .pipe, standardError: .pipe)
        let output = process.standardOutput!
        let errors = process.standardError!
        let session = InteractiveSession(process: process, input: process.standardInput!, isTerminal: false, arguments: arguments)
        session.readers = [
            session.drain(session.stdout) { output.availableData },
            session.drain(session.stderr) { errors.availableData },
        ]
        for reader in session.readers { reader.start() }
        return session
    }

    /// Starts `idflow arguments…` at a terminal of its own: a new session (`setsid -c`) whose controlling
    /// terminal is a fresh pseudo-terminal on stdin and stderr; stdout is a pipe.
    public static func startInTerminal(_ arguments: [String], environment: [String: String]) throws -> InteractiveSession {
        // posix_openpt(3) is opening /dev/ptmx; unlockpt and ptsname are looked up at run time because the
        // Glibc module does not import them (they sit behind _XOPEN_SOURCE).
        typealias Unlock = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0, let unlockSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "unlockpt"),
            let nameSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "ptsname"),
            unsafeBitCast(unlockSymbol, to: Unlock.self)(master) == 0, let name = unsafeBitCast(nameSymbol, to: Name.self)(master)
        else {
            throw TerminalUnavailable(reason: String(cString: strerror(errno)))
        }
        let terminal = open(String(cString: name), O_RDWR | O_NOCTTY)
        guard terminal >= 0 else { throw TerminalUnavailable(reason: String(cString: strerror(errno))) }
        defer { close(terminal) }
        let process: ChildProcess
        do {
            process = try Self.spawn(
                URL(fileURLWithPath: "/usr/bin/setsid"), ["-w", "-c", IdFlowBinary.url.path] + arguments, environment,
                standardInput: .fileDescriptor(terminal), standardOutput: .pipe, standardError: .fileDescriptor(terminal))
        } catch {
            close(master)
            throw error
        }
        let output = process.standardOutput!
        let session = InteractiveSession(
            process: process, input: FileHandle(fileDescriptor: master, closeOnDealloc: true), isTerminal: true, arguments: arguments)
        session.readers = [
            session.drain(session.stdout) { output.availableData },
            session.drain(session.stderr) {
                // Once the child has exited and closed the terminal, reading the master fails (EIO): the end.
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(master, &buffer, buffer.count)
                return count > 0 ? Data(buffer[0..<count]) : Data()
            },
        ]
        for reader in session.readers { reader.start() }
        return session
    }

    private static func spawn(
        _ executable: URL, _ arguments: [String], _ environment: [String: String], standardInput: ChildProcess.Stream,
        standardOutput: ChildProcess.Stream, standardError: ChildProcess.Stream
    ) throws -> ChildProcess {
        var env = environment
        env["PATH"] = env["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return try ChildProcess.spawn(
            executable.path, arguments, environment: env, standardInput: standardInput, standardOutput: standardOutput,
            standardError: standardError)
    }

    public var processIdentifier: Int32 { process.processIdentifier }

    /// Everything written to stderr (the terminal, for `startInTerminal`) so far.
    public var stderrText: String { String(decoding: stderr.current, as: UTF8.self) }

    /// Waits until stderr has a line matching `predicate` and returns it.
    public func waitForStderrLine(timeout: Duration = .seconds(60), _ predicate: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let lines = stderrText.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init)
            if let line = lines.first(where: predicate) { return line }
            if !process.isRunning && readers.allSatisfy(\.isFinished) { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw IdFlowBinary.TimedOut(arguments: arguments)
    }

    /// Waits until stderr ends with text matching `predicate` (a prompt has no newline yet), counting from
    /// `after` characters in, so the same prompt asked twice can be told apart.
    public func waitForPrompt(after offset: Int = 0, timeout: Duration = .seconds(60), _ predicate: (String) -> Bool) async throws -> Int {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let text = stderrText
            if text.count > offset, predicate(String(text.dropFirst(offset))) { return text.count }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw IdFlowBinary.TimedOut(arguments: arguments)
    }

    /// Types `text` (at a terminal, a line ends with "\n"). A program that has already exited (a usage error before it
    /// read stdin) misses it, as it would a person's typing; the test goes on to its exit status.
    public func send(_ text: String) {
        try? ChildProcess.write(Data(text.utf8), to: input)
    }

    /// Presses Ctrl-C at the terminal: the terminal sends SIGINT to the program in front.
    public func pressControlC() {
        send("\u{03}")
    }

    /// Writes `stdin`, closes it (a terminal stays open), waits for the exit and returns what was printed.
    public func finish(stdin: String = "", timeout: Duration = .seconds(120)) async throws -> IdFlowBinary.Result {
        if !stdin.isEmpty || !isTerminal { send(stdin) }
        if !isTerminal { try? input.close() }
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline {
                process.terminate()
                throw IdFlowBinary.TimedOut(arguments: arguments)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        while !readers.allSatisfy(\.isFinished) { try await Task.sleep(for: .milliseconds(5)) }
        return IdFlowBinary.Result(
            exitCode: process.terminationStatus, stdout: String(decoding: stdout.current, as: UTF8.self),
            stderr: stderrText.replacingOccurrences(of: "\r\n", with: "\n"))
    }

    /// Kills the process without letting it clean up, as a crash or `kill -9` would.
    public func kill() async throws {
        process.send(SIGKILL)
        try await LiveSandbox.exit(of: process)
    }

    public struct TerminalUnavailable: Error, CustomStringConvertible {
        public var reason: String
        public var description: String { "cannot open a pseudo-terminal: \(reason)" }
    }
}

/// Plays a person at the sandbox's sign-in page, without following the final redirect.
public enum SignInPage {
    /// Opens `authorizeURL`, posts the credentials in the page's form, and returns the `Location` the server
    /// redirects to (the app's redirect URI with the code and state).
    public static func signIn(authorizeURL: String, username: String, password: String) async throws -> String {
        let transport = CurlTransport()
        let page = try await transport.send(
            HTTPRequest(method: "GET", url: URL(string: authorizeURL.trimmingCharacters(in: .whitespaces))!)
        ).body
        let html = String(decoding: page, as: UTF8.self)
        guard let txn = capture(#"name="txn" value="([^"]*)""#, in: html), let action = capture(#"<form[^>]*action="([^"]*)""#, in: html)
        else {
            throw SignInFailed(detail: "no sign-in form in: \(html.prefix(300))")
        }
        var post = HTTPRequest(method: "POST", url: URL(string: action.replacingOccurrences(of: "&amp;", with: "&"))!)
        post.setHeader("Content-Type", "application/x-www-form-urlencoded")
        post.body = Data(FormEncoding.encode([("username", username), ("password", password), ("txn", txn)]).utf8)
        let response = try await transport.send(post)
        guard let location = response.header("Location") else {
            throw SignInFailed(detail: "the sign-in answered \(response.status) without a redirect")
        }
        return location
    }

    private static func capture(_ pattern: String, in text: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }

    public struct SignInFailed: Error, CustomStringConvertible {
        public var detail: String
        public var description: String { "sign-in failed: \(detail)" }
    }
}
