import Crypto
import Foundation
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// The one RFC 8693 request `login-sso`, `web-sso` and `token exchange` send, and the hint each recorded refusal
/// (native-sso.md §1.6, §2.4) gets.
struct TokenExchangeRequestTests {
    static let endpoint = URL(string: "https://x.okta.com/oauth2/default/v1/token")!
    static let signInAgain = "sign in again with `idflow login-device --device-sso --profile a`"

    static func nativeSSO(client: ClientCredentials = ClientCredentials(clientID: "0oaB")) -> TokenExchangeRequest {
        TokenExchangeRequest(
            tokenEndpoint: endpoint, client: client, subjectToken: "eyJ.id.token", subjectTokenType: TokenTypeURN.idToken,
            actorToken: "device-secret-value", actorTokenType: TokenTypeURN.deviceSecret, audience: "api://default",
            scope: "openid profile offline_access", signInAgain: signInAgain)
    }

    @Test func nativeSSOSendsTheIDTokenAndDeviceSecretAsOktaDocumentsThem() throws {
        let form = Built.form(try Self.nativeSSO().httpRequest())
        #expect(
            form == [
                "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange", "client_id": "0oaB",
                "actor_token": "device-secret-value", "actor_token_type": "urn:x-oath:params:oauth:token-type:device-secret",
                "subject_token": "eyJ.id.token", "subject_token_type": "urn:ietf:params:oauth:token-type:id_token",
                "audience": "api://default", "scope": "openid profile offline_access",
            ])
    }

    @Test func aGenericExchangeSendsOnlyWhatWasGivenAndEveryResource() throws {
        let request = TokenExchangeRequest(
            tokenEndpoint: Self.endpoint, client: ClientCredentials(clientID: "ci", secret: Secret("s")), subjectToken: "at",
            subjectTokenType: TokenTypeURN.expand("access"), requestedTokenType: TokenTypeURN.expand("jwt"),
            resources: ["https://a.example", "https://b.example"], signInAgain: "")
        let built = try request.httpRequest()
        let pairs = FormEncoding.decode(String(decoding: built.body ?? Data(), as: UTF8.self))
        #expect(pairs.filter { $0.0 == "resource" }.map(\.1) == ["https://a.example", "https://b.example"])
        let form = Built.form(built)
        #expect(form["requested_token_type"] == "urn:ietf:params:oauth:token-type:jwt")
        #expect(form["subject_token_type"] == "urn:ietf:params:oauth:token-type:access_token")
        #expect(form["actor_token"] == nil && form["audience"] == nil && form["scope"] == nil && form["client_id"] == nil)
        #expect(built.headers["Authorization"]?.hasPrefix("Basic ") == true, "the secret as login-client sends it")
    }

    @Test func anInterclientTokenIsAcceptedThoughItIsNoBearerToken() throws {
        let body =
            #"{"token_type":"N_A","expires_in":300,"access_token":"ic","issued_token_type":"urn:okta:params:oauth:token-type:interclient_token"}"#
        let tokens = try Self.nativeSSO().decode(Built.response(200, body, url: Self.endpoint))
        #expect(tokens.accessToken == "ic")
        #expect(tokens.issuedTokenType == TokenTypeURN.interclientToken)
    }

    static func refusal(_ status: Int, _ error: String, _ description: String) -> IdFlowError? {
        let body = #"{"error":"\#(error)","error_description":"\#(description)"}"#
        return Built.error { () throws(IdFlowError) in try nativeSSO().decode(Built.response(status, body, url: endpoint)) }
    }

    @Test(arguments: [
        ("invalid_grant", "The 'subject_token' either expired or the session associated with it was terminated."),
        ("invalid_request", "'subject_token' is invalid: the session associated with it is no longer active."),
        ("invalid_request", "'subject_token' is invalid."),
        ("invalid_request", "'actor_token' is invalid."),
    ])
    func anEndedSessionOrRevokedSecretSaysSignInAgainAndExits4(error: String, description: String) {
        let refused = Self.refusal(400, error, description)
        #expect(refused?.exitStatus == .authentication, "\(String(describing: refused))")
        #expect(refused?.hint?.contains(Self.signInAgain) == true, "\(refused?.hint ?? "")")
        #expect(refused?.message.contains(description) == true, "the server's words are kept")
    }

    @Test func theAssuranceRefusalNamesTheAppsPolicy() {
        let refused = Self.refusal(400, "invalid_grant", "The client's assurance requirements are not met.")
        #expect(refused?.hint?.contains("change that app's assurance policy") == true, "\(refused?.hint ?? "")")
        #expect(refused?.exitStatus == .authentication)
    }

    @Test(arguments: ["unsupported_grant_type", "unauthorized_client"])
    func aGrantNotAllowedNamesTheGrantToEnable(error: String) {
        let refused = Self.refusal(400, error, "'urn:ietf:params:oauth:grant-type:token-exchange' grant type is not supported.")
        #expect(refused?.hint?.contains("enable the Token Exchange grant") == true, "\(refused?.hint ?? "")")
        #expect(refused?.hint?.contains("0oaB") == true)
    }

    @Test func theOtherRecordedRefusalsEachHaveTheirOwnHint() {
        let cases: [(Int, String, String, String)] = [
            (400, "invalid_target", "Token Exchange requests must include a valid audience of the authorization server.", "--audience"),
            (403, "access_denied", "No trust relationship exists between the client app and the target app.", "trusted apps"),
            (400, "one_time_sso_token_replayed", "The 'interclient_token' was already consumed.", "works once"),
            (
                400, "invalid_grant", "The 'actor_token' must have the 'interclient_access' scope to request a 'interclient_token'.",
                "interclient_access in --scope"
            ),
            (400, "invalid_request", "'actor_token_type' is invalid or not supported.", "--actor-token-type"),
        ]
        for (status, error, description, expected) in cases {
            let hint = Self.refusal(status, error, description)?.hint
            #expect(hint?.contains(expected) == true, "\(error): \(hint ?? "")")
        }
    }

    @Test func deviceSSOAddsOnlyTheScopesMissing() {
        #expect(DeviceSSO.scope(adding: "openid profile email offline_access") == "openid profile email offline_access device_sso")
        #expect(DeviceSSO.scope(adding: "profile") == "profile openid device_sso offline_access")
    }

    @Test func theDefaultAudienceIsTheServersOwn() {
        #expect(StoredLogin.defaultAudience(URL(string: "https://x.okta.com/oauth2/default")!) == "api://default")
        #expect(StoredLogin.defaultAudience(URL(string: "https://x.okta.com")!) == "https://x.okta.com")
    }

    @Test func aMintedJWTBearerAssertionCarriesTheRFC7523Claims() throws {
        let pem = P256.Signing.PrivateKey().pemRepresentation
        let key = try ClientAssertionKey(pem: pem, keyID: "k1", origin: "test")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let jwt = try JWTBearerLogin.mint(key: key, issuer: "0oaS", subject: "alice@example.com", audience: "https://x/token", now: now)
        let parts = jwt.split(separator: ".")
        #expect(parts.count == 3)
        let claims = try JSONValue(data: Base64URL.decode(String(parts[1])) ?? Data())
        #expect(claims["iss"] == "0oaS" && claims["sub"] == "alice@example.com" && claims["aud"] == "https://x/token")
        #expect(claims["exp"] == .number(1_800_000_300))
        #expect(claims["jti"]?.stringValue?.isEmpty == false)
        let header = try JSONValue(data: Base64URL.decode(String(parts[0])) ?? Data())
        #expect(header["kid"] == "k1" && header["alg"] == "ES256")
    }

    @Test func theTracesMaskEveryExchangedSecret() {
        let masked = Redactor.form(
            "subject_token=s&actor_token=a&device_secret=d&assertion=j&scope=openid")
        #expect(masked == "subject_token=<redacted>&actor_token=<redacted>&device_secret=<redacted>&assertion=<redacted>&scope=openid")
        #expect(
            Redactor.url("https://x/authorize?client_id=w&interclient_token=t")
                == "https://x/authorize?client_id=w&interclient_token=<redacted>")
    }
}
