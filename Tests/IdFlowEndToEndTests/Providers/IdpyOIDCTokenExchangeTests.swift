import Foundation
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// `idflow token exchange` (RFC 8693) against a provider nobody in this repository wrote: idpyoidc 5.0.0 from PyPI
/// (`pip install idpyoidc==5.0.0`, as .ci/run does), whose own token endpoint and TokenExchangeHelper answer, started
/// once on 127.0.0.1 by `scripts/idpyoidc/start.sh`. idflow is configured only through a profile in config.yaml, as
/// a user of another provider would; the client's secret is a file the profile names.
///
/// The subject token is user jo's access token for another app (idflow-app), which the provider mints at start-up:
/// idpyoidc 5.0.0 issues no token over HTTP that it would then exchange without a browser sign-in (see provider.py).
@Suite(.serialized)
struct IdpyOIDCTokenExchangeTests {
    @Test func exchangesAnotherAppsAccessTokenForOneForTheAPI() async throws {
        let provider = try await IdpyOIDC.shared()
        let user = try IdpyOIDCUser(provider)
        let exchange = try await user.idflow([
            "token", "exchange", "--profile", "gateway", "--subject-token-file", provider.subjectTokenFile,
            "--subject-token-type", "access_token", "--audience", provider.audience, "-v",
        ])
        #expect(exchange.exitCode == 0, "\(exchange)")
        let output = try exchange.json()
        #expect(output["issued_token_type"] == "urn:ietf:params:oauth:token-type:access_token")
        #expect(output["token_type"] == "Bearer")
        #expect(output["scope"] == .string(provider.exchangedScope), "the policy's scope, narrower than the subject's")
        let issued = try #require(try JWTClaims.decode(output["access_token"]?.stringValue))
        let subject = try #require(try JWTClaims.decode(try String(contentsOfFile: provider.subjectTokenFile, encoding: .utf8)))
        #expect(issued["client_id"] == "idflow-gateway", "issued to the client that asked")
        #expect(subject["client_id"] == "idflow-app")
        #expect(issued["sub"] == subject["sub"], "for the same user")
        // idpyoidc gives the exchanged token the subject token's expiry (expires_in counts to it), so idflow's
        // expires_at is the subject's exp, by the provider's clock, give or take the seconds the request took.
        let expiresAt = try #require(output["expires_at"]?.stringValue.flatMap { ISO8601DateFormatter().date(from: $0) }, "\(output)")
        let subjectExpiry = try #require(subject["exp"]?.intValue.map(Double.init))
        #expect(abs(expiresAt.timeIntervalSince1970 - subjectExpiry) <= 10, "\(output)")
        let secret = try String(contentsOfFile: provider.clientSecretFile, encoding: .utf8)
        #expect(!exchange.stderr.contains(secret), "the trace masks the client secret")
        #expect(!exchange.stderr.contains(try String(contentsOfFile: provider.subjectTokenFile, encoding: .utf8)), "and the subject token")
        #expect(!FileManager.default.fileExists(atPath: user.storedFile(profile: "gateway").path), "saved only with --store-as")
    }

    @Test func storeAsThenTokenGet() async throws {
        let provider = try await IdpyOIDC.shared()
        let user = try IdpyOIDCUser(provider)
        let exchange = try await user.idflow([
            "token", "exchange", "--profile", "gateway", "--subject-token-file", provider.subjectTokenFile,
            "--subject-token-type", "access_token", "--audience", provider.audience, "--store-as", "api",
        ])
        #expect(exchange.exitCode == 0, "\(exchange)")
        #expect(exchange.stderr.contains("the exchanged tokens were saved for profile api"), "\(exchange)")
        let issued = try #require(try exchange.json()["access_token"]?.stringValue)
        let token = try await user.idflow(["token", "get", "--profile", "api"])
        #expect(token.exitCode == 0, "\(token)")
        #expect(try token.json()["access_token"] == .string(issued), "the stored token, still good: no new request")
        let stored = try JSONValue(data: Data(contentsOf: user.storedFile(profile: "api")))
        #expect(stored["issuer"] == .string(provider.issuer))
        #expect(stored["clientId"] == "idflow-gateway")
    }

