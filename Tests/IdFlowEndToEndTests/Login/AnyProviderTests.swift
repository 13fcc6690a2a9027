import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// What a provider that is not Okta does differently, rehearsed on the sandbox with the built binary: a refresh
/// answered without an ID token, a confidential client configured only in a profile, a bodiless refusal, a
/// revocation refused, and no Authn API.
@Suite(.serialized)
struct AnyProviderTests {
    static let confidentialClient = "0oaconfidential00001"

    func loggedIn() async throws -> (LiveSandbox, JSONValue) { try await LiveSandbox.loggedIn("any@example.com") }

    func stored(_ sandbox: LiveSandbox) throws -> JSONValue { try sandbox.storedLogin() }

    /// OpenID Connect Core §12.2: a refresh answer may have no ID token. The new access and refresh tokens are
    /// printed and stored, and the login's ID token and its claims are kept.
    @Test func aRefreshAnsweredWithoutAnIDTokenKeepsTheLoginsAndStoresTheRest() async throws {
        let (sandbox, login) = try await loggedIn()
        let answer = #"""
            {"token_type":"Bearer","expires_in":3600,"access_token":"at-from-a-provider","refresh_token":"rt-from-a-provider","scope":"openid profile email offline_access"}
            """#
        try await sandbox.call(
            "POST", "/sandbox/faults", json: ["pathPrefix": "/oauth2/default/v1/token", "status": 200, "body": .string(answer)])
        let refreshed = try await sandbox.idflow(["refresh"])
        #expect(refreshed.exitCode == 0, "\(refreshed)")
        let output = try refreshed.json()
        #expect(output["access_token"] == "at-from-a-provider")
        #expect(output["refresh_token"] == "rt-from-a-provider")
        #expect(output["id_token"] == login["id_token"], "the login's ID token is kept")
        #expect(output["id_token_claims"]?["sub"] == login["id_token_claims"]?["sub"])
        let kept = try stored(sandbox)
        #expect(kept["tokens"]?["access_token"] == "at-from-a-provider", "nothing of the answer was dropped")
        #expect(kept["tokens"]?["refresh_token"] == "rt-from-a-provider")
        #expect(kept["tokens"]?["id_token"] == login["id_token"])
        #expect(kept["idTokenClaims"]?["sub"] == login["id_token_claims"]?["sub"])
    }

    /// A confidential client set up only in a profile (`clientId`, `clientSecretFile`): `token get` and `api`
    /// refresh with its secret, as `refresh` does (RFC 6749 §6); the sandbox refuses a refresh without it.
    @Test func aConfidentialClientsProfileSecretGoesWithEveryRefresh() async throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("conf-\(UUID().uuidString).json")
        try #"{"confidentialClientId":"0oaconfidential00001","confidentialClientSecret":"s3cret-value"}"#.write(
            to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }
        let sandbox = try await LiveSandbox.start(["--config", config.path])
        let secret = sandbox.home.appendingPathComponent("client-secret")
        try "s3cret-value\n".write(to: secret, atomically: true, encoding: .utf8)
        let profiles = sandbox.home.appendingPathComponent("config/idflow")
        try FileManager.default.createDirectory(at: profiles, withIntermediateDirectories: true)
        try "profiles:\n  default:\n    clientId: \(Self.confidentialClient)\n    clientSecretFile: \(secret.path)\n".write(
            to: profiles.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        // Only the profile names the client: no OKTA_OAUTH2_CLIENTID, no --client-id, no --client-secret-file.
        let profileOnly = ["OKTA_OAUTH2_CLIENTID": ""]
        let (_, session) = try await sandbox.createActiveUser(email: "conf@example.com")
        let login = try await sandbox.idflow(["login-pkce", "--session-token-stdin"], stdin: session, environment: profileOnly)
        #expect(login.exitCode == 0, "\(login)")
        #expect(try stored(sandbox)["clientId"]?.stringValue == Self.confidentialClient)

        // Stale by --min-ttl: `token get` refreshes, and the sandbox answers only a client that authenticated.
        let fresh = try await sandbox.idflow(["token", "get", "--min-ttl", "7200"], environment: profileOnly)
        #expect(fresh.exitCode == 0, "\(fresh)")
        #expect(try fresh.json()["access_token"] != login.json()["access_token"], "refreshed")

        // Revoked at the server: the resource answers 401, and `api` refreshes and calls again, with the secret too.
        let revoked = try await sandbox.idflow(["token", "revoke", "--type", "access"], environment: profileOnly)
        #expect(revoked.exitCode == 0, "\(revoked)")
        let resource = try #require(sandbox.info["resource"]?["url"]?.stringValue)
        let called = try await sandbox.idflow(["api", resource], environment: profileOnly)
        #expect(called.exitCode == 0, "\(called)")
        #expect(try stored(sandbox)["tokens"]?["access_token"] != (try fresh.json()["access_token"]))
    }

    /// A bare 400 with no body for a refresh is still a refused refresh: exit 4, said as one, with the login to redo;
    /// the stored login is untouched.
    @Test func aBodilessRefusalOfARefreshSaysToLogInAgain() async throws {
        let (sandbox, _) = try await loggedIn()
        let before = try stored(sandbox)
        try await sandbox.call("POST", "/sandbox/faults", json: ["pathPrefix": "/oauth2/default/v1/token", "status": 400, "body": ""])
        let refused = try await sandbox.idflow(["refresh"])
        #expect(refused.exitCode == 4, "\(refused)")
        #expect(refused.error?["message"]?.stringValue?.contains("refused the refresh") == true, "\(refused)")
        #expect(refused.error?["hint"]?.stringValue?.contains("log in again") == true, "\(refused)")
        #expect(try stored(sandbox) == before)
    }

    /// Any bodiless refusal names the request it answered and what to do, and keeps the contract's exit code.
    @Test func aBodilessRefusalNamesTheRequest() async throws {
        let (sandbox, _) = try await loggedIn()
        try await sandbox.call("POST", "/sandbox/faults", json: ["pathPrefix": "/oauth2/default/v1/revoke", "status": 400, "body": ""])
        let refused = try await sandbox.idflow(["token", "revoke"])
        #expect(refused.exitCode == 3, "\(refused)")
        #expect(
            refused.error?["message"]?.stringValue?.contains("HTTP 400 to \(sandbox.orgURL)/oauth2/default/v1/revoke") == true, "\(refused)"
        )
        #expect(refused.error?["hint"]?.stringValue?.contains("without saying why") == true, "\(refused)")
    }

    /// A provider that refuses this client's revocation: `logout` keeps the login (exit 4) and names `--local`;
    /// `logout --local` forgets it anyway and lists what was not revoked.
    @Test func aRefusedRevocationKeepsTheLoginUnlessLocal() async throws {
        let (sandbox, _) = try await loggedIn()
        let refusal = #"{"error":"invalid_client","error_description":"Client authentication failed."}"#
        let fault: JSONValue = ["pathPrefix": "/oauth2/default/v1/revoke", "status": 401, "body": .string(refusal), "count": 4]
        try await sandbox.call("POST", "/sandbox/faults", json: fault)
        let kept = try await sandbox.idflow(["logout"])
        #expect(kept.exitCode == 4, "\(kept)")
        #expect(kept.error?["hint"]?.stringValue?.contains("idflow logout --local") == true, "\(kept)")
        #expect(try stored(sandbox)["tokens"] != nil, "still stored")

        let forgotten = try await sandbox.idflow(["logout", "--local"])
        #expect(forgotten.exitCode == 0, "\(forgotten)")
        let result = try forgotten.json()
        #expect(result["cleared"] == true)
        #expect(result["notRevoked"]?.arrayValue?.compactMap { $0["token"]?.stringValue } == ["refresh_token", "access_token"])
        #expect(result["notRevoked"]?.arrayValue?.first?["error"]?.stringValue?.contains("invalid_client") == true)
        #expect(forgotten.stderr.contains("was not revoked"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.stateDirectory.appendingPathComponent("profiles/default/tokens.json").path))
    }

    /// `--username` needs Okta's Authn API; a provider without it answers 404, which is said as the wrong way in
    /// (exit 64), naming the modes that work anywhere.
    @Test func usernameAgainstAProviderWithoutAuthnNamesTheModesThatWork() async throws {
        let sandbox = try await LiveSandbox.start()
        try await sandbox.call(
            "POST", "/sandbox/faults", json: ["pathPrefix": "/api/v1/authn", "status": 404, "body": #"{"errorCode":"resource not found"}"#])
        let password = sandbox.home.appendingPathComponent("password")
        try "Str0ng-Passw0rd!".write(to: password, atomically: true, encoding: .utf8)
        let result = try await sandbox.idflow(["login-pkce", "--username", "jo@example.com", "--password-file", password.path])
        #expect(result.exitCode == 64, "\(result)")
        #expect(result.error?["message"]?.stringValue?.contains("Okta's Authn API") == true, "\(result)")
        let hint = result.error?["hint"]?.stringValue ?? ""
        #expect(hint.contains("--browser") && hint.contains("--manual") && hint.contains("login-device"), "\(hint)")
    }
}
