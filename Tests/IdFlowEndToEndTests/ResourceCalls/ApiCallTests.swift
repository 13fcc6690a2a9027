import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `idflow api` and `idflow token get` against the sandbox's protected resource: the mobile app's API calls,
/// refreshes and refusals, with the built binary.
@Suite(.serialized)
struct ApiCallTests {
    /// A sandbox with one logged-in user (`extra` login flags); returns it, the login output and the resource info.
    func loggedIn(_ email: String, extra: [String] = [], sandboxConfiguration: String? = nil) async throws -> (
        LiveSandbox, JSONValue, JSONValue
    ) {
        var arguments: [String] = []
        if let sandboxConfiguration {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-api-sandbox-\(UUID().uuidString).json")
            try Data(sandboxConfiguration.utf8).write(to: file)
            arguments = ["--config", file.path]
        }
        let sandbox = try await LiveSandbox.start(arguments)
        let (_, session) = try await sandbox.createActiveUser(email: email)
        let login = try await sandbox.idflow(["login-pkce", "--session-token-stdin"] + extra, stdin: session)
        guard login.exitCode == 0 else { throw LiveSandbox.StepFailed(step: "login-pkce", result: login) }
        return (sandbox, try login.json(), try #require(sandbox.info["resource"]))
    }

    func stored(_ sandbox: LiveSandbox) throws -> JSONValue {
        try JSONValue(data: Data(contentsOf: sandbox.stateDirectory.appendingPathComponent("profiles/default/tokens.json")))
    }

    func url(_ resource: JSONValue, _ key: String) throws -> String {
        try #require(resource[key]?.stringValue)
    }

    /// Lines of a `--verbose` trace that sent a request to `url`.
    func requests(to url: String, in stderr: String) -> Int {
        stderr.split(separator: "\n").filter { $0.hasPrefix("> ") && $0.hasSuffix(" \(url)") || $0.contains(" \(url) (attempt") }.count
    }

    @Test func withNothingStoredTheMetadataNamesTheIssuer() async throws {
        let sandbox = try await LiveSandbox.start()
        let resource = try #require(sandbox.info["resource"])
        let result = try await sandbox.idflow(["api", try url(resource, "url")])
        #expect(result.exitCode == 4, "\(result)")
        #expect(result.stdout.isEmpty)
        let issuer = try #require(sandbox.info["issuer"]?.stringValue)
        #expect(result.error?["hint"]?.stringValue?.contains("idflow login-pkce --issuer '\(issuer)'") == true, "\(result)")
        #expect(result.error?["httpStatus"] == 401)
    }

    @Test func afterALoginTheAPIAnswersForTheUser() async throws {
        let (sandbox, login, resource) = try await loggedIn("api@example.com")
        let result = try await sandbox.idflow(["api", try url(resource, "url")])
        #expect(result.exitCode == 0, "\(result)")
        let answer = try result.json()
        #expect(answer["sub"] == login["id_token_claims"]?["sub"])
        #expect(answer["method"] == "GET")
        #expect(answer["scopes"]?.arrayValue?.contains("offline_access") == true)
    }

    @Test func pastTheAccessTokensExpiryItIsRefreshedAndTheRotatedRefreshTokenStored() async throws {
        // Tokens of 90 s: idflow (on real time) still finds the token good, the resource (on the sandbox clock) does
        // not; and the refreshed ID token's iat stays within the 120 s idflow allows for a clock ahead of its own.
        let (sandbox, login, resource) = try await loggedIn(
            "expiry@example.com", sandboxConfiguration: #"{"accessTokenLifetimeSeconds": 90}"#)
        try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": .number(91)])
        let result = try await sandbox.idflow(["api", "--verbose", try url(resource, "url")])
        #expect(result.exitCode == 0, "\(result)")
        #expect(try result.json()["sub"] == login["id_token_claims"]?["sub"])
        let saved = try stored(sandbox)
        #expect(saved["tokens"]?["refresh_token"] != login["refresh_token"], "the rotated refresh token is stored")
        #expect(saved["tokens"]?["access_token"] != login["access_token"])
        // The sandbox clock is ahead of idflow's, so the token looked valid: sent, refused, refreshed once, sent again.
        #expect(requests(to: try url(resource, "url"), in: result.stderr) == 2, "\(result.stderr)")
        #expect(result.stderr.contains("refreshing once and retrying"))
    }

    @Test func aRevokedAccessTokenGetsOneRefreshAndOneRetry() async throws {
        let (sandbox, login, resource) = try await loggedIn("revoked@example.com")
        let revoked = try await sandbox.idflow(["token", "revoke", "--type", "access"])
        #expect(revoked.exitCode == 0, "\(revoked)")
        let result = try await sandbox.idflow(["api", "--verbose", try url(resource, "url")])
        #expect(result.exitCode == 0, "\(result)")
        #expect(try result.json()["sub"] == login["id_token_claims"]?["sub"])
        #expect(requests(to: try url(resource, "url"), in: result.stderr) == 2, "\(result.stderr)")
        let tokenRequests = result.stderr.split(separator: "\n").filter {
            $0.hasPrefix("> POST") && $0.hasSuffix("/oauth2/default/v1/token")
        }
        #expect(tokenRequests.count == 1, "one refresh: \(result.stderr)")
        #expect(!result.stderr.contains(login["access_token"]?.stringValue ?? "-"), "the trace redacts the token")
        #expect(try stored(sandbox)["tokens"]?["refresh_token"] != login["refresh_token"])
    }

    @Test func theAdminURLNamesTheScopeItNeeds() async throws {
        let (sandbox, _, resource) = try await loggedIn("admin@example.com")
        let result = try await sandbox.idflow(["api", try url(resource, "adminUrl")])
        #expect(result.exitCode == 4, "\(result)")
        #expect(result.error?["httpStatus"] == 403)
        #expect(result.error?["errorCode"] == "insufficient_scope")
        #expect(result.error?["message"]?.stringValue?.contains("resource.admin") == true)
        #expect(result.error?["hint"]?.stringValue?.contains("resource.admin") == true)
    }

    @Test func anotherIssuersResourceIsRefusedWithTheIssuerToLogInTo() async throws {
        let (sandbox, _, resource) = try await loggedIn("other@example.com")
        let target = try url(resource, "orgIssuerUrl")
        let result = try await sandbox.idflow(["api", "--verbose", target])
        #expect(result.exitCode == 4, "\(result)")
        #expect(result.error?["hint"]?.stringValue?.contains("idflow login-pkce --issuer '\(sandbox.orgURL)'") == true, "\(result)")
        #expect(!result.stderr.contains("/v1/token"), "no refresh for a resource that takes another issuer's tokens")
        let authorized = result.stderr.split(separator: "\n").filter { $0.hasPrefix("> Authorization:") }
        #expect(authorized.count == 1, "the token went to the resource once and nowhere else: \(result.stderr)")
    }

    @Test func postWithDataFromAFile() async throws {
        let (sandbox, _, resource) = try await loggedIn("post@example.com")
        let file = sandbox.home.appendingPathComponent("order.json")
        try Data(#"{"item":"book","qty":2}"#.utf8).write(to: file)
        let result = try await sandbox.idflow(["api", "--data", "@\(file.path)", try url(resource, "url")])
        #expect(result.exitCode == 0, "\(result)")
        let answer = try result.json()
        #expect(answer["method"] == "POST")
        #expect(answer["body"] == ["item": "book", "qty": 2])

        let piped = try await sandbox.idflow(
            ["api", "-X", "POST", "--include", "--data", "@-", try url(resource, "url")], stdin: #"[1,2]"#)
        #expect(piped.exitCode == 0, "\(piped)")
        #expect(try piped.json()["status"] == 200)
        #expect(try piped.json()["body"]?["body"] == [1, 2])
    }

    @Test func aCrossOriginRedirectIsFollowedWithoutTheToken() async throws {
        let (sandbox, login, _) = try await loggedIn("redirect@example.com")
        let elsewhere = try TinyHTTPListener { _ in (200, ["Content-Type": "application/json"], #"{"served":"elsewhere"}"#) }
        let api = try TinyHTTPListener { head in
            head.hasPrefix("GET /start ")
                ? (302, ["Location": "/moved"], "") : (307, ["Location": "\(elsewhere.url)/data"], "")
        }
        let result = try await sandbox.idflow(["api", "\(api.url)/start"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(try result.json()["served"] == "elsewhere")
        let token = try #require(login["access_token"]?.stringValue)
        #expect(api.requests.count == 2)
        #expect(api.requests.allSatisfy { $0.contains("Authorization: Bearer \(token)") }, "same origin: the token follows")
        #expect(elsewhere.requests.count == 1)
        #expect(!elsewhere.anyRequestHadHeader("Authorization"), "another origin: no token")
        #expect(result.stderr.contains("without the access token"))
    }

    /// The user's own credential headers (`-H Cookie: …`) follow redirects on their origin only, as curl's do: a
    /// redirect elsewhere gets neither them nor a way back to them.
    @Test func theUsersCredentialHeadersStayOnTheirOrigin() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let elsewhere = try TinyHTTPListener { _ in (200, ["Content-Type": "application/json"], #"{"served":"elsewhere"}"#) }
        let api = try TinyHTTPListener { head in
            head.hasPrefix("GET /start ")
                ? (302, ["Location": "/moved"], "") : (307, ["Location": "\(elsewhere.url)/data"], "")
        }
        let result = try await sandbox.idflow(
            [
                "api", "\(api.url)/start", "-H", "Cookie: session=s3cret", "-H", "Proxy-Authorization: Basic dXNlcjpwdw==",
                "-H", "X-Request-Id: r-1",
            ])
        #expect(result.exitCode == 0, "\(result)")
        #expect(try result.json()["served"] == "elsewhere")
        #expect(api.requests.count == 2)
        #expect(
            api.requests.allSatisfy { $0.contains("Cookie: session=s3cret") && $0.contains("Proxy-Authorization: Basic") },
            "same origin: the user's headers follow")
        #expect(elsewhere.requests.count == 1)
        for name in ["Cookie", "Proxy-Authorization"] {
            #expect(!elsewhere.anyRequestHadHeader(name), "another origin: no \(name)")
        }
        #expect(elsewhere.anyRequestHadHeader("X-Request-Id"), "a header that carries no credential still follows")
    }

    @Test func tokenGetRefreshesInsideTheMinimumTTLOnly() async throws {
        let (sandbox, login, _) = try await loggedIn("ttl@example.com")
        let plain = try await sandbox.idflow(["token", "get"])
        #expect(plain.exitCode == 0, "\(plain)")
        let output = try plain.json()
        #expect(output["access_token"] == login["access_token"], "an hour left: no refresh")
        #expect(Set(output.objectValue.map { Array($0.keys) } ?? []) == ["access_token", "token_type", "expires_at", "scope"])

        let refreshed = try await sandbox.idflow(["token", "get", "--min-ttl", "7200"])
        #expect(refreshed.exitCode == 0, "\(refreshed)")
        #expect(try refreshed.json()["access_token"] != login["access_token"])
        #expect(refreshed.stderr.contains("within --min-ttl 7200"), "the sandbox's tokens live an hour: said so")
        let saved = try stored(sandbox)
        #expect(saved["tokens"]?["access_token"] == (try refreshed.json()["access_token"]))
        #expect(saved["tokens"]?["refresh_token"] != login["refresh_token"])

        // The runbook line works with what it printed.
        let resource = try #require(sandbox.info["resource"]?["url"]?.stringValue)
        let token = try #require(try refreshed.json()["access_token"]?.stringValue)
        var request = HTTPRequest(method: "GET", url: URL(string: resource)!)
        request.setHeader("Authorization", "Bearer \(token)")
        let response = try await CurlTransport(options: .init()).send(request)
        #expect(response.status == 200)
    }

    /// kubectl's reading of a credential plugin's stdout (k8s.io/client-go/plugin/pkg/client/auth/exec): the
    /// apiVersion must be the one asked for, kind ExecCredential, status.token non-empty, and
    /// status.expirationTimestamp, when present, an RFC 3339 time.
    @Test func execCredentialIsWhatKubectlReads() async throws {
        let (sandbox, login, _) = try await loggedIn("kube@example.com")
        let result = try await sandbox.idflow(["token", "get", "--output", "exec-credential"])
        #expect(result.exitCode == 0, "\(result)")
        struct ExecCredential: Decodable {
            struct Status: Decodable {
                var token: String
                var expirationTimestamp: String?
                var clientCertificateData: String?
            }
            var apiVersion: String
            var kind: String
            var status: Status?
        }
        let credential = try JSONDecoder().decode(ExecCredential.self, from: Data(result.stdout.utf8))
        #expect(credential.apiVersion == "client.authentication.k8s.io/v1")
        #expect(credential.kind == "ExecCredential")
        let status = try #require(credential.status)
        #expect(status.token == login["id_token"]?.stringValue, "the ID token by default, as Kubernetes' OIDC authenticator takes")
        #expect(status.clientCertificateData == nil)
        let formatter = ISO8601DateFormatter()
        let expiry = try #require(status.expirationTimestamp.flatMap(formatter.date(from:)))
        // The ID token's own exp (by the sandbox's clock), not this machine's clock plus a margin.
        let exp = try #require(login["id_token_claims"]?["exp"]?.intValue)
        #expect(Int(expiry.timeIntervalSince1970) == exp, "\(expiry) vs exp \(exp)")

        let access = try await sandbox.idflow(["token", "get", "--output", "exec-credential", "--token-type", "access"])
        #expect(try access.json()["status"]?["token"] == login["access_token"])
    }
}
