import Crypto
import Foundation
import IdFlowTestSupport
import Testing
import _CryptoExtras

@testable import IdFlowCore
@testable import IdFlowFoundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// PrivateKey mode against Okta's recorded answers (okta-oauth-service): one token for many calls, the nonce
/// dance, the cache between runs, a renewed token after a refusal, a missing scope named.
struct ServiceAppSessionTests {
    let user = String(decoding: (try? Fixtures.data("okta-core/user-active-get-oie.json")) ?? Data(), as: UTF8.self)

    func recorded(_ name: String) throws -> String {
        String(decoding: try Fixtures.data("okta-oauth-service/\(name)"), as: UTF8.self)
    }

    /// A configuration in PrivateKey mode with a fresh RSA key written 0600 (or `mode`).
    func configuration(dpop: Bool, mode: mode_t = 0o600) throws -> Configuration {
        var configuration = TestContext.configuration()
        configuration.apiToken = nil
        configuration.managementMode = .privateKey
        let directory = configuration.stateDirectory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let keyFile = directory.appendingPathComponent("service.pem")
        try _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation.write(to: keyFile, atomically: true, encoding: .utf8)
        chmod(keyFile.path, mode)
        configuration.serviceApp.clientID = "0oaservice"
        configuration.serviceApp.privateKey = .file(path: keyFile.path, setting: "--private-key-file")
        configuration.serviceApp.dpop = dpop
        return configuration
    }

