import Foundation
import IdFlowFoundation

/// The token types of RFC 8693 §3 and Okta's own (native-sso.md §1.3, §2.2, §3), as they travel: they are data.
public enum TokenTypeURN {
    public static let accessToken = "urn:ietf:params:oauth:token-type:access_token"
    public static let refreshToken = "urn:ietf:params:oauth:token-type:refresh_token"
    public static let idToken = "urn:ietf:params:oauth:token-type:id_token"
    public static let jwt = "urn:ietf:params:oauth:token-type:jwt"
    public static let deviceSecret = "urn:x-oath:params:oauth:token-type:device-secret"
    public static let interclientToken = "urn:okta:params:oauth:token-type:interclient_token"

    /// `access`, `id`, `refresh`, `jwt`, `device-secret` or `interclient` for the URN; anything else as given.
    public static func expand(_ name: String) -> String {
        switch name {
        case "access", "access_token": return accessToken
        case "refresh", "refresh_token": return refreshToken
        case "id", "id_token": return idToken
        case "jwt": return jwt
        case "device-secret", "device_secret": return deviceSecret
        case "interclient", "interclient_token": return interclientToken
        default: return name
        }
    }
}

/// One RFC 8693 token exchange (§2.1): a subject token, optionally an actor token, traded at the token endpoint.
/// Native SSO (`login-sso`), Native-to-Web SSO (`web-sso`) and `token exchange` all send this one request.
public struct TokenExchangeRequest: APIRequest {
    public static let grantType = "urn:ietf:params:oauth:grant-type:token-exchange"

    public var tokenEndpoint: URL
    public var client: ClientCredentials
    public var subjectToken: String
    public var subjectTokenType: String
    public var actorToken: String?
    public var actorTokenType: String?
    public var requestedTokenType: String?
    public var audience: String?
    public var resources: [String]
    public var scope: String?
    /// What to do after a refusal that only a new sign-in mends (`idflow login-device --device-sso`, say).
    public var signInAgain: String

    public init(
        tokenEndpoint: URL, client: ClientCredentials, subjectToken: String, subjectTokenType: String, actorToken: String? = nil,
        actorTokenType: String? = nil, requestedTokenType: String? = nil, audience: String? = nil, resources: [String] = [],
        scope: String? = nil, signInAgain: String
    ) {
        self.tokenEndpoint = tokenEndpoint
        self.client = client
        self.subjectToken = subjectToken
        self.subjectTokenType = subjectTokenType
        self.actorToken = actorToken
        self.actorTokenType = actorTokenType
        self.requestedTokenType = requestedTokenType
        self.audience = audience
        self.resources = resources
        self.scope = scope
        self.signInAgain = signInAgain
    }

    /// The form fields in the order RFC 8693 §2.1 lists them, empty values left out.
    public var fields: [(String, String)] {
        var fields = [("grant_type", Self.grantType)]
        for resource in resources { fields.append(("resource", resource)) }
        if let audience, !audience.isEmpty { fields.append(("audience", audience)) }
        if let scope, !scope.isEmpty { fields.append(("scope", scope)) }
        if let requestedTokenType, !requestedTokenType.isEmpty { fields.append(("requested_token_type", requestedTokenType)) }
        fields += [("subject_token", subjectToken), ("subject_token_type", subjectTokenType)]
        if let actorToken, let actorTokenType {
            fields += [("actor_token", actorToken), ("actor_token_type", actorTokenType)]
        }
        return fields
    }

    /// Never retried once sent: an interclient token or a JWT bearer `jti` is spent by the first try.
    public func httpRequest() throws(IdFlowError) -> HTTPRequest {
        TokenGrant.request(tokenEndpoint, client: client, fields: fields)
    }

    public func decode(_ response: HTTPResponse) throws(IdFlowError) -> TokenResponse {
        if !response.isSuccess, case .oauth(let status, let body, nil) = response.failure() {
            if let refusal = TokenExchangeRefusal.explain(status: status, body: body, clientID: client.clientID, signInAgain: signInAgain) {
                throw refusal
            }
        }
        // RFC 8693 §2.2.1: `N_A` is a token that is not an access token (an interclient token); nothing to bind.
        if response.isSuccess, let tokens = try? response.decode(TokenResponse.self), tokens.tokenType.uppercased() == "N_A" {
            return tokens
        }
        return try TokenGrant.decode(response, client: client, hint: "the server refused the token exchange")
    }
}

/// Each refusal native-sso.md §1.6 and §2.4 record, with what mends it. Those only a new sign-in mends exit 4.
public enum TokenExchangeRefusal {
    public static func explain(status: Int?, body: OAuthErrorBody, clientID: String, signInAgain: String) -> IdFlowError? {
        let description = body.errorDescription ?? ""
        let said = "the server refused the token exchange: \(body.error)\(description.isEmpty ? "" : " (\(description))")"
        func has(_ text: String) -> Bool { description.localizedCaseInsensitiveContains(text) }
        switch body.error {
        case _ where has("assurance requirements"):
            return .oauth(
                status: status, body: body,
                hint:
                    "the app's authentication policy wants more assurance than the session reached: sign in again with the factors it asks for, or change that app's assurance policy"
            )
        case _ where has("expired or the session") || has("no longer active") || has("'subject_token' is invalid"):
            return .authentication(said, hint: "the session behind the tokens has ended: \(signInAgain)")
        case _ where has("'actor_token' is invalid"):
            return .authentication(said, hint: "the device secret was revoked or is unknown: \(signInAgain)")
        case _ where has("'interclient_access' scope"):
            return .authentication(said, hint: "sign in again with interclient_access in --scope (the app must be trusted by the target)")
        case "one_time_sso_token_replayed":
            return .oauth(status: status, body: body, hint: "an interclient token works once: run `idflow web-sso` again for a new one")
        case "unsupported_grant_type", "unauthorized_client":
            return .oauth(
                status: status, body: body,
                hint:
                    "enable the Token Exchange grant (\(TokenExchangeRequest.grantType)) for app \(clientID) and in the authorization server's access policy; Okta offers it on custom servers such as default"
            )
        case "invalid_target":
            return .oauth(
                status: status, body: body,
                hint: "pass --audience with the authorization server's audience (Okta: api://default for the default server)")
        case "access_denied" where has("trust relationship"), "invalid_scope" where has("trust relationship"):
            return .oauth(status: status, body: body, hint: "add app \(clientID) to the target app's trusted apps (Native-to-Web SSO)")
        case "invalid_request" where has("token_type"):
            return .oauth(
                status: status, body: body, hint: "check --subject-token-type, --actor-token-type and --requested-token-type")
        default:
            return nil
        }
    }
}
