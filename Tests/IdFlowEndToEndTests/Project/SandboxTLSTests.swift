import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// `idflow sandbox --tls` and `idflow demo --tls` as processes: the start-up line, the CA file on disk, the whole
/// demo over https.
@Suite struct SandboxTLSTests {
    @Test func theStartUpLineHasHTTPSURLsAndAPrivateCAFileThatIsGoneAfterTheSandboxStops() async throws {
        let sandbox = try await LiveSandbox.start(["--tls"])
        let port = try #require(URLComponents(string: sandbox.orgURL)?.port)
        #expect(sandbox.orgURL == "https://127.0.0.1:\(port)", "\(sandbox.info)")
        #expect(sandbox.info["issuer"]?.stringValue == "https://127.0.0.1:\(port)/oauth2/default")
        let caFile = try #require(sandbox.caFile, "\(sandbox.info)")
        let attributes = try FileManager.default.attributesOfItem(atPath: caFile)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try String(contentsOfFile: caFile, encoding: .utf8).hasPrefix("-----BEGIN CERTIFICATE-----"))
        #expect(sandbox.environment["IDFLOW_CA_FILE"] == caFile)

        // LiveSandbox.call trusts the CA: the admin and OAuth routes answer over https with https URLs.
        let (status, info) = try await sandbox.call("GET", "/sandbox/info")
        #expect(status == 200)
        #expect(info?["caFile"]?.stringValue == caFile)
        let (discoveryStatus, discovery) = try await sandbox.call("GET", "/oauth2/default/.well-known/openid-configuration")
        #expect(discoveryStatus == 200)
        #expect(discovery?["token_endpoint"]?.stringValue == "https://127.0.0.1:\(port)/oauth2/default/v1/token")
        // A user's activation link is https too.
        let (created, user) = try await sandbox.call(
            "POST", "/api/v1/users?activate=false", json: ["profile": ["email": "tls@example.com", "login": "tls@example.com"]])
        #expect(created == 200, "\(String(describing: user))")
        let id = try #require(user?["id"]?.stringValue)
        let (_, activation) = try await sandbox.call("POST", "/api/v1/users/\(id)/lifecycle/activate?sendEmail=false")
        #expect(
            activation?["activationUrl"]?.stringValue?.hasPrefix("https://127.0.0.1:\(port)/") == true, "\(String(describing: activation))")

        try await sandbox.stopped()
        #expect(!FileManager.default.fileExists(atPath: caFile), "the CA file is removed when the sandbox stops")
    }

    @Test func theRegistrationChainALoginAndARefreshRunOverHTTPSTrustingTheCAFile() async throws {
        let sandbox = try await LiveSandbox.start(["--tls"])
        defer { sandbox.stop() }
        // LiveSandbox's environment carries IDFLOW_CA_FILE, as `sandbox --env` exports it.
        let (_, session) = try await sandbox.createActiveUser(email: "tls-chain@example.com")
        let login = try await sandbox.idflow(["login-pkce", "--session-token-stdin"], stdin: session)
        #expect(login.exitCode == 0, "\(login)")
        #expect(try login.json()["id_token_claims"]?["iss"]?.stringValue == sandbox.info["issuer"]?.stringValue)
        let refreshed = try await sandbox.idflow(["refresh"])
        #expect(refreshed.exitCode == 0, "\(refreshed)")

        // Without the CA the same command is refused before anything is sent: exit 6, naming --ca-file.
        let untrusted = try await sandbox.idflow(
            ["register", "--email", "tls-untrusted@example.com"], environment: ["IDFLOW_CA_FILE": ""])
        #expect(untrusted.exitCode == 6, "\(untrusted)")
        #expect(untrusted.stderr.contains("--ca-file"), "\(untrusted)")
    }

    @Test func withTLSClientCAEveryRouteWantsAClientCertificateSignedByIt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-mtls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func write(_ text: String, _ name: String) throws -> String {
            let path = directory.appendingPathComponent(name).path
            #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]))
            return path
        }
        let clients = try CertificateAuthority(commonName: "gateway clients")
        let issued = try clients.issueClientCertificate(commonName: "idflow-e2e")
        let clientCA = try write(clients.certificatePEM, "clients-ca.pem")
        let certificate = try write(issued.certificatePEM, "client.pem")
        let key = try write(issued.privateKeyPEM, "client.key")

        let sandbox = try await LiveSandbox.start(["--tls", "--tls-client-ca", clientCA])
        defer { sandbox.stop() }
        let refused = try await sandbox.idflow(["register", "--email", "mtls@example.com"])
        #expect(refused.exitCode == 6, "\(refused)")
        let accepted = try await sandbox.idflow(
            ["register", "--email", "mtls@example.com"], environment: ["IDFLOW_CLIENT_CERT": certificate, "IDFLOW_CLIENT_KEY": key])
        #expect(accepted.exitCode == 0, "\(accepted)")
        #expect(try accepted.json()["profile"]?["login"] == "mtls@example.com")
    }

    @Test func withoutTLSThereIsNoCAFileAndTheURLsStayHTTP() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        #expect(sandbox.orgURL.hasPrefix("http://127.0.0.1:"))
        #expect(sandbox.caFile == nil)
        #expect(sandbox.environment["IDFLOW_CA_FILE"] == nil)
    }

    @Test func theDemoRunsEveryStepOverHTTPS() async throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-demo-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-demo-tls-home-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try await IdFlowBinary.run(["demo", "--tls"], environment: ["HOME": home.path, "TMPDIR": tmp.path])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.contains("idflow demo: sandbox at https://127.0.0.1:"), "\(result.stderr)")
        let steps = try result.stdout.split(separator: "\n").map { try JSONValue(data: Data($0.utf8)) }
        #expect(steps.count == 15, "\(result)")
        #expect(steps.allSatisfy { $0["ok"] == true }, "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).isEmpty, "no state dir and no CA file left behind")
    }

    @Test(arguments: [
        (["--tls-cert", "c.pem", "--tls-key", "k.pem"], "--tls-cert needs --tls"),
        (["--tls", "--tls-cert", "c.pem"], "--tls-cert needs --tls-key"),
        (["--tls", "--tls-cert", "/nonexistent/c.pem", "--tls-key", "/nonexistent/k.pem"], "/nonexistent/c.pem"),
    ])
    func badTLSFlagsAreUsageErrors(flags: [String], message: String) async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-tls-usage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try await IdFlowBinary.run(["sandbox", "--port", "0"] + flags, environment: ["HOME": home.path])
        #expect(result.exitCode == 64, "\(result)")
        #expect(result.error?["message"]?.stringValue?.contains(message) == true, "\(result)")
        #expect(result.stdout.isEmpty)
    }
}
