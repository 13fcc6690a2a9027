import Foundation
import IdFlowCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A running `idflow` whose stderr a test reads while it runs (a URL to open, a prompt) before it answers
/// on stdin, as a person at the terminal would.
public final class InteractiveSession: @unchecked Sendable {
    private let process: Process
    private let input = Pipe()
    private let stdout = Locked(Data())
    private let stderr = Locked(Data())
    private let readers: [Thread]
    private let arguments: [String]

    private init(process: Process, output: Pipe, errors: Pipe, arguments: [String]) {
        self.process = process
        self.arguments = arguments
        let stdout = self.stdout
        let stderr = self.stderr
        // Read both pipes continuously, so a chatty child never blocks on a full pipe.
        readers = [(output, stdout), (errors, stderr)].map { pipe, sink in
            Thread {
                while true {
                    let chunk = pipe.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    sink.withLock { $0.append(chunk) }
                }
            }
        }
    }

    /// Starts `idflow arguments…` with exactly `environment` (plus PATH).
    public static func start(_ arguments: [String], environment: [String: String]) throws -> InteractiveSession {
        let process = Process()
        process.executableURL = IdFlowBinary.url
        process.arguments = arguments
        var env = environment
        env["PATH"] = env["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        process.environment = env
        let output = Pipe()
        let errors = Pipe()
        let session = InteractiveSession(process: process, output: output, errors: errors, arguments: arguments)
        process.standardInput = session.input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        for reader in session.readers { reader.start() }
        return session
    }

    public var processIdentifier: Int32 { process.processIdentifier }

    /// Waits until stderr has a line matching `predicate` and returns it.
    public func waitForStderrLine(timeout: Duration = .seconds(60), _ predicate: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let lines = String(decoding: stderr.current, as: UTF8.self).split(separator: "\n").map(String.init)
            if let line = lines.first(where: predicate) { return line }
            if !process.isRunning && readers.allSatisfy(\.isFinished) { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw IdFlowBinary.TimedOut(arguments: arguments)
    }

    /// Writes `stdin`, closes it, waits for the exit and returns what was printed.
    public func finish(stdin: String = "", timeout: Duration = .seconds(120)) async throws -> IdFlowBinary.Result {
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try? input.fileHandleForWriting.close()
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
            stderr: String(decoding: stderr.current, as: UTF8.self))
    }

    /// Kills the process without letting it clean up, as a crash or `kill -9` would.
    public func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// Plays a person at the sandbox's sign-in page, without following the final redirect.
public enum SignInPage {
    /// Opens `authorizeURL`, posts the credentials in the page's form, and returns the `Location` the server
    /// redirects to (the app's redirect URI with the code and state).
    public static func signIn(authorizeURL: String, username: String, password: String) async throws -> String {
        let transport = URLSessionTransport()
        let (page, _) = try await transport.send(URLRequest(url: URL(string: authorizeURL.trimmingCharacters(in: .whitespaces))!))
        let html = String(decoding: page, as: UTF8.self)
        guard let txn = capture(#"name="txn" value="([^"]*)""#, in: html), let action = capture(#"<form[^>]*action="([^"]*)""#, in: html)
        else {
            throw SignInFailed(detail: "no sign-in form in: \(html.prefix(300))")
        }
        var post = URLRequest(url: URL(string: action.replacingOccurrences(of: "&amp;", with: "&"))!)
        post.httpMethod = "POST"
        post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(FormEncoding.encode([("username", username), ("password", password), ("txn", txn)]).utf8)
        let (_, response) = try await transport.send(post)
        guard let location = response.value(forHTTPHeaderField: "Location") else {
            throw SignInFailed(detail: "the sign-in answered \(response.statusCode) without a redirect")
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
