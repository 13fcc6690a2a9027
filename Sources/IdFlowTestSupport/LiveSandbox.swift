import Foundation
import IdFlowCore
import IdFlowFoundation

/// A real `idflow sandbox` process on 127.0.0.1 with a random port, for end-to-end tests; plus an isolated
/// home and state directory so a test never reads the developer's own configuration or tokens.
public final class LiveSandbox: @unchecked Sendable {
    package let process: ChildProcess
    /// The one-line JSON the sandbox printed: orgUrl, issuer, apiToken, clientId, redirectUri.
    public let info: JSONValue
    public let home: URL

    public var orgURL: String { info["orgUrl"]?.stringValue ?? "" }
    public var apiToken: String { info["apiToken"]?.stringValue ?? "" }
    public var clientID: String { info["clientId"]?.stringValue ?? "" }
    /// With `--tls` (and a generated certificate): the PEM file of the CA that signed the sandbox's certificate.
    public var caFile: String? { info["caFile"]?.stringValue }
    public var stateDirectory: URL { home.appendingPathComponent("state") }

    /// Starts `idflow sandbox --port 0 [extra…]` and waits for its first line; `start(["--tls"])` serves https.
    public static func start(_ extra: [String] = []) async throws -> LiveSandbox {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let process = try ChildProcess.spawn(
            IdFlowBinary.url.path, ["sandbox", "--port", "0"] + extra,
            environment: ["HOME": home.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
            standardOutput: .pipe)
        let output = process.standardOutput!
        let line: String? = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var bytes = Data()
                while true {
                    let chunk = output.readData(ofLength: 1)
                    if chunk.isEmpty || chunk == Data("\n".utf8) { break }
                    bytes.append(chunk)
                }
                // Nothing reads the rest of stdout, as before: the sandbox's later writes there fail (it logs to stderr).
                try? output.close()
                continuation.resume(returning: bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self))
            }
        }
        guard let line, let info = try? JSONValue(data: Data(line.utf8)) else {
            process.terminate()
            throw SandboxDidNotStart(output: line ?? "")
        }
        return LiveSandbox(process: process, info: info, home: home)
    }

    private init(process: ChildProcess, info: JSONValue, home: URL) {
        self.process = process
        self.info = info
        self.home = home
    }

    /// The environment a user would export after reading the sandbox's line (with `IDFLOW_CA_FILE` over TLS).
    public var environment: [String: String] {
        var environment = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "IDFLOW_STATE_DIR": stateDirectory.path, "OKTA_CLIENT_ORGURL": orgURL, "OKTA_CLIENT_TOKEN": apiToken,
            "OKTA_OAUTH2_CLIENTID": clientID, "OKTA_OAUTH2_REDIRECTURI": info["redirectUri"]?.stringValue ?? "",
            "IDFLOW_MAX_RETRIES": "0",
        ]
        if let caFile { environment["IDFLOW_CA_FILE"] = caFile }
        return environment
    }

    /// Runs the CLI against this sandbox; `environment` entries override (or, with "", remove) the defaults.
    public func idflow(_ arguments: [String], stdin: String = "", environment overrides: [String: String] = [:]) async throws
        -> IdFlowBinary.Result
    {
        var env = environment.merging(overrides) { $1 }
        env = env.filter { !$0.value.isEmpty }
        return try await IdFlowBinary.run(arguments, stdin: stdin, environment: env)
    }

    /// Calls an endpoint of the sandbox directly (admin endpoints, or checking state), with the API token.
    @discardableResult
    public func call(_ method: String, _ path: String, json: JSONValue? = nil, authorized: Bool = true) async throws -> (Int, JSONValue?) {
        var request = HTTPRequest(method: method, url: URL(string: orgURL + path)!)
        if authorized { request.setHeader("Authorization", "SSWS \(apiToken)") }
        if let json {
            request.setHeader("Content-Type", "application/json")
            request.body = try JSONEncoder().encode(json)
        }
        let response = try await CurlTransport(options: .init(caFile: caFile)).send(request)
        let data = response.body
        return (response.status, data.isEmpty ? nil : try? JSONValue(data: data))
    }

    /// Arms a fault that holds the next request to `pathPrefix` until `release(_:)`, then answers it as `fault` says
    /// (by default, the real answer). What a test does while a request is in flight then needs no head start in
    /// seconds, which a loaded machine could overrun. Returns the fault's id.
    public func holdNextRequest(to pathPrefix: String, answering fault: [String: JSONValue] = [:]) async throws -> String {
        var body: [String: JSONValue] = ["pathPrefix": .string(pathPrefix), "hold": true, "count": 1]
        body.merge(fault) { $1 }
        let (status, armed) = try await call("POST", "/sandbox/faults", json: .object(body))
        guard status == 201, let id = armed?["id"]?.stringValue else { throw HoldNotArmed(status: status) }
        return id
    }

    /// Lets a request held by `holdNextRequest` go on.
    public func release(_ fault: String) async throws {
        try await call("POST", "/sandbox/faults/\(fault)/release")
    }

    struct HoldNotArmed: Error {
        var status: Int
    }

    /// A sandbox (started with `extra`) with one user logged in by `login-pkce --session-token-stdin`, stored for the
    /// default profile; returns the login's output.
    public static func loggedIn(_ email: String, extra: [String] = []) async throws -> (LiveSandbox, JSONValue) {
        let sandbox = try await LiveSandbox.start(extra)
        let (_, session) = try await sandbox.createActiveUser(email: email)
        let login = try await sandbox.idflow(["login-pkce", "--session-token-stdin"], stdin: session)
        guard login.exitCode == 0 else { throw StepFailed(step: "login-pkce", result: login) }
        return (sandbox, try login.json())
    }

    /// The stored login of `profile` (its `tokens.json`), as a user would `cat` it.
    public func storedLogin(profile: String = "default") throws -> JSONValue {
        try JSONValue(data: Data(contentsOf: stateDirectory.appendingPathComponent("profiles/\(profile)/tokens.json")))
    }

    /// Registers, activates and sets the password of a new user through the CLI; returns (userId, sessionToken).
    public func createActiveUser(email: String, password: String = "Str0ng-Passw0rd!") async throws -> (String, String) {
        let registered = try await idflow(["register", "--email", email, "--first-name", "Jo", "--last-name", "Doe"])
        guard registered.exitCode == 0, let id = try registered.json()["id"]?.stringValue else {
            throw StepFailed(step: "register", result: registered)
        }
        let activated = try await idflow(["activate", "--user", id])
        guard activated.exitCode == 0, let token = try activated.json()["activationToken"]?.stringValue else {
            throw StepFailed(step: "activate", result: activated)
        }
        let set = try await idflow(["set-password", "--password-stdin"], stdin: password, environment: ["IDFLOW_ACTIVATION_TOKEN": token])
        guard set.exitCode == 0, let session = try set.json()["sessionToken"]?.stringValue else {
            throw StepFailed(step: "set-password", result: set)
        }
        return (id, session)
    }

    /// Stops the sandbox with SIGTERM, as a user's Ctrl-C would, without waiting for it: the wait happens on a thread
    /// of its own (`DedicatedThread` says why a test must never block a cooperative one). `stopped()` waits.
    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let process = process
        Thread.detachNewThread { process.waitUntilExit() }
    }

    /// Stops the sandbox with SIGTERM and waits until it has exited, suspending the caller.
    public func stopped() async throws {
        guard process.isRunning else { return }
        process.terminate()
        try await Self.exit(of: process)
    }

    /// Waits, off the cooperative pool, until `process` has exited.
    package static func exit(of process: ChildProcess) async throws {
        try await DedicatedThread.run { process.waitUntilExit() }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: home)
    }

    public struct SandboxDidNotStart: Error, CustomStringConvertible {
        public var output: String
        public var description: String { "idflow sandbox did not print its JSON line (got: \(output))" }
    }

    public struct StepFailed: Error, CustomStringConvertible {
        public var step: String
        public var result: IdFlowBinary.Result
        public var description: String { "\(step) failed: \(result)" }

        public init(step: String, result: IdFlowBinary.Result) {
            self.step = step
            self.result = result
        }
    }
}