    @Test func aBadSubjectTokenIsRefusedWithTheProvidersWords() async throws {
        let provider = try await IdpyOIDC.shared()
        let user = try IdpyOIDCUser(provider)
        let bad = user.home.appendingPathComponent("bad-subject-token")
        try "not-a-token-this-provider-issued".write(to: bad, atomically: true, encoding: .utf8)
        let refused = try await user.idflow([
            "token", "exchange", "--profile", "gateway", "--subject-token-file", bad.path, "--subject-token-type", "access_token",
            "--audience", provider.audience, "--store-as", "api",
        ])
        #expect(refused.exitCode == 3, "\(refused)")
        #expect(refused.stdout.isEmpty)
        #expect(refused.error?["kind"] == "oauth_error", "\(refused)")
        #expect(refused.error?["httpStatus"] == 400)
        #expect(refused.error?["errorCode"] == "invalid_request")
        #expect(refused.error?["errorSummary"] == "Subject token invalid", "idpyoidc's own words: \(refused)")
        #expect(!FileManager.default.fileExists(atPath: user.storedFile(profile: "api").path), "nothing saved")
    }

    @Test func anAudienceThePolicyDoesNotKnowIsInvalidTarget() async throws {
        let provider = try await IdpyOIDC.shared()
        let user = try IdpyOIDCUser(provider)
        let refused = try await user.idflow([
            "token", "exchange", "--profile", "gateway", "--subject-token-file", provider.subjectTokenFile,
            "--subject-token-type", "access_token", "--audience", "https://elsewhere.example.test",
        ])
        #expect(refused.exitCode == 3, "\(refused)")
        #expect(refused.error?["errorCode"] == "invalid_target", "\(refused)")
        #expect(refused.error?["errorSummary"] == "Unknown audience")
        #expect(refused.error?["hint"]?.stringValue?.contains("--audience") == true, "\(refused)")
    }

    /// idpyoidc raises on a client that fails to authenticate; provider.py answers that 401 invalid_client
    /// (RFC 6749 §5.2) with idpyoidc's message.
    @Test func aWrongClientSecretIsInvalidClient() async throws {
        let provider = try await IdpyOIDC.shared()
        let user = try IdpyOIDCUser(provider)
        let refused = try await user.idflow([
            "token", "exchange", "--profile", "wrong-secret", "--subject-token-file", provider.subjectTokenFile,
            "--subject-token-type", "access_token", "--audience", provider.audience,
        ])
        #expect(refused.exitCode == 4, "\(refused)")
        #expect(refused.stdout.isEmpty)
        #expect(refused.error?["errorCode"] == "invalid_client", "\(refused)")
        #expect(refused.error?["httpStatus"] == 401)
        #expect(refused.error?["hint"]?.stringValue?.contains("--client-secret-file") == true, "\(refused)")
        #expect(!refused.stderr.contains("wrong-secret-value"), "the secret is not repeated")
    }

    @Test func startFailsLoudlyWithoutIdpyOIDC() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-idpyoidc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        // A python3 that has no idpyoidc: the script says how to install it and starts nothing.
        let python = empty.appendingPathComponent("python3")
        try "#!/bin/sh\necho \"ModuleNotFoundError: No module named 'idpyoidc'\" >&2\nexit 1\n".write(
            to: python, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: python.path)
        let run = try await ExternalCommand.run(
            "/bin/bash", [IdpyOIDC.script.path, empty.appendingPathComponent("server").path],
            environment: ["PATH": "\(empty.path):/usr/bin:/bin"])
        #expect(run.status != 0)
        #expect(run.standardError.contains("idpyoidc is not installed (pip install idpyoidc==5.0.0)"), "\(run.standardError)")
        #expect(run.output.isEmpty)
    }
}

