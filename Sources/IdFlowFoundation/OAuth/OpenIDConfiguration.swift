import Foundation

/// The discovery document at `{issuer}/.well-known/openid-configuration` (OpenID Connect Discovery 1.0):
/// every endpoint idflow calls comes from here, never guessed.
public struct OpenIDConfiguration: Codable, Sendable, Equatable {
    public var issuer: String
    public var authorizationEndpoint: URL
    public var tokenEndpoint: URL
    public var jwksURI: URL
    public var userinfoEndpoint: URL?
    public var introspectionEndpoint: URL?
    public var revocationEndpoint: URL?
    public var endSessionEndpoint: URL?
    /// RFC 8628 §4: where a device asks for a user code; only providers that offer the device grant list it.
    public var deviceAuthorizationEndpoint: URL?
    public var codeChallengeMethodsSupported: [String]?
    public var idTokenSigningAlgValuesSupported: [String]?
    public var tokenEndpointAuthMethodsSupported: [String]?

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case jwksURI = "jwks_uri"
        case userinfoEndpoint = "userinfo_endpoint"
        case introspectionEndpoint = "introspection_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case endSessionEndpoint = "end_session_endpoint"
        case deviceAuthorizationEndpoint = "device_authorization_endpoint"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
    }

    /// An optional endpoint, or an error naming it when the provider does not offer it.
    public func require(_ endpoint: URL?, _ name: String) throws(IdFlowError) -> URL {
        guard let endpoint else {
            throw .rejected("the issuer \(issuer) does not offer a \(name) endpoint", hint: "check --issuer")
        }
        try TransportSecurity.check(endpoint)
        return endpoint
    }
}
