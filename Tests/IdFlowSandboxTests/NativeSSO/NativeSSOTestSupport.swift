import Crypto
import Foundation
import HTTPTypes
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// The second native app the Native SSO tests register (`nativeSSO.apps`).
let secondAppId = "0oaidflowsecondapp00"
let deviceSecretType = "urn:x-oath:params:oauth:token-type:device-secret"
let idTokenType = "urn:ietf:params:oauth:token-type:id_token"
let accessTokenType = "urn:ietf:params:oauth:token-type:access_token"
let tokenExchangeGrant = "urn:ietf:params:oauth:grant-type:token-exchange"
let deviceSSOScope = "openid profile device_sso offline_access"

/// A sandbox with a second native app.
func withSecondApp(
    _ configure: @escaping (inout SandboxConfiguration) -> Void = { _ in }, _ test: @Sendable (SandboxClient) async throws -> Void
) async throws {
    try await withSandbox(
        configure: { configuration in
            configuration.nativeSSO.apps = [NativeApp(clientId: secondAppId)]
            configure(&configuration)
        }, test)
}

/// A JWT's payload as JSON, read without checking the signature (the tests check what a client would read).
func jwtClaims(_ token: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
    var segment = String(token.split(separator: ".")[1])
        .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while segment.count % 4 != 0 { segment += "=" }
    let data = try #require(Data(base64Encoded: segment), sourceLocation: sourceLocation)
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], sourceLocation: sourceLocation)
}

/// `ds_hash` computed here, independently of the sandbox: base64url of the left 16 bytes of SHA-256.
func expectedDSHash(_ secret: String) -> String {
    base64URL(Data(SHA256.hash(data: Data(secret.utf8)).prefix(16)))
}

extension SandboxClient {
    /// The Native SSO exchange as okta-mobile-swift posts it, with `overrides` replacing (or, with nil, removing) fields.
    func nativeSSOExchange(
        deviceSecret: String, idToken: String, clientId: String = secondAppId, scope: String = "openid profile offline_access",
        base: String = "/oauth2/default/v1", overrides: [String: String?] = [:]
    ) async throws -> Reply {
        var fields: [(String, String?)] = [
            ("grant_type", tokenExchangeGrant), ("client_id", clientId), ("actor_token", deviceSecret),
            ("actor_token_type", deviceSecretType), ("subject_token", idToken), ("subject_token_type", idTokenType),
            ("scope", scope), ("audience", base == "/oauth2/v1" ? await state.orgURL : "api://default"),
        ]
        for (name, value) in overrides {
            if let index = fields.firstIndex(where: { $0.0 == name }) { fields[index].1 = value } else { fields.append((name, value)) }
        }
        return try await postForm("\(base)/token", fields.compactMap { name, value in value.map { (name, $0) } })
    }

    /// Signs the first app in with `device_sso`; returns its token response.
    func signInWithDeviceSSO(email: String, base: String = "/oauth2/default/v1", sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> (deviceSecret: String, idToken: String, tokens: [String: Any])
    {
        let tokens = try await signInWithPKCE(email: email, scope: deviceSSOScope, base: base, sourceLocation: sourceLocation)
        let secret = try #require(tokens["device_secret"] as? String, "\(tokens)", sourceLocation: sourceLocation)
        let idToken = try #require(tokens["id_token"] as? String, sourceLocation: sourceLocation)
        return (secret, idToken, tokens)
    }
}

extension Reply {
    /// Exactly this status, `error` and `error_description`.
    func expectOAuthError(
        _ status: HTTPResponse.Status, _ error: String, _ description: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(self.status == status, "\(self.status) \(text)", sourceLocation: sourceLocation)
        let (code, text) = try oauthError(sourceLocation: sourceLocation)
        #expect(code == error, "\(self.text)", sourceLocation: sourceLocation)
        #expect(text == description, "\(self.text)", sourceLocation: sourceLocation)
    }
}

/// The claims of a token response's ID token.
func idClaims(_ tokens: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
    try jwtClaims(try #require(tokens["id_token"] as? String, "\(tokens)", sourceLocation: sourceLocation), sourceLocation: sourceLocation)
}
