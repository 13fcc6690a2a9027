import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

struct TokenRequestsTests {
    let endpoint = URL(string: "https://example.com/oauth2/default/v1/token")!
    let publicClient = ClientCredentials(clientID: "0oaclient")

    @Test func theCodeGrantIsAFormPostWithTheVerifierAndIsNotRetried() throws {
        let request = try AuthorizationCodeTokenRequest(
            tokenEndpoint: endpoint, client: publicClient, code: "c0de", redirectURI: "com.example:/callback", verifier: "v3rifier"
        ).httpRequest()
        #expect(request.method == "POST")
        #expect(request.url == endpoint)
        #expect(request.headers == ["Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded"])
        #expect(
            String(decoding: request.body ?? Data(), as: UTF8.self)
                == "grant_type=authorization_code&code=c0de&redirect_uri=com.example%3A%2Fcallback&code_verifier=v3rifier&client_id=0oaclient"
        )
        #expect(!request.isIdempotent)
    }

    @Test func aConfidentialClientUsesBasicAndNoFormClientID() throws {
        let client = ClientCredentials(clientID: "0oa client", secret: Secret("s3cret"))
        let request = try RefreshTokenRequest(tokenEndpoint: endpoint, client: client, refreshToken: "rt", scope: nil).httpRequest()
        #expect(request.headers["Authorization"] == "Basic \(Data("0oa%20client:s3cret".utf8).base64EncodedString())")
        #expect(Built.form(request) == ["grant_type": "refresh_token", "refresh_token": "rt"])
        #expect(!request.isIdempotent)
    }

    @Test func theRefreshGrantSendsAScopeOnlyWhenAsked() throws {
        let request = try RefreshTokenRequest(tokenEndpoint: endpoint, client: publicClient, refreshToken: "rt", scope: "openid")
            .httpRequest()
        #expect(Built.form(request) == ["grant_type": "refresh_token", "refresh_token": "rt", "scope": "openid", "client_id": "0oaclient"])
    }

    @Test func anInvalidGrantGetsTheGrantsHint() throws {
        let body = String(decoding: try Fixtures.data("okta-core/oauth-error-invalid-grant-pkce.json"), as: UTF8.self)
        let error = Built.error { () throws(IdFlowError) in
            try RefreshTokenRequest(tokenEndpoint: endpoint, client: publicClient, refreshToken: "rt", scope: nil).decode(
                Built.response(400, body))
        }
        guard case .oauth(400, let oauth, let hint) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(oauth.error == "invalid_grant")
        #expect(hint == "the refresh token is invalid, expired or revoked; log in again with `idflow login-pkce`")
    }

    @Test func anInvalidClientSaysToCheckTheClient() {
        let error = Built.error { () throws(IdFlowError) in
            try AuthorizationCodeTokenRequest(tokenEndpoint: endpoint, client: publicClient, code: "c", redirectURI: "r", verifier: "v")
                .decode(Built.response(401, #"{"error":"invalid_client","error_description":"no"}"#))
        }
        guard case .oauth(401, _, let hint) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(hint == "check --client-id (and --client-secret-file for a confidential client)")
    }

    @Test func onlyBearerTokensAreAccepted() {
        let error = Built.error { () throws(IdFlowError) in
            try AuthorizationCodeTokenRequest(tokenEndpoint: endpoint, client: publicClient, code: "c", redirectURI: "r", verifier: "v")
                .decode(Built.response(200, #"{"token_type":"DPoP","access_token":"a"}"#))
        }
        #expect(error?.exitStatus == .server)
    }
}

struct TokenInfoRequestsTests {
    let client = ClientCredentials(clientID: "0oaclient")

    @Test func introspectionIsAFormPostThatMayBeRetried() throws {
        let endpoint = URL(string: "https://example.com/oauth2/default/v1/introspect")!
        let request = try IntrospectionRequest(endpoint: endpoint, client: client, token: "at", hint: .access).httpRequest()
        #expect(request.method == "POST")
        #expect(request.url == endpoint)
        #expect(request.headers == ["Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded"])
        #expect(String(decoding: request.body ?? Data(), as: UTF8.self) == "token=at&token_type_hint=access_token&client_id=0oaclient")
        #expect(request.isIdempotent)
    }

    @Test func revocationIsAFormPostThatMayBeRetried() throws {
        let endpoint = URL(string: "https://example.com/oauth2/default/v1/revoke")!
        let request = try RevocationRequest(endpoint: endpoint, client: client, token: "rt", hint: .refresh).httpRequest()
        #expect(request.method == "POST")
        #expect(request.url == endpoint)
        #expect(Built.form(request) == ["token": "rt", "token_type_hint": "refresh_token", "client_id": "0oaclient"])
        #expect(request.isIdempotent)
        let noHint = try RevocationRequest(endpoint: endpoint, client: client, token: "rt", hint: nil).httpRequest()
        #expect(Built.form(noHint) == ["token": "rt", "client_id": "0oaclient"])
    }

    @Test func aRefusedRevocationIsTheServersError() {
        let error = Built.error { () throws(IdFlowError) in
            try RevocationRequest(endpoint: Built.org, client: client, token: "rt", hint: nil)
                .decode(Built.response(401, #"{"error":"invalid_client","error_description":"no"}"#))
        }
        guard case .oauth(401, let body, nil) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(body.error == "invalid_client")
    }

    @Test func userinfoIsAGetWithTheBearerToken() throws {
        let endpoint = URL(string: "https://example.com/oauth2/default/v1/userinfo")!
        let request = try UserinfoRequest(endpoint: endpoint, accessToken: .bearer("at")).httpRequest()
        #expect(request.method == "GET")
        #expect(request.url == endpoint)
        #expect(request.headers == ["Accept": "application/json", "Authorization": "Bearer at"])
        #expect(request.body == nil)
        #expect(request.isIdempotent)
    }

    @Test func aRefusedAccessTokenNamesTheChallenge() {
        let error = Built.error { () throws(IdFlowError) in
            try UserinfoRequest(endpoint: Built.org, accessToken: .bearer("at"))
                .decode(Built.response(401, "", headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#]))
        }
        #expect(
            error
                == .authentication(
                    #"the access token was refused (Bearer error="invalid_token")"#,
                    hint: "refresh it with `idflow refresh` or log in again"))
    }
}

struct DiscoveryRequestsTests {
    @Test func discoveryIsAGetUnderWellKnown() throws {
        let request = try OpenIDConfigurationRequest(issuer: URL(string: "https://example.com/oauth2/default")!).httpRequest()
        #expect(request.method == "GET")
        #expect(request.url.absoluteString == "https://example.com/oauth2/default/.well-known/openid-configuration")
        #expect(request.headers == ["Accept": "application/json"])
        #expect(request.isIdempotent)
    }

    @Test func aMissingDocumentIsNotFound() {
        let error = Built.error { () throws(IdFlowError) in
            try OpenIDConfigurationRequest(issuer: URL(string: "https://example.com/oauth2/nope")!).decode(Built.response(404, "{}"))
        }
        #expect(error?.exitStatus == .notFound)
    }

    @Test func theFixtureDecodesForItsIssuer() throws {
        let body = String(decoding: try Fixtures.data("okta-core/oidc-openid-configuration-default-as.json"), as: UTF8.self)
        let metadata = try OpenIDConfigurationRequest(issuer: URL(string: "https://example.com/oauth2/default")!).decode(
            Built.response(200, body))
        #expect(metadata.revocationEndpoint?.absoluteString == "https://example.com/oauth2/default/v1/revoke")
    }

    @Test func jwksIsAGetOfTheJWKSURI() throws {
        let uri = URL(string: "https://example.com/oauth2/default/v1/keys")!
        let request = try JWKSRequest(jwksURI: uri).httpRequest()
        #expect(request.method == "GET")
        #expect(request.url == uri)
        #expect(request.headers == ["Accept": "application/json"])
        #expect(request.isIdempotent)
    }

    @Test func aJWKSWithoutKeysIsRefused() {
        let error = Built.error { () throws(IdFlowError) in
            try JWKSRequest(jwksURI: Built.org).decode(Built.response(200, #"{"nokeys":[]}"#))
        }
        #expect(error?.exitStatus == .server)
    }
}

struct SessionTokenAuthorizeRequestTests {
    let authorization = AuthorizationRequest(
        endpoint: URL(string: "https://example.com/oauth2/default/v1/authorize")!, clientID: "0oaclient",
        redirectURI: "com.example:/callback",
        scope: "openid", state: "st4te", nonce: "n0nce")

    var request: SessionTokenAuthorizeRequest { SessionTokenAuthorizeRequest(authorization: authorization, sessionToken: Secret("20sess")) }

    @Test func isAnUnretriedGetWithTheSessionTokenAndPromptNone() throws {
        let built = try request.httpRequest()
        #expect(built.method == "GET")
        #expect(built.url.absoluteString.hasPrefix("https://example.com/oauth2/default/v1/authorize?"))
        #expect(built.headers == ["Accept": "text/html"])
        #expect(built.body == nil)
        #expect(!built.isIdempotent)
        let query = Built.queryItems(built)
        #expect(query["sessionToken"] == "20sess")
        #expect(query["prompt"] == "none")
        #expect(query["response_mode"] == "query")
        #expect(query["client_id"] == "0oaclient")
        #expect(query["state"] == "st4te")
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["code_challenge"] == authorization.pkce.challenge)
    }

    @Test func aRedirectYieldsTheCode() throws {
        let response = Built.response(302, "", headers: ["Location": "com.example:/callback?code=c0de&state=st4te"])
        #expect(try request.decode(response) == "c0de")
    }

    @Test func aRedirectWithAnotherStateIsRefused() {
        let response = Built.response(302, "", headers: ["Location": "com.example:/callback?code=c0de&state=other"])
        #expect(Built.error { () throws(IdFlowError) in try request.decode(response) }?.exitStatus == .security)
    }

    @Test func aSignInPageIsRejectedWithAHint() {
        let response = Built.response(200, "<html><body>Sign in</body></html>", headers: ["Content-Type": "text/html"])
        let error = Built.error { () throws(IdFlowError) in try request.decode(response) }
        #expect(
            error
                == .rejected(
                    "the authorization endpoint answered HTTP 200 instead of redirecting: <html><body>Sign in</body></html>",
                    hint: "check --client-id and that --redirect-uri is registered for the app exactly"))
    }

    @Test func aServerErrorIsTheServersError() throws {
        let response = Built.response(503, "down", headers: ["Content-Type": "text/plain"])
        let error = try #require(Built.error { () throws(IdFlowError) in try request.decode(response) })
        #expect(error.message.hasPrefix("the server answered HTTP 503 to https://"), "\(error.message)")
        if case .unexpectedResponse(let status, let contentType, let snippet, _) = error {
            #expect(status == 503 && contentType == "text/plain" && snippet == "down")
        } else {
            Issue.record("\(error)")
        }
    }
}
