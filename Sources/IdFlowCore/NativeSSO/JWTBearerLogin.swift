import Foundation
import IdFlowFoundation

/// `login-jwt-bearer` (RFC 7523 §2.1, native-sso.md §6): a signed assertion about a user buys that user's tokens,
/// validated and stored as a login's. The assertion is read from a file, or minted here with the issuer's key
/// (`iss` the client id, `sub`, `aud`, a five-minute `exp` and a fresh `jti`).
public struct JWTBearerLogin: Sendable {
    public enum Assertion: Sendable {
        case file(String)
        /// Sign one with the PEM key at `keyFile` (`kid` = `keyID`).
        case mint(keyFile: String, keyID: String?, subject: String, audience: String?)
    }

    public var assertion: Assertion
    public var clientID: String?
    public var clientSecret: Secret?
    public var store: Bool

    public init(assertion: Assertion, clientID: String?, clientSecret: Secret?, store: Bool) {
        self.assertion = assertion
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.store = store
    }

    public static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    /// No refresh token: the assertion is the credential (Okta and the sandbox refuse offline_access here).
    static let defaultScope = "openid profile"

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> TokenOutput {
        let configuration = context.configuration
        let given = clientID ?? configuration.serviceApp.clientID ?? configuration.clientID
        guard let resolvedClientID = given, !resolvedClientID.isEmpty else {
            throw .configuration("no client id configured for login-jwt-bearer", hint: "pass --client-id ID (the assertion's issuer)")
        }
        let client = ClientCredentials(clientID: resolvedClientID, secret: clientSecret, bearerInPlaceOfDPoP: context.bearerInPlaceOfDPoP)
        let server = AuthorizationServer(discovered: try await DiscoveredIssuer.discover(context), client: client)
        let scope = configuration.explicitScope ?? Self.defaultScope
        return try await server.completeLogin(context, scope: scope, nonce: .notInThisGrant(.jwtBearer), store: store) {
            () throws(IdFlowError) in
            let jwt = try self.assertion(issuer: resolvedClientID, tokenEndpoint: server.metadata.tokenEndpoint, context)
            return try await server.http.send(
                JWTBearerRequest(tokenEndpoint: server.metadata.tokenEndpoint, client: client, assertion: jwt, scope: scope))
        }
    }

    func assertion(issuer: String, tokenEndpoint: URL, _ context: IdFlowContext) throws(IdFlowError) -> String {
        switch assertion {
        case .file(let path):
            return try context.secrets.read("assertion", from: .file(path)).value
        case .mint(let keyFile, let keyID, let subject, let audience):
            try PrivateKeyPermissions.check(keyFile, setting: "--sign-with")
            guard let pem = InputFile.read(exactly: keyFile) else {
                throw .configuration("cannot read the key \(keyFile) given by --sign-with", hint: "check the path and its permissions")
            }
            let key = try ClientAssertionKey(pem: String(decoding: pem, as: UTF8.self), keyID: keyID, origin: keyFile)
            return try Self.mint(
                key: key, issuer: issuer, subject: subject, audience: audience ?? tokenEndpoint.absoluteString, now: context.now())
        }
    }

    /// RFC 7523 §3: `iss`, `sub`, `aud`, `exp` five minutes on, `iat` and a `jti` the server spends once.
    package static func mint(key: ClientAssertionKey, issuer: String, subject: String, audience: String, now: Date) throws(IdFlowError)
        -> String
    {
        let issuedAt = Double(Int(now.timeIntervalSince1970))
        var header: [String: JSONValue] = ["alg": .string(key.algorithm), "typ": "JWT"]
        if let kid = key.keyID { header["kid"] = .string(kid) }
        let claims: JSONValue = [
            "iss": .string(issuer), "sub": .string(subject), "aud": .string(audience), "iat": .number(issuedAt),
            "exp": .number(issuedAt + 300), "jti": .string(UUID().uuidString.lowercased()),
        ]
        return try CompactJWS.sign(header: .object(header), claims: claims) { (input: Data) throws(IdFlowError) in try key.sign(input) }
    }
}

/// The JWT bearer grant's request: the assertion, the scope, and the client's own proof when it has one.
struct JWTBearerRequest: APIRequest {
    var tokenEndpoint: URL
    var client: ClientCredentials
    var assertion: String
    var scope: String

    var fields: [(String, String)] {
        [("grant_type", JWTBearerLogin.grantType), ("assertion", assertion), ("scope", scope)]
    }

    /// Never retried once sent: the assertion's `jti` is spent.
    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        TokenGrant.request(tokenEndpoint, client: client, fields: fields)
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> TokenResponse {
        if !response.isSuccess, case .oauth(let status, let body, nil) = response.failure() {
            if ["unsupported_grant_type", "unauthorized_client"].contains(body.error) {
                throw .oauth(
                    status: status, body: body, hint: "enable the JWT Bearer grant (\(JWTBearerLogin.grantType)) for app \(client.clientID)"
                )
            }
        }
        return try TokenGrant.decode(
            response, client: client,
            hint:
                "the assertion was refused: check its iss (the client id), sub (an active user), aud (the issuer or token URL), exp and that its key is the one registered"
        )
    }
}
