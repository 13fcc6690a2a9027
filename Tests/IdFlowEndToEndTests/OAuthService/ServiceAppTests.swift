import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// PrivateKey mode end to end: the built `idflow` against `idflow sandbox`'s service app, with no API token in the
/// environment, with and without DPoP; how many token requests a runbook makes; every refusal's exit code.
@Suite(.serialized)
struct ServiceAppTests {
    /// The environment of an org without API tokens: the sandbox's service app, its key file, no `OKTA_CLIENT_TOKEN`.
    static func privateKeyMode(_ sandbox: LiveSandbox) throws -> [String: String] {
        let app = try #require(sandbox.info["serviceApp"])
        return [
            "OKTA_CLIENT_TOKEN": "", "OKTA_CLIENT_AUTHORIZATIONMODE": "PrivateKey",
            "OKTA_CLIENT_CLIENTID": try #require(app["clientId"]?.stringValue),
            "OKTA_CLIENT_PRIVATEKEY": try #require(app["privateKeyFile"]?.stringValue),
        ]
    }

    /// The token requests a run made (`-v` trace), each attempt counted: a nonce challenge and its retry are two.
    static func tokenRequests(_ result: IdFlowBinary.Result) -> Int {
        result.stderr.split(separator: "\n").filter { $0.hasPrefix("> POST ") && $0.contains("/oauth2/v1/token") }.count
    }

    /// A sandbox whose one service app requires DPoP, as Okta makes new service apps, registered with a P-256 key
    /// made here (ES256), and the environment that uses it.
    static func dpopSandbox() async throws -> (LiveSandbox, [String: String]) {
        let key = DPoPKey.generate().privateKey
        let config: [String: Any] = [
            "serviceApps": [
                [
                    "clientId": "0oadpopservice000000", "publicKey": key.publicKey.pemRepresentation,
                    "scopes": ["okta.users.read", "okta.users.manage"], "requireDPoP": true,
                ]
            ]
        ]
        let sandbox = try await Self.sandbox(String(decoding: try JSONSerialization.data(withJSONObject: config), as: UTF8.self))
        let keyFile = sandbox.home.appendingPathComponent("service.pem")
        try key.pemRepresentation.write(to: keyFile, atomically: true, encoding: .utf8)
        chmod(keyFile.path, 0o600)
        let environment = [
            "OKTA_CLIENT_TOKEN": "", "OKTA_CLIENT_AUTHORIZATIONMODE": "PrivateKey", "OKTA_CLIENT_CLIENTID": "0oadpopservice000000",
            "OKTA_CLIENT_PRIVATEKEY": keyFile.path, "OKTA_CLIENT_DPOPENABLED": "true",
        ]
        return (sandbox, environment)
    }

    static func sandbox(_ config: String) async throws -> LiveSandbox {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("service-app-\(UUID().uuidString).json")
        try config.write(to: file, atomically: true, encoding: .utf8)
        return try await LiveSandbox.start(["--config", file.path])
    }

