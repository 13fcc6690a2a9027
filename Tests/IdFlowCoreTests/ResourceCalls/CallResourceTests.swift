import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `idflow api`'s flow: the stored token, refresh before expiry and once on a 401, RFC 9728, redirects, statuses.
@Suite struct CallResourceTests {
    let fixture = ResourceFixture()
    let api = ResourceFixture.api
    static let echo = RoutedTransport.Reply.json(200, #"{"sub":"00u1","big":12345678901234567890}"#)

    func failure(_ body: () async throws(IdFlowError) -> ResourceOutput) async -> IdFlowError? {
        do throws(IdFlowError) {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test func aValidTokenIsSentAndTheBodyPrintedAsTheServerSentIt() async throws {
        try fixture.storeLogin()
        let transport = fixture.transport { _ in Self.echo }
        let output = try await CallResource(url: api).run(fixture.context(transport))
        #expect(output.standardOutputBytes == Data(#"{"sub":"00u1","big":12345678901234567890}"#.utf8) + Data("\n".utf8))
        #expect(transport.requests.count == 1)
        #expect(ResourceFixture.bearer(transport.requests[0]) == "Bearer at1")
        #expect(transport.requests[0].header("Accept") == "application/json")
    }

    @Test func aTokenExpiringWithinTheSkewIsRefreshedFirstAndTheRotationSaved() async throws {
        try fixture.storeLogin(expiresIn: 30)
        let transport = fixture.transport { _ in Self.echo }
        _ = try await CallResource(url: api).run(fixture.context(transport))
        #expect(ResourceFixture.refreshes(transport) == 1)
        let call = try #require(transport.requests.last)
        #expect(call.url.host == "api.example.com")
        #expect(ResourceFixture.bearer(call) == "Bearer at2")
        #expect(try fixture.store.load()?.tokens.refreshToken == "rt2")
        #expect(try fixture.store.load()?.tokens.accessToken == "at2")
    }

    @Test func withNoRefreshAnExpiredTokenIsSentAsItIsAnd401IsFinal() async throws {
        try fixture.storeLogin(expiresIn: -10)
        let transport = fixture.transport { _ in .challenge(401, #"Bearer error="invalid_token""#) }
        let error = await failure { () throws(IdFlowError) in
            try await CallResource(url: api, refresh: false).run(fixture.context(transport))
        }
        #expect(error?.exitStatus == .authentication)
        #expect(error?.hint?.contains("--no-refresh") == true)
        #expect(ResourceFixture.refreshes(transport) == 0)
        #expect(transport.requests.count == 1)
    }

    @Test func a401GetsOneRefreshAndOneRetry() async throws {
        try fixture.storeLogin()
        let transport = fixture.transport { request in
            ResourceFixture.bearer(request) == "Bearer at2" ? Self.echo : .challenge(401, #"Bearer error="invalid_token""#)
        }
        let output = try await CallResource(url: api).run(fixture.context(transport))
        #expect(output.json["sub"] == "00u1")
        #expect(
            transport.requests.map { "\($0.url.host ?? "") \($0.route)" }.filter { !$0.contains("keys") && !$0.contains("openid") } == [
                "api.example.com GET /v1/me", "o.example.com POST /oauth2/default/v1/token", "api.example.com GET /v1/me",
            ])
        #expect(try fixture.store.load()?.tokens.refreshToken == "rt2")
    }

    @Test func aSecond401IsFinalNeverAThirdCall() async throws {
        try fixture.storeLogin()
        let transport = fixture.transport { _ in .challenge(401, #"Bearer realm="api", error="invalid_token", error_description="gone""#) }
        let error = await failure { () throws(IdFlowError) in try await CallResource(url: api).run(fixture.context(transport)) }
        #expect(error?.exitStatus == .authentication)
        #expect(ErrorReport(try #require(error)).error.httpStatus == 401)
        #expect(ErrorReport(try #require(error)).error.errorCode == "invalid_token")
        #expect(error?.message.contains("again after a refresh") == true)
        #expect(error?.hint?.contains("idflow login-pkce --issuer 'https://o.example.com/oauth2/default'") == true)
        #expect(transport.requests.filter { $0.url.host == "api.example.com" }.count == 2)
        #expect(ResourceFixture.refreshes(transport) == 1)
    }

    @Test func aFailedRefreshSaysWhichLoginToRun() async throws {
        try fixture.storeLogin(expiresIn: 10)
        let server = fixture.server
        let transport = server.transport { request in
            if request.route == "POST /oauth2/default/v1/token" { return .json(400, #"{"error":"invalid_grant"}"#) }
            return request.url.host == "api.example.com" ? Self.echo : nil
        }
        let error = await failure { () throws(IdFlowError) in try await CallResource(url: api).run(fixture.context(transport)) }
        #expect(error?.exitStatus == .authentication)
        #expect(error?.hint?.contains("idflow login-pkce --issuer 'https://o.example.com/oauth2/default'") == true)
        let sent = transport.requests.filter { $0.url.host == "api.example.com" }
        #expect(sent.isEmpty, "nothing sent with a dead token")
    }

    @Test func metadataNamingAnotherIssuerStopsWithoutRefreshingOrSendingTheTokenElsewhere() async throws {
        try fixture.storeLogin()
        let transport = fixture.transport { request in
            switch request.route {
            case "GET /.well-known/oauth-protected-resource/v1":
                return .json(200, #"{"resource":"https://api.example.com/v1","authorization_servers":["https://login.partner.example/"]}"#)
            default:
                return .challenge(
                    401,
                    #"Bearer error="invalid_token", resource_metadata="https://api.example.com/.well-known/oauth-protected-resource/v1""#)
            }
        }
        let error = await failure { () throws(IdFlowError) in try await CallResource(url: api).run(fixture.context(transport)) }
        #expect(error?.exitStatus == .authentication)
        #expect(error?.hint?.contains("idflow login-pkce --issuer 'https://login.partner.example/'") == true)
        #expect(error?.message.contains("not from https://o.example.com/oauth2/default") == true)
        #expect(ResourceFixture.refreshes(transport) == 0)
        let withToken = transport.requests.filter { ResourceFixture.bearer($0) != nil }
        #expect(withToken.map { $0.url.absoluteString } == [api], "the token went to the API once, and nowhere else")
    }

    @Test func nothingStoredSendsNoTokenAndNamesTheIssuerFromTheMetadata() async throws {
        let transport = fixture.transport { request in
            if request.route == "GET /.well-known/oauth-protected-resource" {
                return .json(
                    200, #"{"resource":"https://api.example.com","authorization_servers":["https://o.example.com/oauth2/default"]}"#)
            }
            return .challenge(401, #"Bearer realm="api", resource_metadata="/.well-known/oauth-protected-resource""#, body: "")
        }
        let error = await failure { () throws(IdFlowError) in try await CallResource(url: api).run(fixture.context(transport)) }
        #expect(error?.exitStatus == .authentication)
        #expect(error?.message.contains("nothing is stored for profile default") == true)
        #expect(error?.hint?.contains("idflow login-pkce --issuer 'https://o.example.com/oauth2/default'") == true)
        #expect(transport.requests.allSatisfy { ResourceFixture.bearer($0) == nil })
    }

    @Test func metadataForAnotherResourceIsASecurityFailure() async throws {
        try fixture.storeLogin()
        let transport = fixture.transport { request in
            if request.url.host == "evil.example" {
                return .json(200, #"{"resource":"https://evil.example/","authorization_servers":["https://evil.example/"]}"#)
            }
            return .challenge(401, #"Bearer resource_metadata="https://evil.example/.well-known/oauth-protected-resource""#)
        }
        let error = await failure { () throws(IdFlowError) in try await CallResource(url: api).run(fixture.context(transport)) }
        #expect(error?.exitStatus == .security)
        #expect(ResourceFixture.refreshes(transport) == 0)
    }

    @Test func insufficientScopeNamesTheScopeToAskFor() async throws {
        try fixture.storeLogin()
        let transport = fixture.transport { _ in
            .challenge(403, #"Bearer error="insufficient_scope", scope="orders.write""#, body: #"{"error":"insufficient_scope"}"#)
        }
        let error = await failure { () throws(IdFlowError) in try await CallResource(url: api).run(fixture.context(transport)) }
        #expect(error?.exitStatus == .authentication)
        #expect(error?.message.contains("needs the scope orders.write") == true)
        #expect(error?.hint?.contains("--scope 'openid offline_access orders.write'") == true)
        #expect(ResourceFixture.refreshes(transport) == 0, "a 403 is not refreshed")
    }

    @Test(arguments: [(404, IdFlowExitCode.notFound), (409, .rejected), (400, .rejected), (500, .server), (502, .server)])
    func statusesMapToTheContractsExitCodes(status: Int, code: IdFlowExitCode) async throws {
        try fixture.storeLogin()
        let transport = fixture.transport { _ in .json(status, #"{"errorCode":"E0000007","errorSummary":"Not found: x"}"#) }
        let error = await failure { () throws(IdFlowError) in try await CallResource(url: api).run(fixture.context(transport)) }
        #expect(error?.exitStatus == code)
        #expect(error?.kind == "resource_error")
        #expect(ErrorReport(try #require(error)).error.httpStatus == status)
    }

    @Test func includePrintsTheAnswerAsADocumentOnSuccessAndOnFailure() async throws {
        try fixture.storeLogin()
        let ok = fixture.transport { _ in Self.echo }
        let document = try await CallResource(url: api, include: true).run(fixture.context(ok)).json
        #expect(document["status"] == 200)
        #expect(document["headers"]?["content-type"] == "application/json")
        #expect(document["body"]?["sub"] == "00u1")

        let missing = fixture.transport { _ in .init(status: 404, headers: ["Content-Type": "text/plain"], body: Data("no such thing".utf8))
        }
        let error = await failure { () throws(IdFlowError) in try await CallResource(url: api, include: true).run(fixture.context(missing))
        }
        let printed = try #require(error?.standardOutputDocument)
        #expect(try JSONValue(encoding: printed)["body"] == "no such thing")
        #expect(error?.exitStatus == .notFound)
    }

    @Test func aBodyThatIsNotJSONNeedsRaw() async throws {
        try fixture.storeLogin()
        let transport = fixture.transport { _ in .init(status: 200, headers: ["Content-Type": "text/csv"], body: Data("a,b\n1,2\n".utf8)) }
        let error = await failure { () throws(IdFlowError) in try await CallResource(url: api).run(fixture.context(transport)) }
        #expect(error?.hint?.contains("--raw") == true)
        let raw = try await CallResource(url: api, raw: true).run(fixture.context(transport))
        #expect(raw.standardOutputBytes == Data("a,b\n1,2\n".utf8))
        #expect(ResourceFixture.bearer(transport.requests.last!) == "Bearer at1")
        #expect(transport.requests.last?.header("Accept") == "*/*")
    }

    @Test func anEmptyBodyPrintsNothing() async throws {
        try fixture.storeLogin()
        let transport = fixture.transport { _ in .init(status: 204) }
        let output = try await CallResource(url: api, method: "delete").run(fixture.context(transport))
        #expect(output.standardOutputBytes == Data())
        #expect(transport.requests.last?.method == "DELETE")
    }

    @Test func dataIsSentAsJSONFromTheArgumentAFileOrStandardInput() async throws {
        try fixture.storeLogin()
        let transport = fixture.transport { _ in Self.echo }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-data-\(UUID().uuidString).json")
        try Data(#"{"from":"file"}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        for (body, expected) in [
            (CallResource.Body(argument: #"{"from":"argv"}"#), #"{"from":"argv"}"#),
            (.init(argument: "@\(file.path)"), #"{"from":"file"}"#),
            (.init(argument: "@-"), #"{"from":"stdin"}"#),
        ] {
            _ = try await CallResource(url: api, body: body).run(fixture.context(transport, stdin: #"{"from":"stdin"}"#))
            let sent = try #require(transport.requests.last)
            #expect(sent.method == "POST")
            #expect(sent.header("Content-Type") == "application/json")
            #expect(sent.body.map { String(decoding: $0, as: UTF8.self) } == expected)
        }
        let notJSON = await failure { () throws(IdFlowError) in
            try await CallResource(url: api, body: .inline("a=1")).run(fixture.context(transport))
        }
        #expect(notJSON?.exitStatus == .usage)
        _ = try await CallResource(url: api, headers: ["Content-Type: application/x-www-form-urlencoded"], body: .inline("a=1")).run(
            fixture.context(transport))
        #expect(transport.requests.last?.body == Data("a=1".utf8))
    }

    /// `"X: a\r\nInjected: b"` holds "\r\n", one Character that equals neither "\r" nor "\n": the check reads
    /// Unicode scalars, so a header cannot smuggle a second one in.
    @Test(arguments: [
        "Authorization: Bearer mine", "authorization:Basic x", "DPoP: proof", "no colon", "Bad Name: x", "X-Id: a\r\nInjected: b",
        "X-Id: a\nInjected: b", "X-Id: a\rb", "X-Id: a\u{0}b",
    ])
    func headersThatWouldBypassTheStoredTokenOrAreMalformedAreRefused(header: String) async throws {
        try fixture.storeLogin()
        let transport = fixture.transport { _ in Self.echo }
        let error = await failure { () throws(IdFlowError) in
            try await CallResource(url: api, headers: [header]).run(fixture.context(transport))
        }
        #expect(error?.exitStatus == .usage)
        #expect(transport.requests.isEmpty, "refused before anything is sent")
    }

    @Test func redirectsKeepTheTokenOnTheSameOriginOnly() async throws {
        try fixture.storeLogin()
        let transport = fixture.transport { request in
            switch (request.url.host ?? "", request.url.path) {
            case ("api.example.com", "/v1/me"): return .init(status: 302, headers: ["Location": "/v1/me2"])
            case ("api.example.com", "/v1/me2"): return .init(status: 307, headers: ["Location": "https://cdn.example.net/blob"])
            case ("cdn.example.net", _): return Self.echo
            default: return nil
            }
        }
        _ = try await CallResource(url: api).run(fixture.context(transport))
        #expect(
            transport.requests.map { $0.url.absoluteString } == [
                api, "https://api.example.com/v1/me2", "https://cdn.example.net/blob",
            ])
        #expect(transport.requests.map { ResourceFixture.bearer($0) } == ["Bearer at1", "Bearer at1", nil])
        #expect(fixture.messages.current.contains { $0.contains("without the access token") })
    }

    @Test func a401FromAnotherOriginIsNotRefreshed() async throws {
        try fixture.storeLogin()
        let transport = fixture.transport { request in
            request.url.host == "api.example.com"
                ? .init(status: 303, headers: ["Location": "https://cdn.example.net/x"]) : .challenge(401, "Bearer")
        }
        let error = await failure { () throws(IdFlowError) in
            try await CallResource(url: api, method: "POST", body: .inline("{}")).run(fixture.context(transport))
        }
        #expect(error?.exitStatus == .authentication)
        #expect(error?.message.contains("the token was not sent there") == true)
        #expect(ResourceFixture.refreshes(transport) == 0)
        #expect(transport.requests.last?.method == "GET", "a 303 is followed with a GET")
        #expect(transport.requests.last?.body == nil)
    }

    @Test func aDPoPBoundTokenIsRefusedBeforeAnythingIsSent() async throws {
        try fixture.storeLogin(tokenType: "DPoP")
        let transport = fixture.transport { _ in Self.echo }
        let error = await failure { () throws(IdFlowError) in try await CallResource(url: api).run(fixture.context(transport)) }
        #expect(error?.message.contains("DPoP") == true)
        #expect(transport.requests.isEmpty)
    }

    @Test func plainHTTPToARemoteHostIsRefused() async throws {
        let error = await failure { () throws(IdFlowError) in
            try await CallResource(url: "http://api.example.com/x").run(fixture.context(fixture.transport { _ in Self.echo }))
        }
        #expect(error?.exitStatus == .security)
    }
}
