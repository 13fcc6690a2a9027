import Foundation

@testable import IdFlowCore
@testable import IdFlowFoundation

extension FuzzTargets {
    /// An authorization server's answers, status, headers and body arbitrary: discovery, the key set, token
    /// responses of each grant, the device authorization, introspection, revocation and a resource's metadata.
    static let oauthResponse = FuzzTarget(
        name: "oauth-response",
        summary: "OAuth/OIDC answers: discovery, JWKS, token responses of each grant, device authorization, introspection"
    ) { input in
        let issuer = URL(string: "https://example.okta.com/oauth2/default")!
        let tokenEndpoint = issuer.appendingPathComponent("v1/token")
        let response = FuzzInput.response(input, url: tokenEndpoint)
        let client = ClientCredentials(clientID: "0oafuzzclient")
        var reader = AnswerReader(response)
        func read<R: APIRequest>(_ request: R) -> R.Response? { reader.read(request) }

        _ = read(OpenIDConfigurationRequest(issuer: issuer))
        _ = read(JWKSRequest(jwksURI: issuer.appendingPathComponent("v1/keys")))
        let tokens = [
            read(
                AuthorizationCodeTokenRequest(
                    tokenEndpoint: tokenEndpoint, client: client, code: "c", redirectURI: "http://127.0.0.1/cb", verifier: "v")),
            read(RefreshTokenRequest(tokenEndpoint: tokenEndpoint, client: client, refreshToken: "r", scope: nil)),
            read(ClientCredentialsGrantRequest(tokenEndpoint: tokenEndpoint, client: client, scope: "okta.users.manage")),
        ]
        let encoder = JSONEncoder()
        for case let token? in tokens { _ = try? encoder.encode(token) }
        let deviceEndpoint = issuer.appendingPathComponent("v1/device/authorize")
        _ = read(DeviceAuthorizationRequest(endpoint: deviceEndpoint, client: client, scope: "openid"))
        _ = read(DeviceCodeTokenRequest(tokenEndpoint: tokenEndpoint, client: client, deviceCode: "d"))
        _ = read(ProtectedResourceMetadataRequest(url: URL(string: "https://api.example.com/.well-known/oauth-protected-resource")!))
        do throws(IdFlowError) { _ = try Introspection.decode(response) } catch { reader.record(error) }
        do throws(IdFlowError) { try Revocation.decode(response) } catch { reader.record(error) }
        reader.showErrors()
    }
}
