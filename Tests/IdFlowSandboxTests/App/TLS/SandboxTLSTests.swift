import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowSandbox
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("The sandbox over https (--tls)")
struct SandboxTLSTests {
    /// A GET through the client's own transport (libcurl), trusting `options.caFile`.
    static func get(_ url: String, options: CurlTransport.Options, token: String? = nil) async throws -> (Int, JSONValue?) {
        var request = HTTPRequest(method: "GET", url: URL(string: url)!)
        if let token { request.setHeader("Authorization", "SSWS \(token)") }
        let response = try await CurlTransport(options: options).send(request)
        let data = response.body
        return (response.status, try? JSONValue(data: data))
    }

    /// Fails unless `call` throws the refusal of a network or TLS failure (the transport's `TransportFailure`, or the
    /// client's `IdFlowError.network` that names the TLS cause): the server must not have answered.
    static func expectRefused(_ call: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async {
        do {
            try await call()
            Issue.record("the server answered", sourceLocation: sourceLocation)
        } catch let error as IdFlowError {
            guard case .network = error else {
                Issue.record("not a network refusal: \(error)", sourceLocation: sourceLocation)
                return
            }
        } catch {
            #expect(error is TransportFailure, "\(error)", sourceLocation: sourceLocation)
        }
    }

    /// A file only its owner can read, as the client wants keys.
    static func privateFile(_ text: String, name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)-\(name)")
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]))
        return url
    }

    static func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    static func tlsConfiguration(_ tls: SandboxTLSConfiguration = .init()) -> SandboxConfiguration {
        var configuration = SandboxConfiguration()
        configuration.tls = tls
        return configuration
    }

    @Test("a generated certificate: https URLs everywhere, a 0600 CA file that a client trusts, removed at stop")
    func generated() async throws {
        let server = try await SandboxServer.start(Self.tlsConfiguration())
        let info = server.info
        #expect(info.orgUrl == "https://127.0.0.1:\(server.port)")
        #expect(info.issuer == "https://127.0.0.1:\(server.port)/oauth2/default")
        let caFile = try #require(info.caFile)
        #expect(try Self.mode(caFile) == 0o600)
        #expect(try String(contentsOfFile: caFile, encoding: .utf8).hasPrefix("-----BEGIN CERTIFICATE-----"))
        #expect(info.environment.last! == ("IDFLOW_CA_FILE", caFile))

        let trusting = CurlTransport.Options(caFile: caFile)
        let (status, document) = try await Self.get("\(info.issuer)/.well-known/openid-configuration", options: trusting)
        #expect(status == 200)
        let object = try #require(document?.objectValue)
        #expect(object["issuer"]?.stringValue == info.issuer)
        for key in ["authorization_endpoint", "token_endpoint", "jwks_uri", "userinfo_endpoint", "device_authorization_endpoint"] {
            #expect(object[key]?.stringValue?.hasPrefix("https://127.0.0.1:\(server.port)/") == true, "\(key)")
        }
        // /sandbox/info is the start-up line again, caFile included.
        let (infoStatus, served) = try await Self.get("\(info.orgUrl)/sandbox/info", options: trusting, token: info.apiToken)
        #expect(infoStatus == 200)
        #expect(served?["caFile"]?.stringValue == caFile)
        #expect(served?["orgUrl"]?.stringValue == info.orgUrl)
        // localhost is in the certificate too.
        let (localStatus, _) = try await Self.get(
            "https://localhost:\(server.port)/oauth2/default/.well-known/openid-configuration", options: trusting)
        #expect(localStatus == 200)

        await server.stop()
        #expect(!FileManager.default.fileExists(atPath: caFile))
    }

    @Test("without the CA a client refuses the server (a TLS error, not an answer); plain http gets no answer either")
    func untrusted() async throws {
        let server = try await SandboxServer.start(Self.tlsConfiguration())
        defer { Task { await server.stop() } }
        let url = "\(server.info.issuer)/.well-known/openid-configuration"
        // Another CA's file: the server's certificate is not signed by it.
        let other = try Self.privateFile(try CertificateAuthority().certificatePEM, name: "other-ca.pem")
        defer { try? FileManager.default.removeItem(at: other) }
        await Self.expectRefused { _ = try await Self.get(url, options: .init(caFile: other.path)) }
        await Self.expectRefused {
            _ = try await Self.get("http://127.0.0.1:\(server.port)/oauth2/default/.well-known/openid-configuration", options: .init())
        }
        await server.stop()
    }

    @Test("--tls-client-ca: refused without a client certificate, answered with one the CA signed, refused with another's")
    func clientCertificates() async throws {
        let clientAuthority = try CertificateAuthority(commonName: "clients")
        let caFile = try Self.privateFile(clientAuthority.certificatePEM, name: "client-ca.pem")
        defer { try? FileManager.default.removeItem(at: caFile) }
        let tls = try SandboxTLSConfiguration.load(certificateFile: nil, keyFile: nil, clientCAFile: caFile.path)
        let server = try await SandboxServer.start(Self.tlsConfiguration(tls))
        let serverCA = try #require(server.info.caFile)
        let url = "\(server.info.issuer)/.well-known/openid-configuration"

        await Self.expectRefused { _ = try await Self.get(url, options: .init(caFile: serverCA)) }

        let issued = try clientAuthority.issueClientCertificate(commonName: "idflow-test")
        let certificate = try Self.privateFile(issued.certificatePEM, name: "client.pem")
        let key = try Self.privateFile(issued.privateKeyPEM, name: "client.key")
        let strangerIssued = try CertificateAuthority().issueClientCertificate(commonName: "stranger")
        let strangerCertificate = try Self.privateFile(strangerIssued.certificatePEM, name: "stranger.pem")
        let strangerKey = try Self.privateFile(strangerIssued.privateKeyPEM, name: "stranger.key")
        defer {
            for file in [certificate, key, strangerCertificate, strangerKey] { try? FileManager.default.removeItem(at: file) }
        }
        let (status, document) = try await Self.get(
            url, options: .init(caFile: serverCA, clientCertificate: certificate.path, clientKey: key.path))
        #expect(status == 200)
        #expect(document?["issuer"]?.stringValue == server.info.issuer)

        await Self.expectRefused {
            _ = try await Self.get(
                url, options: .init(caFile: serverCA, clientCertificate: strangerCertificate.path, clientKey: strangerKey.path))
        }
        await server.stop()
    }

    @Test("--tls-cert/--tls-key: the given certificate is served, and there is no caFile")
    func givenCertificate() async throws {
        let authority = try CertificateAuthority()
        let issued = try authority.issueServerCertificate(dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"])
        let certificate = try Self.privateFile(issued.certificatePEM, name: "server.pem")
        let key = try Self.privateFile(issued.privateKeyPEM, name: "server.key")
        let ca = try Self.privateFile(authority.certificatePEM, name: "ca.pem")
        defer { for file in [certificate, key, ca] { try? FileManager.default.removeItem(at: file) } }
        let tls = try SandboxTLSConfiguration.load(certificateFile: certificate.path, keyFile: key.path, clientCAFile: nil)
        let server = try await SandboxServer.start(Self.tlsConfiguration(tls))
        #expect(server.info.caFile == nil)
        #expect(server.info.orgUrl.hasPrefix("https://"))
        #expect(!server.info.environment.contains { $0.name == "IDFLOW_CA_FILE" })
        let (status, _) = try await Self.get(
            "\(server.info.issuer)/.well-known/openid-configuration", options: .init(caFile: ca.path))
        #expect(status == 200)
        await server.stop()
    }

    @Test("unreadable or invalid files are named; a certificate without its key is refused")
    func badFiles() throws {
        let authority = try CertificateAuthority()
        let issued = try authority.issueServerCertificate(dnsNames: ["localhost"])
        let certificate = try Self.privateFile(issued.certificatePEM, name: "server.pem")
        let key = try Self.privateFile(issued.privateKeyPEM, name: "server.key")
        let otherKey = try Self.privateFile(authority.privateKeyPEM, name: "other.key")
        let garbage = try Self.privateFile("not PEM\n", name: "garbage.pem")
        defer { for file in [certificate, key, otherKey, garbage] { try? FileManager.default.removeItem(at: file) } }
        let missing = "/nonexistent/\(UUID().uuidString).pem"

        func failure(_ certificateFile: String?, _ keyFile: String?, _ clientCAFile: String? = nil) -> SandboxTLSError? {
            do {
                _ = try SandboxTLSConfiguration.load(certificateFile: certificateFile, keyFile: keyFile, clientCAFile: clientCAFile)
                return nil
            } catch {
                return error as? SandboxTLSError
            }
        }
        #expect(failure(certificate.path, key.path) == nil)
        #expect(failure(certificate.path, nil) == .incomplete("--tls-cert needs --tls-key"))
        #expect(failure(nil, key.path) == .incomplete("--tls-key needs --tls-cert"))
        guard case .unreadable(let path, _) = failure(missing, key.path) else {
            Issue.record("a missing file was read")
            return
        }
        #expect(path == missing)
        #expect(failure(garbage.path, key.path) == .invalid(path: garbage.path, reason: "no PEM certificate in it"))
        #expect(failure(certificate.path, garbage.path) == .invalid(path: garbage.path, reason: "not a PEM private key"))
        guard case .invalid(let mismatched, _) = failure(certificate.path, otherKey.path) else {
            Issue.record("another key was accepted")
            return
        }
        #expect(mismatched == otherKey.path)
        #expect(failure(nil, nil, garbage.path) == .invalid(path: garbage.path, reason: "no PEM certificate in it"))
        #expect("\(failure(nil, nil, missing)!)".contains(missing))
    }

    @Test("a generated certificate also names a configured host that is not loopback")
    func configuredHostInTheCertificate() async throws {
        var configuration = Self.tlsConfiguration()
        configuration.host = "127.0.0.2"
        let server = try await SandboxServer.start(configuration)
        defer { Task { await server.stop() } }
        #expect(server.info.orgUrl == "https://127.0.0.2:\(server.port)")
        let (status, _) = try await Self.get(
            "\(server.info.issuer)/.well-known/openid-configuration", options: .init(caFile: try #require(server.info.caFile)))
        #expect(status == 200)
        await server.stop()
    }
}