    @Test(arguments: [false, true]) func everyManagementCommandRunsWithoutAnAPIToken(dpop: Bool) async throws {
        let (sandbox, environment) = dpop ? try await Self.dpopSandbox() : (try await LiveSandbox.start(), [:])
        defer { sandbox.stop() }
        let mode = dpop ? environment : try Self.privateKeyMode(sandbox)
        func run(_ arguments: [String], stdin: String = "", extra: [String: String] = [:]) async throws -> IdFlowBinary.Result {
            let result = try await sandbox.idflow(arguments + ["-v"], stdin: stdin, environment: mode.merging(extra) { $1 })
            #expect(result.exitCode == 0, "\(arguments): \(result)")
            #expect(!result.stderr.contains("SSWS"), "no API token was sent")
            return result
        }
        let registered = try await run(["register", "--email", "kim@example.com"])
        #expect(try registered.json()["status"] == "STAGED")
        #expect(Self.tokenRequests(registered) == (dpop ? 2 : 1), "DPoP: the nonce challenge, then the token")
        if dpop {
            #expect(registered.stderr.contains("> Authorization: DPoP <redacted>"))
            #expect(registered.stderr.lowercased().contains("> dpop: <redacted>"), "a proof was sent, not shown")
        }
        #expect(!registered.stderr.contains("BEGIN PRIVATE KEY"))
        let id = try #require(try registered.json()["id"]?.stringValue)
        let activated = try await run(["activate", "--user", id])
        let token = try #require(try activated.json()["activationToken"]?.stringValue)
        // The user's own step needs no management credentials at all.
        _ = try await run(["set-password", "--password-stdin"], stdin: "Str0ng-Passw0rd!", extra: ["IDFLOW_ACTIVATION_TOKEN": token])
        var later = [activated]
        later.append(try await run(["user", "get", "kim@example.com"]))
        later.append(try await run(["user", "suspend", id]))
        later.append(try await run(["user", "unsuspend", id]))
        later.append(try await run(["user", "reset-password", id]))
        later.append(
            try await run(
                ["register", "--batch", "-"], stdin: #"{"email":"a@example.com"}"# + "\n" + #"{"email":"b@example.com"}"# + "\n"))
        #expect(later.map(Self.tokenRequests) == Array(repeating: 0, count: later.count), "one token for the whole runbook")
        #expect(try later[1].json()["status"] == "ACTIVE")
        #expect(later[5].stdout.split(separator: "\n").count == 2)
        // doctor's credentials check makes the same harmless read with the cached token.
        let doctor = try await sandbox.idflow(["doctor"], environment: mode)
        let credentials = try doctor.json()["checks"]?.arrayValue?.first { $0["name"] == "credentials" }
        #expect(credentials?["status"] == "ok", "\(doctor)")
        #expect(credentials?["detail"]?.stringValue?.contains("service app") == true)
        // The cache is the profile's, 0600, and holds the key a bound token needs.
        let cache = sandbox.stateDirectory.appendingPathComponent("profiles/default/service-apps")
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".json") }
        #expect(files.count == 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: cache.appendingPathComponent(files[0]).path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func anExpiredOrRefusedTokenIsReplacedAndTheCommandSucceeds() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let environment = try Self.privateKeyMode(sandbox)
        #expect(try await sandbox.idflow(["register", "--email", "kim@example.com"], environment: environment).exitCode == 0)
        let directory = sandbox.stateDirectory.appendingPathComponent("profiles/default/service-apps")
        let file = directory.appendingPathComponent(
            try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasSuffix(".json") }))
        func rewriteCache(_ change: (inout [String: Any]) -> Void) throws {
            var cached = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            change(&cached)
            try JSONSerialization.data(withJSONObject: cached).write(to: file)
        }
        // Expired here: a new token before the call.
        try rewriteCache { $0["expiresAt"] = "2020-01-01T00:00:00Z" }
        let expired = try await sandbox.idflow(["user", "get", "kim@example.com", "-v"], environment: environment)
        #expect(expired.exitCode == 0, "\(expired)")
        #expect(Self.tokenRequests(expired) == 1)
        // Refused by the server (revoked, say) though good by its expiry here: replaced once, the call made again.
        try rewriteCache { $0["accessToken"] = "eyJhbGciOiJub25lIn0.e30.revoked" }
        let refused = try await sandbox.idflow(["user", "get", "kim@example.com", "-v"], environment: environment)
        #expect(refused.exitCode == 0, "\(refused)")
        #expect(Self.tokenRequests(refused) == 1)
        #expect(refused.stderr.contains("< 401"))
    }

    @Test func refusalsSayWhatToFix() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let environment = try Self.privateKeyMode(sandbox)

        // A key the app does not know: invalid_client, exit 4.
        let otherKey = sandbox.home.appendingPathComponent("other.pem")
        try DPoPKey.generate().privateKey.pemRepresentation.write(to: otherKey, atomically: true, encoding: .utf8)
        chmod(otherKey.path, 0o600)
        let wrongKey = try await sandbox.idflow(
            ["user", "get", "nobody@example.com"], environment: environment.merging(["OKTA_CLIENT_PRIVATEKEY": otherKey.path]) { $1 })
        #expect(wrongKey.exitCode == 4, "\(wrongKey)")
        #expect(wrongKey.error?["errorCode"] == "invalid_client")

        // An unknown client: exit 4 too.
        let unknown = try await sandbox.idflow(
            ["user", "get", "nobody@example.com"], environment: environment.merging(["OKTA_CLIENT_CLIENTID": "0oanosuchservice000"]) { $1 })
        #expect(unknown.exitCode == 4, "\(unknown)")

        // A key others can read: refused before anything is sent, as ssh refuses it (exit 13).
        chmod(otherKey.path, 0o644)
        let open = try await sandbox.idflow(
            ["user", "get", "nobody@example.com"], environment: environment.merging(["OKTA_CLIENT_PRIVATEKEY": otherKey.path]) { $1 })
        #expect(open.exitCode == 13, "\(open)")
        #expect(open.stderr.contains("are too open"))

        // An assertion sent twice: the second is refused (the client never does this; an attacker who read one would).
        let keyFile = try #require(environment["OKTA_CLIENT_PRIVATEKEY"])
        let assertion = try ClientAssertion(
            clientID: try #require(environment["OKTA_CLIENT_CLIENTID"]),
            key: ClientAssertionKey(pem: String(contentsOfFile: keyFile, encoding: .utf8), keyID: nil, origin: keyFile))
        let tokenURL = try #require(URL(string: sandbox.orgURL + "/oauth2/v1/token"))
        let signed = try assertion.make(audience: tokenURL, now: Date())
        func exchange() async throws -> (Int, JSONValue?) {
            var request = HTTPRequest(method: "POST", url: tokenURL)
            request.setHeader("Content-Type", "application/x-www-form-urlencoded")
            request.body = Data(
                FormEncoding.encode([
                    ("grant_type", "client_credentials"), ("scope", "okta.users.read"), ("client_assertion_type", ClientAssertion.type),
                    ("client_assertion", signed),
                ]).utf8)
            let response = try await CurlTransport(options: .init()).send(request)
            let data = response.body
            return (response.status, try? JSONValue(data: data))
        }
        #expect(try await exchange().0 == 200)
        let replayed = try await exchange()
        #expect(replayed.0 == 401)
        #expect(replayed.1?["error"] == "invalid_client")
        #expect(replayed.1?["error_description"] == "The client_assertion token has already been used.")

        // A token without the scope the call needs: exit 4, naming the scope.
        let readOnly = try await sandbox.idflow(
            ["register", "--email", "lee@example.com", "--service-scopes", "okta.users.read"], environment: environment)
        #expect(readOnly.exitCode == 4, "\(readOnly)")
        #expect(readOnly.error?["errorCode"] == "insufficient_scope")
        #expect(readOnly.error?["hint"]?.stringValue?.contains("okta.users.manage") == true)
    }

    @Test func anAppThatRequiresDPoPRefusesTokensWithoutIt() async throws {
        let (strict, environment) = try await Self.dpopSandbox()
        defer { strict.stop() }
        let without = try await strict.idflow(
            ["user", "get", "nobody@example.com"], environment: environment.merging(["OKTA_CLIENT_DPOPENABLED": ""]) { $1 })
        #expect(without.exitCode == 4, "\(without)")
        #expect(without.error?["errorCode"] == "invalid_dpop_proof")
        #expect(without.error?["hint"]?.stringValue?.contains("--dpop") == true)
        let with = try await strict.idflow(["user", "get", "nobody@example.com", "--dpop"], environment: environment)
        #expect(with.exitCode == 5, "a bound token reached the users API, which knows no such user: \(with)")
    }

    @Test func aProofForAnotherURLIsRefused() async throws {
        let (sandbox, environment) = try await Self.dpopSandbox()
        defer { sandbox.stop() }
        let key = try #require(environment["OKTA_CLIENT_PRIVATEKEY"])
        let login = try await sandbox.idflow(
            ["login-client", "--issuer", sandbox.orgURL, "--private-key-file", key, "--dpop"],
            environment: environment.merging(["OKTA_CLIENT_PRIVATEKEY": ""]) { $1 })
        #expect(login.exitCode == 0, "\(login)")
        #expect(try login.json()["token_type"] == "DPoP")
        let stored = try #require(try TokenStore(directory: sandbox.stateDirectory.appendingPathComponent("profiles/default")).load())
        let proofKey = try #require(stored.dpopKey.flatMap(DPoPKey.init(stored:)))
        let token = stored.tokens.accessToken
        let users = try #require(URL(string: sandbox.orgURL + "/api/v1/users?limit=1"))
        func call(proofFor url: URL) async throws -> Int {
            var request = HTTPRequest(method: "GET", url: users)
            request.setHeader("Authorization", "DPoP \(token)")
            request.setHeader(
                "DPoP", try DPoPProof.make(key: proofKey, method: "GET", url: url, accessToken: token, nonce: nil, now: Date()))
            return try await CurlTransport(options: .init()).send(request).status
        }
        #expect(try await call(proofFor: users) == 200)
        let elsewhere = try await call(proofFor: try #require(URL(string: sandbox.orgURL + "/api/v1/groups")))
        #expect([400, 401].contains(elsewhere), "a proof signed for another URL")
    }
}
