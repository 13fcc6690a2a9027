import Crypto
import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowSandbox
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// RFC 8705 `tls_client_auth` on a live `--tls --tls-client-ca` sandbox: the client authenticates at the token
/// endpoint with its certificate and gets access tokens bound to it.
@Suite("tls_client_auth: certificate-bound tokens")
struct TLSClientAuthTests {
    static let clientId = "0oaidflowmtls0000000"
    static let password = "Str0ng-Passw0rd!"

    /// The files of one client certificate (0600, as the client wants keys).
    struct Identity {
        let certificate: URL
        let key: URL
        let der: [UInt8]

        init(_ issued: CertificateAuthority.Issued, name: String) throws {
            certificate = try SandboxTLSTests.privateFile(issued.certificatePEM, name: "\(name).pem")
            key = try SandboxTLSTests.privateFile(issued.privateKeyPEM, name: "\(name).key")
            let body = issued.certificatePEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            der = Array(try #require(Data(base64Encoded: body)))
        }

        func remove() {
            try? FileManager.default.removeItem(at: certificate)
            try? FileManager.default.removeItem(at: key)
        }
    }

    struct Connection {
        let options: CurlTransport.Options

        init(caFile: String, identity: Identity) {
            options = .init(caFile: caFile, clientCertificate: identity.certificate.path, clientKey: identity.key.path)
        }

        func send(
            _ method: String, _ url: String, json: JSONValue? = nil, form: [(String, String)]? = nil, headers: [String: String] = [:]
        ) async throws -> (status: Int, body: JSONValue?, location: String?) {
            var request = HTTPRequest(method: method, url: URL(string: url)!)
            for (name, value) in headers { request.setHeader(name, value) }
            if let json {
                request.setHeader("Content-Type", "application/json")
                request.body = try JSONEncoder().encode(json)
            }
            if let form {
                request.setHeader("Content-Type", "application/x-www-form-urlencoded")
                var components = URLComponents()
                components.queryItems = form.map { URLQueryItem(name: $0.0, value: $0.1) }
                let encoded = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
                request.body = Data(encoded.utf8)
            }
            let response = try await CurlTransport(options: options).send(request)
            let data = response.body
            return (response.status, try? JSONValue(data: data), response.header("Location"))
        }
    }

