import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// `idflow doctor` run as a user would, against a real sandbox and against setups broken one way at a time:
/// what each check says, and the exit code a script branches on.
@Suite struct DoctorTests {
    /// The checks of a run, by name.
    static func checks(_ result: IdFlowBinary.Result) throws -> [String: JSONValue] {
        let document = try result.json()
        var checks: [String: JSONValue] = [:]
        for check in document["checks"]?.arrayValue ?? [] {
            if let name = check["name"]?.stringValue { checks[name] = check }
        }
        return checks
    }

    static func status(_ checks: [String: JSONValue], _ name: String) -> String? { checks[name]?["status"]?.stringValue }
    static func detail(_ checks: [String: JSONValue], _ name: String) -> String { checks[name]?["detail"]?.stringValue ?? "" }

    @Test func aFreshSandboxPassesEveryCheck() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let result = try await sandbox.idflow(["doctor"])
        #expect(result.exitCode == 0, "\(result)")
        let document = try result.json()
        #expect(document["ok"] == true)
        let checks = try Self.checks(result)
        #expect(Set(checks.keys) == ["configuration", "org", "discovery", "jwks", "clock", "credentials", "state"])
        for (name, check) in checks {
            #expect(["ok", "skipped"].contains(check["status"]?.stringValue), "\(name): \(check)")
        }
        // Where each setting came from, the API token only as present.
        let configuration = Self.detail(checks, "configuration")
        #expect(configuration.contains("orgURL=\(sandbox.orgURL) (env OKTA_CLIENT_ORGURL)"), "\(configuration)")
        #expect(configuration.contains("apiToken=present (env OKTA_CLIENT_TOKEN)"), "\(configuration)")
        #expect(!result.stdout.contains(sandbox.apiToken) && !result.stderr.contains(sandbox.apiToken))
        #expect(Self.detail(checks, "discovery").contains("PKCE yes, device grant yes"), "\(Self.detail(checks, "discovery"))")
        // Like Okta's, the sandbox's discovery lists no interaction_code: its interact endpoint says IDX works.
        #expect(Self.detail(checks, "discovery").contains("IDX yes (its interact endpoint answers"), "\(Self.detail(checks, "discovery"))")
        #expect(Self.detail(checks, "credentials").contains("accepted"))
        // One line per check on stderr for people.
        #expect(
            result.stderr.split(separator: "\n").filter { $0.hasPrefix("ok") || $0.hasPrefix("skipped") }.count == 7, "\(result.stderr)")
    }

    /// A profile for any OpenID provider (an issuer, no org URL, no API token, no `OKTA_` name): nothing of Okta's is
    /// asked for or probed, and discovery says what the provider advertises.
    @Test func aProfileForAnyProviderIsJudgedAsOne() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let profile = [
            "OKTA_CLIENT_ORGURL": "", "OKTA_CLIENT_TOKEN": "", "OKTA_OAUTH2_CLIENTID": "", "OKTA_OAUTH2_REDIRECTURI": "",
            "IDFLOW_ISSUER": sandbox.orgURL + "/oauth2/default", "IDFLOW_CLIENT_ID": sandbox.clientID,
        ]
        let result = try await sandbox.idflow(["doctor", "--verbose"], environment: profile)
        #expect(result.exitCode == 0, "\(result)")
        let checks = try Self.checks(result)
        #expect(
            Self.detail(checks, "configuration").hasPrefix("a profile for any OpenID provider"), "\(Self.detail(checks, "configuration"))")
        #expect(Self.status(checks, "credentials") == "skipped")
        #expect(Self.detail(checks, "credentials").contains("no management API"), "\(Self.detail(checks, "credentials"))")
        #expect(!Self.detail(checks, "credentials").contains("OKTA_CLIENT_TOKEN"))
        let discovery = Self.detail(checks, "discovery")
        #expect(discovery.contains("IDX n/a"), "\(discovery)")
        #expect(discovery.contains("device grant yes") && discovery.contains("revocation yes"), "\(discovery)")
        // What the default authorization server publishes (dpop_signing_alg_values_supported, a PAR endpoint).
        #expect(discovery.contains("DPoP ") && !discovery.contains("DPoP no") && discovery.contains("PAR yes"), "\(discovery)")
        #expect(discovery.contains("grants "), "the advertised grants are listed: \(discovery)")
        #expect(!result.stderr.contains("/v1/interact"), "the Identity Engine was not probed: \(result.stderr)")
        #expect(Self.status(checks, "clock") == "ok")
    }

    @Test func aWrongIssuerFailsDiscoveryNamingBoth() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        // The org authorization server's document names the org as its issuer, not the default server.
        let configured = sandbox.orgURL + "/oauth2/default"
        let org = try await sandbox.idflow(["doctor", "--issuer", sandbox.orgURL])
        let viaHostName = configured.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let result = try await sandbox.idflow(["doctor", "--issuer", viaHostName])
        #expect(org.exitCode == 0, "the org server's own issuer is right: \(org)")
        #expect(result.exitCode == 13, "\(result)")
        let checks = try Self.checks(result)
        #expect(Self.status(checks, "discovery") == "fail")
        let detail = Self.detail(checks, "discovery")
        #expect(detail.contains(configured) && detail.contains(viaHostName), "\(detail)")
        #expect(checks["discovery"]?["fix"]?.stringValue?.contains(configured) == true)
        #expect(try result.json()["ok"] == false)
    }

    @Test func aStoredIDTokenWhoseKeyIsNotPublishedFailsTheJWKSCheck() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let (_, session) = try await sandbox.createActiveUser(email: "kid@example.com")
        let login = try await sandbox.idflow(["login-pkce", "--session-token-stdin"], stdin: session)
        #expect(login.exitCode == 0, "\(login)")
        let before = try Self.checks(try await sandbox.idflow(["doctor"]))
        #expect(Self.detail(before, "jwks").contains("the stored ID token's key"), "\(Self.detail(before, "jwks"))")

        // The issuer rotated its key away: the stored token names a kid the JWKS no longer has.
        let file = sandbox.stateDirectory.appendingPathComponent("profiles/default/tokens.json")
        var stored = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
        var tokens = stored["tokens"] as! [String: Any]
        let parts = (tokens["id_token"] as! String).split(separator: ".").map(String.init)
        let header = try JSONValue(data: Base64URL.decode(parts[0])!)
        var rewritten = header.objectValue ?? [:]
        rewritten["kid"] = "rotated-away"
        let newHeader = Base64URL.encode(try JSONEncoder().encode(JSONValue.object(rewritten)))
        tokens["id_token"] = ([newHeader] + parts.dropFirst()).joined(separator: ".")
        stored["tokens"] = tokens
        try JSONSerialization.data(withJSONObject: stored).write(to: file)

        let result = try await sandbox.idflow(["doctor"])
        #expect(result.exitCode == 13, "\(result)")
        let checks = try Self.checks(result)
        #expect(Self.status(checks, "jwks") == "fail")
        #expect(Self.detail(checks, "jwks").contains("rotated-away"), "\(Self.detail(checks, "jwks"))")
        #expect(checks["jwks"]?["fix"]?.stringValue?.contains("log in again") == true)
    }

    @Test func aClockOffFromTheServersWarnsWithTheMeasuredSkew() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let (status, _) = try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": 600])
        #expect(status == 200)
        let result = try await sandbox.idflow(["doctor"])
        // A warning is not a failure: the run still exits 0.
        #expect(result.exitCode == 0, "\(result)")
        let checks = try Self.checks(result)
        #expect(Self.status(checks, "clock") == "warn")
        let detail = Self.detail(checks, "clock")
        let measured = ["599 s", "600 s", "601 s"].contains { detail.contains("is \($0) behind the server's") }
        #expect(measured, "\(detail)")
        #expect(detail.contains("allow 120 s"))
    }

    @Test func aStateDirectoryOthersCanOpenFailsWithExit12() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let (_, session) = try await sandbox.createActiveUser(email: "perm@example.com")
        #expect(try await sandbox.idflow(["login-pkce", "--session-token-stdin"], stdin: session).exitCode == 0)
        let fine = try Self.checks(try await sandbox.idflow(["doctor", "--offline"]))
        #expect(Self.status(fine, "state") == "ok")
        #expect(
            Self.detail(fine, "state").contains("profile default: issuer \(sandbox.orgURL)/oauth2/default"), "\(Self.detail(fine, "state"))"
        )
        #expect(Self.detail(fine, "state").contains("refresh possible"))

        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox.stateDirectory.path)
        let result = try await sandbox.idflow(["doctor", "--offline"])
        #expect(result.exitCode == 12, "\(result)")
        let checks = try Self.checks(result)
        #expect(Self.status(checks, "state") == "fail")
        #expect(Self.detail(checks, "state").contains("mode 755, not 0700"), "\(Self.detail(checks, "state"))")
        #expect(checks["state"]?["fix"]?.stringValue == "chmod 700 \(sandbox.stateDirectory.path)")
    }

    @Test func anUnknownProfileIsAFailedCheckNotACrash() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let config = sandbox.home.appendingPathComponent("config/idflow")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "profiles:\n  staging:\n    orgUrl: https://staging.example.com\n".write(
            to: config.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        // Every other command stops at this configuration with exit 64.
        #expect(try await sandbox.idflow(["userinfo", "--profile", "stagng"]).exitCode == 64)

        let result = try await sandbox.idflow(["doctor", "--profile", "stagng"])
        #expect(result.exitCode == 3, "\(result)")
        #expect(result.error == nil, "a report, not an error line: \(result.stderr)")
        let checks = try Self.checks(result)
        #expect(Self.status(checks, "configuration") == "fail")
        #expect(Self.detail(checks, "configuration").contains("profile \"stagng\" is not defined"))
        #expect(checks["configuration"]?["fix"]?.stringValue?.contains("staging") == true)
        #expect(Self.detail(checks, "configuration").contains("profile=stagng (--profile)"))
        #expect(Self.status(checks, "org") == "skipped")
        #expect(Self.status(checks, "state") == "ok")
    }

    @Test func offlineSkipsTheNetworkChecks() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        // Nothing listens there: offline, nothing is tried.
        let result = try await sandbox.idflow(["doctor", "--offline"], environment: ["OKTA_CLIENT_ORGURL": "http://127.0.0.1:9"])
        #expect(result.exitCode == 0, "\(result)")
        let checks = try Self.checks(result)
        for name in ["org", "discovery", "jwks", "clock", "credentials"] {
            #expect(Self.status(checks, name) == "skipped" && Self.detail(checks, name) == "offline", "\(name)")
        }
        #expect(Self.status(checks, "configuration") == "ok")

        let online = try await sandbox.idflow(["doctor"], environment: ["OKTA_CLIENT_ORGURL": "http://127.0.0.1:9"])
        #expect(online.exitCode == 6, "\(online)")
        #expect(Self.status(try Self.checks(online), "org") == "fail")
    }

    @Test func anExpiredCertificateFailsTheOrgCheckWithItsDates() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-doctor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func write(_ name: String, _ text: String, mode: Int) throws -> String {
            let url = folder.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
            return url.path
        }
        let ca = try CertificateAuthority(commonName: "Doctor Expired CA")
        let expired = try ca.issueServerCertificate(
            dnsNames: ["localhost"], ipAddresses: ["127.0.0.1", "::1"], notValidBefore: Date().addingTimeInterval(-7 * 86400),
            notValidAfter: Date().addingTimeInterval(-86400))
        let sandbox = try await LiveSandbox.start([
            "--tls", "--tls-cert", try write("server.pem", expired.certificatePEM, mode: 0o644), "--tls-key",
            try write("server.key", expired.privateKeyPEM, mode: 0o600),
        ])
        defer { sandbox.stop() }
        let caFile = try write("ca.pem", ca.certificatePEM, mode: 0o644)
        let result = try await sandbox.idflow(["doctor", "--ca-file", caFile])
        #expect(result.exitCode == 6, "\(result)")
        let checks = try Self.checks(result)
        #expect(Self.status(checks, "org") == "fail")
        let day = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-86400)).prefix(10)
        #expect(Self.detail(checks, "org").contains("expired on \(day)"), "\(Self.detail(checks, "org"))")
        #expect(Self.detail(checks, "configuration").contains("caFile=\(caFile) (--ca-file)"))
    }

    @Test func aTrustedCertificateIsNamedWithItsExpiry() async throws {
        let sandbox = try await LiveSandbox.start(["--tls"])
        defer { sandbox.stop() }
        let result = try await sandbox.idflow(["doctor"])
        #expect(result.exitCode == 0, "\(result)")
        let detail = Self.detail(try Self.checks(result), "org")
        #expect(
            detail.contains("DNS, TCP and TLS ok") && detail.contains("TLS certificate of") && detail.contains("valid until"), "\(detail)")
    }
}
