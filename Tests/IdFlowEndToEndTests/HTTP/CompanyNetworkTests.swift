import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// idflow on a company network, run as a user would: orgs behind a private CA, certificates that are expired
/// or for another host, a CONNECT proxy (with and without credentials), and a mutual-TLS gateway, each against
/// a real `idflow sandbox --tls` whose certificates the test makes.
@Suite(.serialized)
struct CompanyNetworkTests {
    /// A folder for the certificates one test makes, removed with it.
    final class Files: @unchecked Sendable {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-net-\(UUID().uuidString)")

        init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }

        deinit { try? FileManager.default.removeItem(at: folder) }

        /// Writes `text` as `name` with `mode`, returning its path.
        func write(_ name: String, _ text: String, mode: Int = 0o600) throws -> String {
            let url = folder.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
            return url.path
        }

        /// A sandbox serving `certificate` (`--tls-cert`/`--tls-key`), plus `extra` flags.
        func sandbox(serving certificate: CertificateAuthority.Issued, _ extra: [String] = []) async throws -> LiveSandbox {
            let cert = try write("server-\(UUID().uuidString).pem", certificate.certificatePEM, mode: 0o644)
            let key = try write("server-\(UUID().uuidString).key", certificate.privateKeyPEM)
            return try await LiveSandbox.start(["--tls", "--tls-cert", cert, "--tls-key", key] + extra)
        }
    }

    static let loopbackNames = (dns: ["localhost"], ip: ["127.0.0.1", "::1"])

    // MARK: - The flows over https

    @Test func registrationLoginRefreshEmbeddedAndPushSignInAllRunOverTLS() async throws {
        let sandbox = try await LiveSandbox.start(["--tls"])
        defer { sandbox.stop() }
        #expect(sandbox.orgURL.hasPrefix("https://"))
        // The registration chain (register, activate, set-password) through the CLI over https.
        let (userID, session) = try await sandbox.createActiveUser(email: "tls-chain@example.com")
        let login = try await sandbox.idflow(["login-pkce", "--session-token-stdin"], stdin: session)
        #expect(login.exitCode == 0, "\(login)")
        #expect(try login.json()["id_token_claims"]?["sub"] == .string(userID))
        #expect(try login.json()["id_token_claims"]?["iss"]?.stringValue?.hasPrefix("https://") == true)
        let refresh = try await sandbox.idflow(["refresh"])
        #expect(refresh.exitCode == 0, "\(refresh)")

        let embedded = try await sandbox.idflow(
            [
                "login-pkce", "--embedded", "--no-store", "--answer", "identifier=tls-chain@example.com", "--answer",
                "credentials.passcode=@-",
            ],
            stdin: "Str0ng-Passw0rd!\n")
        #expect(embedded.exitCode == 0, "\(embedded)")
        #expect(try embedded.json()["id_token_claims"]?["sub"] == .string(userID))

        let push = PushMFATests()
        _ = try await push.enrolled("tls-push@example.com", sandbox: sandbox)
        async let signIn = push.pushSignIn(sandbox, "tls-push@example.com")
        _ = try await push.firstPendingChallenge(sandbox)
        let resolved = try await sandbox.idflow(["resolve", "--next", "--approve"])
        #expect(resolved.exitCode == 0, "\(resolved)")
        let pushed = try await signIn
        #expect(pushed.exitCode == 0, "\(pushed)")
    }

    /// One TLS handshake per connection, not per request: a batch over https opens at most as many connections
    /// as it runs requests at once (`--verbose` names each new connection's certificate once).
    @Test func aBatchOverTLSReusesItsConnections() async throws {
        let sandbox = try await LiveSandbox.start(["--tls"])
        defer { sandbox.stop() }
        let files = try Files()
        let lines = (0..<40).map { #"{"email": "batch\#($0)@example.com"}"# }.joined(separator: "\n") + "\n"
        let batch = try files.write("users.ndjson", lines, mode: 0o644)
        let result = try await sandbox.idflow(["register", "--batch", batch, "--concurrency", "4", "--verbose"])
        #expect(result.exitCode == 0, "\(result.error as Any)")
        #expect(result.stdout.split(separator: "\n").count == 40)
        let handshakes = result.stderr.components(separatedBy: "* TLS certificate of 127.0.0.1:").count - 1
        #expect((1...4).contains(handshakes), "\(handshakes) handshakes for 40 requests at concurrency 4")
    }

    // MARK: - Trust

    @Test func thePrivateCAIsTrustedByFlagByEnvironmentAndBySSLCertFileAndNotWithoutOne() async throws {
        let sandbox = try await LiveSandbox.start(["--tls"])
        defer { sandbox.stop() }
        let caFile = try #require(sandbox.caFile)
        let untrusted = ["IDFLOW_CA_FILE": ""]

        let none = try await sandbox.idflow(["register", "--email", "none@example.com"], environment: untrusted)
        #expect(none.exitCode == 6, "\(none)")
        #expect(none.stdout.isEmpty)
        #expect(none.error?["message"]?.stringValue?.contains("idflow sandbox CA") == true, "the issuer is named: \(none)")
        #expect(none.error?["hint"]?.stringValue?.contains("--ca-file") == true)

        let byFlag = try await sandbox.idflow(["register", "--email", "flag@example.com", "--ca-file", caFile], environment: untrusted)
        #expect(byFlag.exitCode == 0, "\(byFlag)")
        let byEnvironment = try await sandbox.idflow(["register", "--email", "env@example.com"])
        #expect(byEnvironment.exitCode == 0, "\(byEnvironment)")
        // SSL_CERT_FILE replaces the system bundle, as OpenSSL reads it.
        let bySSLCertFile = try await sandbox.idflow(
            ["register", "--email", "sslcertfile@example.com"], environment: ["IDFLOW_CA_FILE": "", "SSL_CERT_FILE": caFile])
        #expect(bySSLCertFile.exitCode == 0, "\(bySSLCertFile)")
        // A profile key does the same.
        let config = sandbox.home.appendingPathComponent("config/idflow")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "profiles:\n  default:\n    caFile: \(caFile)\n".write(
            to: config.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        let byProfile = try await sandbox.idflow(["register", "--email", "profile@example.com"], environment: untrusted)
        #expect(byProfile.exitCode == 0, "\(byProfile)")
    }

    @Test func anExpiredCertificateIsRefusedWithItsDates() async throws {
        let files = try Files()
        let ca = try CertificateAuthority(commonName: "Expired Test CA")
        let expired = try ca.issueServerCertificate(
            dnsNames: Self.loopbackNames.dns, ipAddresses: Self.loopbackNames.ip, notValidBefore: Date().addingTimeInterval(-7 * 86400),
            notValidAfter: Date().addingTimeInterval(-86400))
        let sandbox = try await files.sandbox(serving: expired)
        defer { sandbox.stop() }
        let caFile = try files.write("ca.pem", ca.certificatePEM, mode: 0o644)
        let result = try await sandbox.idflow(["register", "--email", "late@example.com", "--ca-file", caFile])
        #expect(result.exitCode == 6, "\(result)")
        let message = result.error?["message"]?.stringValue ?? ""
        let day = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-86400)).prefix(10)
        #expect(message.contains("expired on \(day)"), "\(message)")
        #expect(result.error?["hint"]?.stringValue?.contains("clock") == true)
    }

    @Test func aCertificateForAnotherHostIsRefusedNamingBothNames() async throws {
        let files = try Files()
        let ca = try CertificateAuthority(commonName: "Wrong Host Test CA")
        let other = try ca.issueServerCertificate(dnsNames: ["sso.other.example"])
        let sandbox = try await files.sandbox(serving: other)
        defer { sandbox.stop() }
        let caFile = try files.write("ca.pem", ca.certificatePEM, mode: 0o644)
        let result = try await sandbox.idflow(["register", "--email", "host@example.com", "--ca-file", caFile])
        #expect(result.exitCode == 6, "\(result)")
        let message = result.error?["message"]?.stringValue ?? ""
        #expect(message.contains("sso.other.example") && message.contains("127.0.0.1"), "\(message)")
    }

    // MARK: - Proxies

    /// A sandbox whose certificate is for `org.idflow.test`, a name no DNS resolves: reachable only through a proxy.
    func unresolvableOrg(_ files: Files) async throws -> (LiveSandbox, orgURL: String, caFile: String) {
        let ca = try CertificateAuthority(commonName: "Proxy Test CA")
        let sandbox = try await files.sandbox(serving: try ca.issueServerCertificate(dnsNames: ["org.idflow.test"]))
        let port = try #require(URLComponents(string: sandbox.orgURL)?.port)
        return (sandbox, "https://org.idflow.test:\(port)", try files.write("ca.pem", ca.certificatePEM, mode: 0o644))
    }

    @Test func anOrgReachableOnlyThroughTheProxyIsReachedByFlagAndByHTTPSProxyButNotPastNoProxy() async throws {
        let files = try Files()
        let (sandbox, orgURL, caFile) = try await unresolvableOrg(files)
        defer { sandbox.stop() }
        let proxy = try ConnectProxy()
        let base = ["OKTA_CLIENT_ORGURL": orgURL, "IDFLOW_CA_FILE": caFile]

        let direct = try await sandbox.idflow(["register", "--email", "direct@example.com"], environment: base)
        #expect(direct.exitCode == 6, "without the proxy the name does not resolve: \(direct)")

        let byFlag = try await sandbox.idflow(
            ["register", "--email", "flag@example.com", "--proxy", proxy.url, "--verbose"], environment: base)
        #expect(byFlag.exitCode == 0, "\(byFlag)")
        #expect(byFlag.stderr.contains("* through proxy \(proxy.url)"), "--verbose names the proxy")
        #expect(proxy.targets.current.contains { $0.hasPrefix("org.idflow.test:") })

        let byEnvironment = try await sandbox.idflow(
            ["register", "--email", "env@example.com"], environment: base.merging(["HTTPS_PROXY": proxy.url]) { $1 })
        #expect(byEnvironment.exitCode == 0, "\(byEnvironment)")

        let before = proxy.targets.current.count
        let exempt = try await sandbox.idflow(
            ["register", "--email", "exempt@example.com"],
            environment: base.merging(["HTTPS_PROXY": proxy.url, "NO_PROXY": "idflow.test"]) { $1 })
        #expect(exempt.exitCode == 6, "NO_PROXY sends it direct, where the name does not resolve: \(exempt)")
        #expect(proxy.targets.current.count == before)

        // The sandbox itself (loopback) is never sent through the proxy.
        let loopback = try await sandbox.idflow(
            ["register", "--email", "loopback@example.com"],
            environment: ["HTTPS_PROXY": proxy.url, "IDFLOW_CA_FILE": caFile, "OKTA_CLIENT_ORGURL": sandbox.orgURL])
        #expect(loopback.exitCode == 6, "127.0.0.1 does not match the certificate, so this proves it went direct: \(loopback)")
        #expect(proxy.targets.current.count == before)
    }

    /// idflow decides `NO_PROXY` once and hands libcurl the outcome. libcurl 7.88 read `*` as "all" only as the whole
    /// list and knew no `*.name`, so these went through the proxy, with its credentials, although idflow said direct.
    @Test(arguments: ["*", "*.idflow.test", "example.org, *", ".idflow.test:8443"])
    func hostsNoProxyExemptsNeverReachTheProxy(noProxy: String) async throws {
        let files = try Files()
        let (sandbox, orgURL, caFile) = try await unresolvableOrg(files)
        defer { sandbox.stop() }
        let proxy = try ConnectProxy(credentials: ("alice", "pr0xy-s3cret"))
        let environment = [
            "OKTA_CLIENT_ORGURL": orgURL, "IDFLOW_CA_FILE": caFile, "HTTPS_PROXY": "http://alice:pr0xy-s3cret@127.0.0.1:\(proxy.port)",
            "NO_PROXY": noProxy,
        ]
        let result = try await sandbox.idflow(["register", "--email", "wildcard@example.com"], environment: environment)
        #expect(result.exitCode == 6, "sent direct, where the name does not resolve: \(result)")
        #expect(proxy.targets.current.isEmpty, "the proxy saw no CONNECT: \(proxy.targets.current)")
        #expect(proxy.refusals.current == 0)
    }

    @Test func oktaYAMLsProxyWithCredentialsIsUsedAndA407IsExit4WithoutLeakingThePassword() async throws {
        let files = try Files()
        let (sandbox, orgURL, caFile) = try await unresolvableOrg(files)
        defer { sandbox.stop() }
        let proxy = try ConnectProxy(credentials: ("alice", "pr0xy-s3cret"))
        let okta = sandbox.home.appendingPathComponent(".okta")
        try FileManager.default.createDirectory(at: okta, withIntermediateDirectories: true)
        func writeYAML(password: String) throws {
            try
                "okta:\n  client:\n    proxy:\n      host: 127.0.0.1\n      port: \(proxy.port)\n      username: alice\n      password: \(password)\n"
                .write(to: okta.appendingPathComponent("okta.yaml"), atomically: true, encoding: .utf8)
        }
        let base = ["OKTA_CLIENT_ORGURL": orgURL, "IDFLOW_CA_FILE": caFile]

        try writeYAML(password: "pr0xy-s3cret")
        let accepted = try await sandbox.idflow(["register", "--email", "yaml@example.com", "--verbose"], environment: base)
        #expect(accepted.exitCode == 0, "\(accepted)")
        #expect(accepted.stderr.contains("(with credentials)"))
        #expect(!accepted.stderr.contains("pr0xy-s3cret"), "the proxy password never reaches the trace")

        try writeYAML(password: "wrong")
        let refused = try await sandbox.idflow(["register", "--email", "refused@example.com", "--verbose"], environment: base)
        #expect(refused.exitCode == 4, "\(refused)")
        #expect(refused.error?["message"]?.stringValue?.contains("407") == true)
        #expect(refused.error?["hint"]?.stringValue?.contains("okta.client.proxy.username") == true)
        #expect(!refused.stderr.contains("wrong"))
        #expect(proxy.refusals.current >= 1)

        let inURL = try await sandbox.idflow(
            ["register", "--email", "url@example.com", "--proxy", "http://alice:pr0xy-s3cret@127.0.0.1:\(proxy.port)", "--verbose"],
            environment: base)
        #expect(inURL.exitCode == 0, "\(inURL)")
        #expect(!inURL.stderr.contains("pr0xy-s3cret"), "credentials inside the proxy URL are masked too")
    }

    // MARK: - Client certificates

    @Test func aMutualTLSGatewayWantsAClientCertificateItTrustsFromAKeyOnlyTheUserCanRead() async throws {
        let files = try Files()
        let clientCA = try CertificateAuthority(commonName: "Gateway Client CA")
        let clientCAFile = try files.write("client-ca.pem", clientCA.certificatePEM, mode: 0o644)
        let sandbox = try await LiveSandbox.start(["--tls", "--tls-client-ca", clientCAFile])
        defer { sandbox.stop() }
        let issued = try clientCA.issueClientCertificate(commonName: "ci-runner-7")
        let cert = try files.write("client.pem", issued.certificatePEM, mode: 0o644)
        let key = try files.write("client.key", issued.privateKeyPEM)

        let without = try await sandbox.idflow(["register", "--email", "nocert@example.com"])
        #expect(without.exitCode == 6, "\(without)")
        #expect(without.error?["hint"]?.stringValue?.contains("--client-cert") == true, "\(without)")

        let with = try await sandbox.idflow(["register", "--email", "cert@example.com", "--client-cert", cert, "--client-key", key])
        #expect(with.exitCode == 0, "\(with)")
        let fromEnvironment = try await sandbox.idflow(
            ["register", "--email", "certenv@example.com"], environment: ["IDFLOW_CLIENT_CERT": cert, "IDFLOW_CLIENT_KEY": key])
        #expect(fromEnvironment.exitCode == 0, "\(fromEnvironment)")

        let rogue = try CertificateAuthority(commonName: "Rogue CA").issueClientCertificate(commonName: "intruder")
        let rogueCert = try files.write("rogue.pem", rogue.certificatePEM, mode: 0o644)
        let rogueKey = try files.write("rogue.key", rogue.privateKeyPEM)
        let untrusted = try await sandbox.idflow([
            "register", "--email", "rogue@example.com", "--client-cert", rogueCert, "--client-key", rogueKey,
        ])
        #expect(untrusted.exitCode == 6, "\(untrusted)")
        #expect(untrusted.error?["message"]?.stringValue?.contains("client certificate") == true, "\(untrusted)")

        let openKey = try files.write("open.key", issued.privateKeyPEM, mode: 0o644)
        let refused = try await sandbox.idflow(["register", "--email", "open@example.com", "--client-cert", cert, "--client-key", openKey])
        #expect(refused.exitCode == 13, "\(refused)")
        #expect(refused.error?["message"]?.stringValue?.contains("are too open") == true)
        #expect(refused.error?["hint"] == .string("chmod 600 \(openKey)"))
    }

    /// An OAuth client registered for RFC 8705 `tls_client_auth`: it logs in with no secret, its certificate
    /// authenticates it at the token endpoint, and the access token it gets works only with that certificate.
    @Test func aTLSClientAuthClientLogsInWithItsCertificateAndItsTokenIsBoundToIt() async throws {
        let files = try Files()
        let clientCA = try CertificateAuthority(commonName: "mTLS Client CA")
        let clientCAFile = try files.write("client-ca.pem", clientCA.certificatePEM, mode: 0o644)
        let config = try files.write(
            "sandbox.json", #"{"tlsClientAuthClient": {"clientId": "0oaidflowmtls0000000", "subjectCommonName": "ci-runner-7"}}"#,
            mode: 0o644)
        let sandbox = try await LiveSandbox.start(["--tls", "--tls-client-ca", clientCAFile, "--config", config])
        defer { sandbox.stop() }
        let runner = try clientCA.issueClientCertificate(commonName: "ci-runner-7")
        let cert = try files.write("runner.pem", runner.certificatePEM, mode: 0o644)
        let key = try files.write("runner.key", runner.privateKeyPEM)
        // Every route of this gateway wants the certificate: the profile gives it to every command.
        let profiles = sandbox.home.appendingPathComponent("config/idflow")
        try FileManager.default.createDirectory(at: profiles, withIntermediateDirectories: true)
        try "profiles:\n  default:\n    clientCert: \(cert)\n    clientKey: \(key)\n"
            .write(to: profiles.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)

        let (userID, session) = try await sandbox.createActiveUser(email: "mtls@example.com")
        let login = try await sandbox.idflow(
            ["login-pkce", "--session-token-stdin", "--client-id", "0oaidflowmtls0000000"], stdin: session)
        #expect(login.exitCode == 0, "\(login)")
        #expect(try login.json()["id_token_claims"]?["sub"] == .string(userID))
        let inspected = try await sandbox.idflow(["token", "inspect"])
        #expect(try inspected.json()["claims"]?["cnf"]?["x5t#S256"]?.stringValue?.isEmpty == false, "\(inspected)")
        let userinfo = try await sandbox.idflow(["userinfo"])
        #expect(userinfo.exitCode == 0, "\(userinfo)")
        #expect(try userinfo.json()["sub"] == .string(userID))

        // The same token over a connection with another certificate of the same CA is refused.
        let other = try clientCA.issueClientCertificate(commonName: "someone-else")
        let otherCert = try files.write("other.pem", other.certificatePEM, mode: 0o644)
        let otherKey = try files.write("other.key", other.privateKeyPEM)
        let stolen = try await sandbox.idflow(["userinfo", "--client-cert", otherCert, "--client-key", otherKey])
        #expect(stolen.exitCode == 4, "\(stolen)")
    }
}