    static func claims(_ jwt: String) throws -> JSONValue {
        var segment = String(jwt.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        while segment.count % 4 != 0 { segment += "=" }
        return try JSONValue(data: try #require(Data(base64Encoded: segment)))
    }

    static func thumbprint(_ der: [UInt8]) -> String {
        Data(SHA256.hash(data: der)).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    @Test("a tls_client_auth client gets cnf.x5t#S256 tokens with its certificate, and nothing with another")
    func certificateBoundTokens() async throws {
        let authority = try CertificateAuthority(commonName: "clients")
        let caFile = try SandboxTLSTests.privateFile(authority.certificatePEM, name: "clients-ca.pem")
        let mine = try Identity(try authority.issueClientCertificate(commonName: "idflow-mtls"), name: "mine")
        let other = try Identity(try authority.issueClientCertificate(commonName: "someone-else"), name: "other")
        defer {
            try? FileManager.default.removeItem(at: caFile)
            mine.remove()
            other.remove()
        }
        var configuration = SandboxConfiguration()
        configuration.tls = try SandboxTLSConfiguration.load(certificateFile: nil, keyFile: nil, clientCAFile: caFile.path)
        configuration.tlsClientAuthClient = TLSClientAuthClient(clientId: Self.clientId, subjectCommonName: "idflow-mtls")
        let server = try await SandboxServer.start(configuration)
        defer { Task { await server.stop() } }
        let info = server.info
        let serverCA = try #require(info.caFile)
        let connection = Connection(caFile: serverCA, identity: mine)
        let stranger = Connection(caFile: serverCA, identity: other)

        // A user with a password, and a session token for it.
        let created = try await connection.send(
            "POST", "\(info.orgUrl)/api/v1/users?activate=true",
            json: [
                "profile": ["email": "mtls@example.com", "login": "mtls@example.com", "firstName": "M", "lastName": "T"],
                "credentials": ["password": ["value": .string(Self.password)]],
            ], headers: ["Authorization": "SSWS \(info.apiToken)"])
        #expect(created.status == 200, "\(String(describing: created.body))")
        let authn = try await connection.send(
            "POST", "\(info.orgUrl)/api/v1/authn", json: ["username": "mtls@example.com", "password": .string(Self.password)])
        let sessionToken = try #require(authn.body?["sessionToken"]?.stringValue, "\(String(describing: authn.body))")

        // The code flow; the token request is authenticated by the certificate alone.
        var query = URLComponents(string: "\(info.issuer)/v1/authorize")!
        query.queryItems = [
            .init(name: "client_id", value: Self.clientId), .init(name: "redirect_uri", value: info.redirectUri),
            .init(name: "response_type", value: "code"), .init(name: "scope", value: "openid profile offline_access"),
            .init(name: "state", value: "st4te"), .init(name: "nonce", value: "n0nce"), .init(name: "sessionToken", value: sessionToken),
        ]
        let authorized = try await connection.send("GET", query.string!)
        #expect(authorized.status == 302)
        let location = try #require(authorized.location.flatMap(URLComponents.init(string:)))
        let code = try #require(location.queryItems?.first { $0.name == "code" }?.value, "\(location)")
        let exchange: [(String, String)] = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", info.redirectUri), ("client_id", Self.clientId),
        ]
        // Another certificate of the same CA passes the handshake but is not this client's.
        let refused = try await stranger.send("POST", "\(info.issuer)/v1/token", form: exchange)
        #expect(refused.status == 401)
        #expect(refused.body?["error"] == "invalid_client")
        let tokens = try await connection.send("POST", "\(info.issuer)/v1/token", form: exchange)
        #expect(tokens.status == 200, "\(String(describing: tokens.body))")
        let accessToken = try #require(tokens.body?["access_token"]?.stringValue)
        let expected = Self.thumbprint(mine.der)
        #expect(try Self.claims(accessToken)["cnf"]?["x5t#S256"]?.stringValue == expected)
        #expect(try Self.claims(accessToken)["cid"]?.stringValue == Self.clientId)

        // The bound token works over a connection with its certificate only.
        let bearer = ["Authorization": "Bearer \(accessToken)"]
        #expect(try await connection.send("GET", "\(info.issuer)/v1/userinfo", headers: bearer).status == 200)
        #expect(try await stranger.send("GET", "\(info.issuer)/v1/userinfo", headers: bearer).status == 401)

        // Introspection shows the binding; a refresh is bound again.
        let introspected = try await connection.send(
            "POST", "\(info.issuer)/v1/introspect", form: [("token", accessToken), ("client_id", Self.clientId)])
        #expect(introspected.body?["cnf"]?["x5t#S256"]?.stringValue == expected, "\(String(describing: introspected.body))")
        let refreshToken = try #require(tokens.body?["refresh_token"]?.stringValue)
        let refreshed = try await connection.send(
            "POST", "\(info.issuer)/v1/token",
            form: [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", Self.clientId)])
        #expect(refreshed.status == 200, "\(String(describing: refreshed.body))")
        let refreshedAccess = try #require(refreshed.body?["access_token"]?.stringValue)
        #expect(try Self.claims(refreshedAccess)["cnf"]?["x5t#S256"]?.stringValue == expected)

        // The public client's tokens stay unbound.
        #expect(configuration.clientId != Self.clientId)
        await server.stop()
    }

    @Test("tlsClientAuthClient is read from the configuration file and checked")
    func configuration() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try #"{"tlsClientAuthClient": {"clientId": "0oamtls", "subjectCommonName": "svc"}}"#.write(
            to: url, atomically: true, encoding: .utf8)
        #expect(
            try SandboxConfiguration.load(from: url).tlsClientAuthClient
                == TLSClientAuthClient(clientId: "0oamtls", subjectCommonName: "svc"))
        var configuration = SandboxConfiguration()
        configuration.tlsClientAuthClient = TLSClientAuthClient(clientId: configuration.clientId, subjectCommonName: "svc")
        #expect(throws: SandboxConfigurationError.self) { try configuration.validate() }
        configuration.tlsClientAuthClient = TLSClientAuthClient(clientId: "0oamtls", subjectCommonName: "")
        #expect(throws: SandboxConfigurationError.self) { try configuration.validate() }
    }
}
