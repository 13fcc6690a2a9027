import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// Secrets that travel in settings (a proxy's password, a private key pasted where a path goes) as the built
/// binary shows them: in `doctor`, in errors, in a `--curl` script. Never in full.
extension DoctorTests {
    static let proxyPassword = "s3cret-proxy-pw"
    /// The private part of a JWK as Okta's Admin Console hands a service app's key out.
    static let jwkPrivatePart = "X4cTteJY_gn4FYPsXB8rdXix5vwsg1FLN5E3EaG6RJoVH"
    static let jwk = #"{"kty":"RSA","kid":"k1","n":"0vx7agoebGcQSuuPiLJXZpt","e":"AQAB","d":"\#(jwkPrivatePart)","p":"pp","q":"qq"}"#

    @Test func doctorShowsNeitherAProxysPasswordNorAnInlineKey() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let result = try await sandbox.idflow(
            ["doctor"],
            environment: [
                "HTTPS_PROXY": "jo:\(Self.proxyPassword)@proxy.example:3128", "OKTA_CLIENT_AUTHORIZATIONMODE": "PrivateKey",
                "OKTA_CLIENT_CLIENTID": "0oaService", "OKTA_CLIENT_PRIVATEKEY": Self.jwk,
            ])
        let everything = result.stdout + result.stderr
        #expect(!everything.contains(Self.proxyPassword), "\(result)")
        #expect(!everything.contains(Self.jwkPrivatePart), "\(result)")
        let checks = try Self.checks(result)
        let configuration = Self.detail(checks, "configuration")
        #expect(configuration.contains("privateKey=(inline key) (env OKTA_CLIENT_PRIVATEKEY)"), "\(configuration)")
        #expect(configuration.contains("proxy=<redacted>@proxy.example:3128 (env HTTPS_PROXY)"), "\(configuration)")
        #expect(Self.status(checks, "credentials") == "fail", "a JWK is refused, with its fix: \(result)")
        #expect(Self.detail(checks, "credentials").contains("OKTA_CLIENT_PRIVATEKEY"), "\(result)")
    }

    @Test func errorsNameTheSettingButEchoNeitherAPasswordNorAKey() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let badProxy = try await sandbox.idflow(["userinfo"], environment: ["HTTPS_PROXY": "jo:\(Self.proxyPassword)@[bad"])
        #expect(badProxy.exitCode != 0, "\(badProxy)")
        #expect(badProxy.error?["message"]?.stringValue?.contains("HTTPS_PROXY") == true, "\(badProxy)")
        #expect(!badProxy.stderr.contains(Self.proxyPassword), "\(badProxy)")

        let pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----"
        let inlineCertificate = try await sandbox.idflow(["userinfo"], environment: ["IDFLOW_CLIENT_CERT": pem])
        #expect(inlineCertificate.exitCode != 0, "\(inlineCertificate)")
        #expect(inlineCertificate.error?["message"]?.stringValue?.contains("IDFLOW_CLIENT_CERT") == true, "\(inlineCertificate)")
        #expect(!inlineCertificate.stderr.contains("MIIEvQ"), "the key was echoed as if it were a path: \(inlineCertificate)")

        let service = try await sandbox.idflow(
            ["register", "--email", "jwk@example.com"],
            environment: [
                "OKTA_CLIENT_AUTHORIZATIONMODE": "PrivateKey", "OKTA_CLIENT_CLIENTID": "0oaService", "OKTA_CLIENT_PRIVATEKEY": Self.jwk,
            ])
        #expect(service.exitCode != 0, "\(service)")
        #expect(service.error?["message"]?.stringValue?.contains("OKTA_CLIENT_PRIVATEKEY") == true, "\(service)")
        #expect(!service.stderr.contains(Self.jwkPrivatePart), "\(service)")
    }

    /// `--curl-file` with a proxy that takes credentials: the script names them only as `PROXY_USERINFO`, and a
    /// replay that exports it reaches the org through the proxy with them, as idflow did (an org whose name only the
    /// proxy resolves, so neither could go direct).
    @Test func aCurlScriptHoldsTheProxysCredentialsOnlyAsAVariable() async throws {
        let files = try CompanyNetworkTests.Files()
        let (sandbox, orgURL, caFile) = try await CompanyNetworkTests().unresolvableOrg(files)
        defer { sandbox.stop() }
        let proxy = try ConnectProxy(credentials: ("jo", Self.proxyPassword))
        let file = sandbox.home.appendingPathComponent("proxy.curl.sh")
        let run = try await sandbox.idflow(
            ["register", "--email", "proxy@example.com", "--curl-file", file.path],
            environment: [
                "OKTA_CLIENT_ORGURL": orgURL, "IDFLOW_CA_FILE": caFile,
                "HTTPS_PROXY": "http://jo:\(Self.proxyPassword)@127.0.0.1:\(proxy.port)",
            ])
        #expect(run.exitCode == 0, "\(run)")
        let script = try String(contentsOf: file, encoding: .utf8)
        #expect(!script.contains(Self.proxyPassword), "\(script)")
        #expect(script.contains(#"export PROXY_USERINFO="${PROXY_USERINFO:?"#), "\(script)")

        let directory = sandbox.home.appendingPathComponent("proxy-replay")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let scriptFile = directory.appendingPathComponent("replay.sh")
        try Data(script.utf8).write(to: scriptFile)
        let environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "IDFLOW_OUT": directory.path,
            "OKTA_CLIENT_TOKEN": sandbox.apiToken, "PROXY_USERINFO": "jo:\(Self.proxyPassword)",
        ]
        let tunnels = proxy.targets.current.count
        let replayed = try await ExternalCommand.run("/bin/bash", [scriptFile.path], environment: environment, directory: directory)
        #expect(replayed.status == 0, "\(replayed.standardError)")
        #expect(proxy.targets.current.count > tunnels, "the replay went through the proxy: \(proxy.targets.current)")
        #expect(proxy.refusals.current == 0, "with the credentials from PROXY_USERINFO")
    }
}
