import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A stored login at `FakeAuthorizationServer` and an API at https://api.example.com, for the `api` and
/// `token get` flows: the refresh grant issues `at2`/`rt2`, and `resource` answers the API's requests.
struct ResourceFixture {
    static let api = "https://api.example.com/v1/me"
    let server = FakeAuthorizationServer()
    let configuration: Configuration
    let messages = Locked<[String]>([])

    init() {
        var configuration = TestContext.configuration(org: "https://o.example.com")
        configuration.clientID = "0oaclient"
        self.configuration = configuration
    }

    var store: TokenStore { TokenStore(directory: configuration.profileDirectory) }

    /// Stores `at1`/`rt1` expiring `expiresIn` seconds from now.
    func storeLogin(expiresIn: TimeInterval = 3600, scope: String = "openid offline_access", tokenType: String = "Bearer") throws {
        let claims: JSONValue = ["sub": "00u1", "exp": .number(Date().timeIntervalSince1970 + 3600)]
        try store.save(
            StoredTokens(
                issuer: server.issuer, clientId: "0oaclient",
                tokens: TokenResponse(
                    tokenType: tokenType, accessToken: "at1", expiresIn: 3600, scope: scope, refreshToken: "rt1",
                    idToken: server.idToken(nonce: nil)),
                expiresAt: Date().addingTimeInterval(expiresIn), idTokenClaims: claims, savedAt: Date()))
    }

    /// The authorization server (discovery, keys, the refresh grant) and `resource` for everything else.
    func transport(resource: @escaping @Sendable (HTTPRequest) -> RoutedTransport.Reply?) -> RoutedTransport {
        let server = server
        return server.transport { request in
            if request.url.host == "o.example.com", request.route == "POST /oauth2/default/v1/token",
                request.formBody["grant_type"] == "refresh_token"
            {
                return server.tokens(access: "at2", refresh: "rt2", scope: "openid offline_access", nonce: nil)
            }
            if request.url.host == "o.example.com" { return nil }
            return resource(request)
        }
    }

    func context(_ transport: RoutedTransport, stdin: String = "") -> IdFlowContext {
        TestContext.make(transport: transport, configuration: configuration, stdin: stdin, messages: messages)
    }

    static func bearer(_ request: HTTPRequest) -> String? {
        request.header("Authorization")
    }

    static func refreshes(_ transport: RoutedTransport) -> Int {
        transport.requests.filter { $0.route == "POST /oauth2/default/v1/token" }.count
    }
}

extension RoutedTransport.Reply {
    static func challenge(_ status: Int, _ header: String, body: String = #"{"error":"invalid_token"}"#) -> Self {
        Self(status: status, headers: ["Content-Type": "application/json", "WWW-Authenticate": header], body: Data(body.utf8))
    }
}
