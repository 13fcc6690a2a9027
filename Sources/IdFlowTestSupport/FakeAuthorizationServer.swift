import Crypto
import Foundation
import IdFlowCore
import IdFlowFoundation

/// An OAuth authorization server at `{org}/oauth2/default` whose ID tokens pass idflow's validator: it
/// publishes its key in `jwks_uri` and signs (ES256) a token for the nonce the authorization request carried.
/// Login tests then see a whole login, ID-token check included, instead of one that left `openid` out.
public final class FakeAuthorizationServer: Sendable {
    public let org: String
    public let clientID: String
    public var issuer: String { "\(org)/oauth2/default" }
    /// The code `/authorize` redirects with, and the refresh token the code grant issues.
    public static let code = "code1"

    private let key = P256.Signing.PrivateKey()
    /// What the last `/authorize` asked for, which the code it issued stands for at the token endpoint.
    private let authorized = Locked<(scope: String, nonce: String?)>(("", nil))

    public init(org: String = "https://o.example.com", clientID: String = "0oaclient") {
        self.org = org
        self.clientID = clientID
    }

    /// The discovery document of `issuer`; `deviceGrant` adds `device_authorization_endpoint` (RFC 8628).
    public static func discovery(issuer: String, deviceGrant: Bool = false) -> RoutedTransport.Reply {
        let device = deviceGrant ? "\"device_authorization_endpoint\":\"\(issuer)/v1/device/authorize\"," : ""
        return .json(
            200,
            """
            {"issuer":"\(issuer)","authorization_endpoint":"\(issuer)/v1/authorize","token_endpoint":"\(issuer)/v1/token",
            "jwks_uri":"\(issuer)/v1/keys","userinfo_endpoint":"\(issuer)/v1/userinfo","introspection_endpoint":"\(issuer)/v1/introspect",
            "revocation_endpoint":"\(issuer)/v1/revoke","end_session_endpoint":"\(issuer)/v1/logout",\(device)
            "response_types_supported":["code"],"subject_types_supported":["public"],"id_token_signing_alg_values_supported":["RS256","ES256"],
            "code_challenge_methods_supported":["S256"]}
            """)
    }

    public var keys: RoutedTransport.Reply {
        let point = key.publicKey.rawRepresentation
        return .json(
            200,
            """
            {"keys":[{"kty":"EC","crv":"P-256","alg":"ES256","use":"sig","kid":"fake-key",
            "x":"\(Base64URL.encode(point.prefix(32)))","y":"\(Base64URL.encode(point.suffix(32)))"}]}
            """)
    }

    /// An ID token for `subject` and `nonce` signed with the published key, valid for an hour from `issuedAt`: a
    /// test that freezes the client's clock issues it at that time too, or a slow run would see it "issued in the
    /// future".
    public func idToken(subject: String = "00u1", nonce: String?, issuedAt: Date = Date()) -> String {
        let now = Int(issuedAt.timeIntervalSince1970)
        var claims: [String: JSONValue] = [
            "iss": .string(issuer), "aud": .string(clientID), "sub": .string(subject), "iat": .number(Double(now)),
            "exp": .number(Double(now + 3600)),
        ]
        claims["nonce"] = nonce.map(JSONValue.string)
        let header = Base64URL.encode(Data(#"{"alg":"ES256","kid":"fake-key","typ":"JWT"}"#.utf8))
        // swift-format-ignore: NeverUseForceTry
        let payload = Base64URL.encode(try! JSONEncoder().encode(JSONValue.object(claims)))
        // swift-format-ignore: NeverUseForceTry
        let signature = try! key.signature(for: Data("\(header).\(payload)".utf8))
        return "\(header).\(payload).\(Base64URL.encode(signature.rawRepresentation))"
    }

    /// A token response; with `openid` in `scope` it carries an ID token for `nonce`.
    public func tokens(access: String, refresh: String?, scope: String, nonce: String?) -> RoutedTransport.Reply {
        var body: [String: JSONValue] = [
            "token_type": "Bearer", "expires_in": 3600, "access_token": .string(access), "scope": .string(scope),
        ]
        body["refresh_token"] = refresh.map(JSONValue.string)
        if scope.split(separator: " ").contains("openid") { body["id_token"] = .string(idToken(nonce: nonce)) }
        // swift-format-ignore: NeverUseForceTry
        return RoutedTransport.Reply(status: 200, headers: ["Content-Type": "application/json"], body: try! JSONEncoder().encode(body))
    }

    /// Discovery, keys, `/authorize` redirecting to the request's redirect URI with its own state, and the code
    /// grant issuing `at1`/`rt1` for the scope asked at `/authorize`. `more` answers first.
    public func transport(
        deviceGrant: Bool = false, more: @escaping @Sendable (HTTPRequest) -> RoutedTransport.Reply? = { _ in nil }
    ) -> RoutedTransport {
        RoutedTransport { [self] request in
            if let reply = more(request) { return reply }
            return self.answer(request, deviceGrant: deviceGrant)
        }
    }

    private func answer(_ request: HTTPRequest, deviceGrant: Bool) -> RoutedTransport.Reply? {
        switch request.route {
        case "GET /oauth2/default/.well-known/openid-configuration":
            return Self.discovery(issuer: issuer, deviceGrant: deviceGrant)
        case "GET /oauth2/default/v1/keys":
            return keys
        case "GET /oauth2/default/v1/authorize":
            authorized.withLock { $0 = (request.query("scope") ?? "", request.query("nonce")) }
            let redirect = request.query("redirect_uri") ?? ""
            return .init(status: 302, headers: ["Location": "\(redirect)?code=\(Self.code)&state=\(request.query("state") ?? "")"])
        case "POST /oauth2/default/v1/token" where request.formBody["grant_type"] == "authorization_code":
            guard request.formBody["code"] == Self.code else { return .json(400, #"{"error":"invalid_grant"}"#) }
            let asked = authorized.current
            return tokens(access: "at1", refresh: "rt1", scope: asked.scope, nonce: asked.nonce)
        default:
            return nil
        }
    }
}