    func form(_ request: HTTPRequest) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: request.body ?? Data(), as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }

    func claims(_ jwt: String?) throws -> [String: Any] {
        try ProofOfPossessionTests.Parts(try #require(jwt)).claims
    }

    @Test func theNonceDanceThenOneTokenForEveryCallAndTheNextRun() async throws {
        let configuration = try configuration(dpop: true)
        let transport = ScriptedTransport([
            .json(400, try recorded("token-error-use-dpop-nonce.json"), headers: ["dpop-nonce": "nonce-1"]),
            .json(200, try recorded("token-client-credentials-dpop.json")),
            .json(200, user), .json(200, user),
        ])
        let api = try TestContext.make(transport: transport, configuration: configuration).usersAPI()
        _ = try await api.user("jo@example.com")
        _ = try await api.user("jo@example.com")
        let requests = transport.requests
        #expect(requests.count == 4, "one token request (and its nonce retry) for two calls")
        #expect(requests[0].url.absoluteString == "https://example.okta.com/oauth2/v1/token")
        let first = form(requests[0])
        let second = form(requests[1])
        #expect(first["grant_type"] == "client_credentials")
        #expect(first["scope"] == "okta.users.read okta.users.manage")
        #expect(first["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        #expect(try claims(first["client_assertion"])["jti"] as? String != claims(second["client_assertion"])["jti"] as? String)
        #expect(try claims(requests[0].header("DPoP"))["nonce"] == nil)
        #expect(try claims(requests[1].header("DPoP"))["nonce"] as? String == "nonce-1")
        let token =
            try #require(
                try JSONSerialization.jsonObject(with: Fixtures.data("okta-oauth-service/token-client-credentials-dpop.json"))
                    as? [String: Any])["access_token"] as? String
        #expect(requests[2].header("Authorization") == "DPoP \(token ?? "")")
        let call = try claims(requests[2].header("DPoP"))
        #expect(call["htm"] as? String == "GET")
        #expect(call["ath"] as? String == DPoPProof.tokenHash(token ?? ""))
        #expect(try claims(requests[3].header("DPoP"))["jti"] as? String != call["jti"] as? String)

        // The next run (a new context, a new session) finds the token in the cache, 0600, and asks for none.
        let cache = ServiceAppTokenCache(profileDirectory: configuration.profileDirectory, clientID: "0oaservice")
        var info = stat()
        #expect(stat(cache.file.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        let next = ScriptedTransport([.json(200, user)])
        _ = try await TestContext.make(transport: next, configuration: configuration).usersAPI().user("jo@example.com")
        #expect(next.requests.count == 1)
        #expect(next.requests[0].header("Authorization") == "DPoP \(token ?? "")")
    }

    @Test func aRefusedTokenIsReplacedOnceAndTheCallMadeAgain() async throws {
        let configuration = try configuration(dpop: false)
        let bearer = #"{"token_type":"Bearer","expires_in":3600,"access_token":"first","scope":"okta.users.read okta.users.manage"}"#
        let renewed = #"{"token_type":"Bearer","expires_in":3600,"access_token":"second","scope":"okta.users.read okta.users.manage"}"#
        let transport = ScriptedTransport([
            .json(200, bearer),
            .json(
                401, "",
                headers: [
                    "WWW-Authenticate":
                        #"Bearer authorization_uri="http://example.okta.com/oauth2/v1/authorize", realm="http://example.okta.com", scope="okta.users.read", error="invalid_token", error_description="The access token is invalid.", resource="/api/v1/users/jo""#
                ]),
            .json(200, renewed), .json(200, user),
        ])
        _ = try await TestContext.make(transport: transport, configuration: configuration).usersAPI().user("jo")
        #expect(transport.requests.map { $0.header("Authorization") ?? "" }.suffix(1) == ["Bearer second"])
        #expect(transport.requests[1].header("DPoP") == nil)
    }

    @Test func aMissingScopeSaysWhichScopeTheCallNeeds() async throws {
        let configuration = try configuration(dpop: false)
        let transport = ScriptedTransport([
            .json(200, #"{"token_type":"Bearer","expires_in":3600,"access_token":"t","scope":"okta.users.read"}"#),
            // okta-core.md §H5/H7: the refusal is in the header; the body may be empty.
            .response(
                status: 403,
                headers: [
                    "WWW-Authenticate":
                        #"Bearer authorization_uri="http://example.okta.com/oauth2/v1/authorize", realm="http://example.okta.com", scope="okta.users.manage", error="insufficient_scope", error_description="The access token provided does not contain the required scopes.", resource="/api/v1/users""#
                ], body: Data()),
        ])
        let api = try TestContext.make(transport: transport, configuration: configuration).usersAPI()
        do {
            _ = try await api.createUser(profile: ["login": "a@example.com", "email": "a@example.com"], activate: false)
            Issue.record("a 403 was taken for a created user")
        } catch {
            #expect(error.exitStatus == .authentication)
            guard case .oauth(403, let body, let hint?) = error else { throw error }
            #expect(body.error == "insufficient_scope")
            #expect(hint.contains("okta.users.manage") && hint.contains("POST /api/v1/users"))
        }
    }

    @Test func aKeyOthersCanReadIsRefusedAsSSHRefusesIt() async throws {
        let configuration = try configuration(dpop: false, mode: 0o644)
        let transport = ScriptedTransport([])
        do {
            _ = try TestContext.make(transport: transport, configuration: configuration).usersAPI()
            Issue.record("a world-readable key was used")
        } catch {
            #expect(error.exitStatus == .security)
            #expect(error.message.contains("are too open. It is required that your private key files are NOT accessible by others."))
        }
        #expect(transport.requests.isEmpty)
    }

    /// An app that does not require DPoP answers a proof with a Bearer token (Okta's documented example), bound to
    /// no key. A script is refused before any call is made with it, unless IDFLOW_DPOP_ALLOW_BEARER says a Bearer
    /// token will do; then the call goes on and the warning says what was given up.
    @Test func aBearerTokenAnsweringADPoPProofIsRefusedInAScriptUnlessAllowed() async throws {
        var configuration = try configuration(dpop: true)
        let bearer = try recorded("token-client-credentials-bearer.example.json")
        let refusedTransport = ScriptedTransport([.json(200, bearer), .json(200, user)])
        let refusedMessages = Locked<[String]>([])
        do {
            _ = try await TestContext.make(transport: refusedTransport, configuration: configuration, messages: refusedMessages)
                .usersAPI().user("jo")
            Issue.record("an unbound token was used although DPoP was asked for")
        } catch {
            #expect(error.exitStatus == .security)
            #expect(error.message.contains("Bearer token although idflow sent a DPoP proof"), "\(error.message)")
            #expect(error.hint?.contains("IDFLOW_DPOP_ALLOW_BEARER=1") == true)
        }
        #expect(refusedTransport.requests.count == 1, "the token was never sent to the API")

        configuration.acceptsBearerInPlaceOfDPoP = true
        let allowedTransport = ScriptedTransport([.json(200, bearer), .json(200, user)])
        let messages = Locked<[String]>([])
        _ = try await TestContext.make(transport: allowedTransport, configuration: configuration, messages: messages).usersAPI()
            .user("jo")
        #expect(allowedTransport.requests.count == 2)
        #expect(allowedTransport.requests.last?.header("Authorization")?.hasPrefix("Bearer ") == true)
        #expect(messages.current.contains { $0.contains("warning: the token endpoint issued a Bearer token") }, "\(messages.current)")
    }

    @Test func anAppThatRequiresDPoPSaysSoWhenNoProofWasSent() async throws {
        let configuration = try configuration(dpop: false)
        let transport = ScriptedTransport([.json(400, try recorded("token-error-invalid-dpop-proof-missing-header.json"))])
        do {
            _ = try await TestContext.make(transport: transport, configuration: configuration).usersAPI().user("jo")
            Issue.record("refused token request taken for a token")
        } catch {
            #expect(error.exitStatus == .authentication)
            guard case .oauth(400, _, let hint?) = error else { throw error }
            #expect(hint.contains("--dpop"))
        }
    }
}