/// One idpyoidc provider for the whole test process: started on first use, stopped when the process ends (the
/// provider watches this process's pid), so a crashed run leaves no server behind. Without idpyoidc installed every
/// test fails with start.sh's message saying how to install it: CI installs it (.ci/run), so there it never skips.
struct IdpyOIDC: Sendable {
    let info: JSONValue
    var issuer: String { info["issuer"]?.stringValue ?? "" }
    var directory: String { info["dir"]?.stringValue ?? "" }
    var clientSecretFile: String { info["clientSecretFile"]?.stringValue ?? "" }
    var subjectTokenFile: String { info["subjectTokenFile"]?.stringValue ?? "" }
    var audience: String { info["audience"]?.stringValue ?? "" }
    var exchangedScope: String { info["exchangedScope"]?.stringValue ?? "" }

    static var script: URL { Fixtures.packageRoot.appendingPathComponent("scripts/idpyoidc/start.sh") }

    private actor Once {
        var started: IdpyOIDC?

        func get() async throws -> IdpyOIDC {
            if let started { return started }
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idpyoidc-e2e-\(UUID().uuidString)")
            var environment = ["IDPYOIDC_STOP_WITH_PID": String(ProcessInfo.processInfo.processIdentifier)]
            for name in ["PATH", "HOME", "PYENV_ROOT", "PYTHONPATH", "VIRTUAL_ENV"] {
                environment[name] = ProcessInfo.processInfo.environment[name]
            }
            environment["PATH"] = environment["PATH"] ?? "/usr/bin:/bin"
            let run = try await ExternalCommand.run("/bin/bash", [IdpyOIDC.script.path, directory.path], environment: environment)
            guard run.status == 0, let info = try? JSONValue(data: run.standardOutput) else {
                throw DidNotStart(status: run.status, stderr: run.standardError)
            }
            let provider = IdpyOIDC(info: info)
            started = provider
            return provider
        }
    }

    private static let once = Once()

    static func shared() async throws -> IdpyOIDC { try await once.get() }

    struct DidNotStart: Error, CustomStringConvertible {
        var status: Int32
        var stderr: String
        var description: String { "scripts/idpyoidc/start.sh failed (exit \(status)): \(stderr)" }
    }
}

/// A person using idflow against idpyoidc: a home of their own and a config.yaml whose profiles name the gateway
/// client and its secret file (no OKTA_* variable, no configuration flag).
struct IdpyOIDCUser {
    let provider: IdpyOIDC
    let home: URL

    init(_ provider: IdpyOIDC) throws {
        self.provider = provider
        home = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-idpyoidc-\(UUID().uuidString)")
        let config = home.appendingPathComponent("config/idflow")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let wrongSecret = home.appendingPathComponent("wrong-secret")
        try "wrong-secret-value".write(to: wrongSecret, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: wrongSecret.path)
        let yaml = """
            profiles:
              gateway:
                issuer: \(provider.issuer)
                clientId: idflow-gateway
                clientSecretFile: \(provider.clientSecretFile)
              api:
                issuer: \(provider.issuer)
                clientId: idflow-gateway
                clientSecretFile: \(provider.clientSecretFile)
              wrong-secret:
                issuer: \(provider.issuer)
                clientId: idflow-gateway
                clientSecretFile: \(wrongSecret.path)

            """
        try yaml.write(to: config.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
    }

    var environment: [String: String] {
        [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "IDFLOW_STATE_DIR": home.appendingPathComponent("state").path, "IDFLOW_MAX_RETRIES": "0",
        ]
    }

    func idflow(_ arguments: [String]) async throws -> IdFlowBinary.Result {
        try await IdFlowBinary.run(arguments, environment: environment)
    }

    func storedFile(profile: String) -> URL {
        home.appendingPathComponent("state/profiles/\(profile)/tokens.json")
    }
}
