import Foundation
import NIOSSL

/// `idflow sandbox --tls`: how the sandbox serves https (it then serves https only). Not a configuration-file
/// key: the flags set it.
public struct SandboxTLSConfiguration: Sendable, Equatable {
    /// Where the server certificate comes from.
    public enum ServerIdentity: Sendable, Equatable {
        /// A fresh CA and a server certificate for 127.0.0.1, ::1, localhost (and the configured host) at start;
        /// the CA's PEM is written 0600 to a temporary file, `SandboxInfo.caFile`.
        case generated
        /// A given certificate chain (leaf first) and its private key, both PEM (`--tls-cert`, `--tls-key`).
        case pem(certificateChain: String, privateKey: String)
    }

    /// The server certificate.
    public var identity: ServerIdentity
    /// The CA certificates (PEM) a client certificate must be signed by (`--tls-client-ca`); when set, every
    /// connection without such a certificate is refused in the TLS handshake.
    public var clientCA: String?

    public init(identity: ServerIdentity = .generated, clientCA: String? = nil) {
        self.identity = identity
        self.clientCA = clientCA
    }

    /// Reads the flags' files: `certificateFile` and `keyFile` (both or neither; neither means generated) and
    /// `clientCAFile`. Throws `SandboxTLSError` naming the file that cannot be read or used.
    public static func load(certificateFile: String?, keyFile: String?, clientCAFile: String?) throws -> SandboxTLSConfiguration {
        var configuration = SandboxTLSConfiguration()
        switch (certificateFile, keyFile) {
        case (nil, nil):
            break
        case (let certificateFile?, let keyFile?):
            let chain = try read(certificateFile)
            let key = try read(keyFile)
            let certificates = try certificates(in: chain, file: certificateFile)
            do {
                _ = try NIOSSLPrivateKey(bytes: Array(key.utf8), format: .pem)
            } catch {
                throw SandboxTLSError.invalid(path: keyFile, reason: "not a PEM private key")
            }
            configuration.identity = .pem(certificateChain: chain, privateKey: key)
            // The key must be the certificate's: OpenSSL checks it when the context is made.
            do {
                _ = try NIOSSLContext(configuration: configuration.serverConfiguration(chain: certificates, key: key))
            } catch {
                throw SandboxTLSError.invalid(path: keyFile, reason: "not the private key of \(certificateFile) (\(error))")
            }
        case (nil, _?):
            throw SandboxTLSError.incomplete("--tls-key needs --tls-cert")
        case (_?, nil):
            throw SandboxTLSError.incomplete("--tls-cert needs --tls-key")
        }
        if let clientCAFile {
            let pem = try read(clientCAFile)
            _ = try certificates(in: pem, file: clientCAFile)
            configuration.clientCA = pem
        }
        return configuration
    }

    /// swift-nio-ssl's server configuration for `chain` and `key`; with `clientCA`, a client certificate signed
    /// by it is required (its host name is not checked: a client has none).
    func serverConfiguration(chain: [NIOSSLCertificate], key: String) throws -> TLSConfiguration {
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(key.utf8), format: .pem)))
        if let clientCA {
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(clientCA.utf8)))
            tls.sendCANameList = true
        }
        return tls
    }

    private static func read(_ path: String) throws -> String {
        do {
            return try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
        } catch {
            throw SandboxTLSError.unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    private static func certificates(in pem: String, file: String) throws -> [NIOSSLCertificate] {
        let certificates = try? NIOSSLCertificate.fromPEMBytes(Array(pem.utf8))
        guard let certificates, !certificates.isEmpty else {
            throw SandboxTLSError.invalid(path: file, reason: "no PEM certificate in it")
        }
        return certificates
    }
}

/// Why the sandbox's TLS settings cannot be used; the description names the file, for a human on stderr.
public enum SandboxTLSError: Error, Equatable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file holds no usable certificate or key.
    case invalid(path: String, reason: String)
    /// A certificate without its key, or a key without its certificate.
    case incomplete(String)
    /// The CA file could not be written.
    case cannotWriteCAFile(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
        case .invalid(let path, let reason): return "cannot use \(path): \(reason)"
        case .incomplete(let message): return message
        case .cannotWriteCAFile(let path, let reason): return "cannot write the CA file \(path): \(reason)"
        }
    }
}
