import Crypto
import Foundation
import NIOCore
import NIOSSL
import X509

/// The TLS client certificate of a connection, for RFC 8705 `tls_client_auth`: who it names and its thumbprint.
struct ClientCertificate: Sendable, Equatable {
    /// The subject's common name; nil when it has none.
    let commonName: String?
    /// `base64url(SHA-256(DER))`, the `x5t#S256` of a certificate-bound token (RFC 8705 §3.1).
    let thumbprint: String

    init(der: [UInt8]) throws {
        let certificate = try Certificate(derEncoded: der)
        commonName = certificate.subject.lazy.flatMap { $0 }.first { $0.type == .RDNAttributeType.commonName }
            .map { String(describing: $0.value) }
        thumbprint = Data(SHA256.hash(data: der)).base64URLEncoded
    }

    /// The certificate the client presented on `channel` (already verified in the handshake against
    /// `--tls-client-ca`); nil without TLS or without a certificate.
    static func presented(on channel: any Channel) async -> ClientCertificate? {
        guard let certificate = try? await channel.nioSSL_peerCertificate().get(), let der = try? certificate.toDERBytes() else {
            return nil
        }
        return try? ClientCertificate(der: der)
    }
}

extension ClientCertificate {
    /// RFC 8705 §3: whether a token with `cnf` may be used on `channel`: an unbound token anywhere, a
    /// certificate-bound one (`x5t#S256`) only where the client presented that very certificate. The one check
    /// every route that takes a user's access token makes.
    static func confirms(_ cnf: TokenConfirmation?, on channel: any Channel) async -> Bool {
        guard let bound = cnf?.certificateThumbprint else { return true }
        guard let certificate = await presented(on: channel) else { return false }
        return ConstantTime.equals(certificate.thumbprint, bound)
    }
}
