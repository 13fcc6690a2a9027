import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate authority made on the spot (P-256, self-signed): `idflow sandbox --tls` makes one at start and
/// issues its server certificate with it; tests use it to make the certificates a TLS test needs (untrusted,
/// expired, not yet valid, for the wrong host, client certificates). Everything comes out as PEM: the
/// certificate, and its private key as PKCS#8 (`-----BEGIN PRIVATE KEY-----`), as curl and OpenSSL read them.
public struct CertificateAuthority: Sendable {
    /// The CA's certificate (PEM), the file a client trusts.
    public let certificatePEM: String
    /// The CA's private key (PKCS#8 PEM).
    public let privateKeyPEM: String
    /// The CA's subject common name.
    public let commonName: String

    private let certificate: Certificate
    private let key: P256.Signing.PrivateKey

    /// A certificate and its key, both PEM.
    public struct Issued: Sendable, Equatable {
        /// The certificate (PEM).
        public let certificatePEM: String
        /// Its private key (PKCS#8 PEM).
        public let privateKeyPEM: String
    }

    /// Makes a new CA with a fresh P-256 key: self-signed, `basicConstraints` CA (critical), key usage
    /// keyCertSign and cRLSign. By default valid from an hour ago (clocks differ a little) for a year.
    public init(
        commonName: String = "idflow sandbox CA", notValidBefore: Date = Date().addingTimeInterval(-3600),
        notValidAfter: Date = Date().addingTimeInterval(365 * 86400)
    ) throws {
        let key = P256.Signing.PrivateKey()
        let publicKey = Certificate.PublicKey(key.publicKey)
        let name = try DistinguishedName {
            OrganizationName("idflow")
            CommonName(commonName)
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: notValidBefore, notValidAfter: notValidAfter, issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: publicKey)
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
        try self.init(certificate: certificate, key: key, commonName: commonName)
    }

    /// An existing CA from its certificate and P-256 private key (PEM), to issue more certificates with it.
    public init(certificatePEM: String, privateKeyPEM: String) throws {
        let certificate = try Certificate(pemEncoded: certificatePEM)
        let key = try P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        let commonName =
            certificate.subject.compactMap { $0.first { $0.type == .RDNAttributeType.commonName } }
            .first.map { String(describing: $0.value) } ?? ""
        try self.init(certificate: certificate, key: key, commonName: commonName)
    }

    private init(certificate: Certificate, key: P256.Signing.PrivateKey, commonName: String) throws {
        self.certificate = certificate
        self.key = key
        self.commonName = commonName
        self.certificatePEM = try certificate.serializeAsPEM().pemString
        self.privateKeyPEM = key.pemRepresentation
    }

    /// Issues a server certificate (extendedKeyUsage serverAuth) whose subjectAltName holds `dnsNames` and
    /// `ipAddresses` (IPv4 or IPv6 literals; anything else throws `CertificateAuthorityError.invalidIPAddress`).
    /// Choose the dates to make an expired or a not-yet-valid one; leave out the name a client uses to make a
    /// wrong-host one.
    public func issueServerCertificate(
        dnsNames: [String] = [], ipAddresses: [String] = [], commonName: String? = nil,
        notValidBefore: Date = Date().addingTimeInterval(-3600), notValidAfter: Date = Date().addingTimeInterval(365 * 86400)
    ) throws -> Issued {
        var names: [GeneralName] = dnsNames.map { .dnsName($0) }
        for address in ipAddresses {
            guard let bytes = Self.addressBytes(address) else { throw CertificateAuthorityError.invalidIPAddress(address) }
            names.append(.ipAddress(ASN1OctetString(contentBytes: ArraySlice(bytes))))
        }
        guard !names.isEmpty else { throw CertificateAuthorityError.noNames }
        let subjectName = commonName ?? dnsNames.first ?? ipAddresses[0]
        return try issue(
            commonName: subjectName, notValidBefore: notValidBefore, notValidAfter: notValidAfter,
            usage: .serverAuth, alternativeNames: names)
    }

    /// Issues a client certificate (extendedKeyUsage clientAuth) for `commonName`, as a mutual-TLS gateway or an
    /// RFC 8705 client presents it.
    public func issueClientCertificate(
        commonName: String, notValidBefore: Date = Date().addingTimeInterval(-3600),
        notValidAfter: Date = Date().addingTimeInterval(365 * 86400)
    ) throws -> Issued {
        try issue(
            commonName: commonName, notValidBefore: notValidBefore, notValidAfter: notValidAfter, usage: .clientAuth,
            alternativeNames: [])
    }

    private func issue(
        commonName: String, notValidBefore: Date, notValidAfter: Date, usage: ExtendedKeyUsage.Usage,
        alternativeNames: [GeneralName]
    ) throws -> Issued {
        let leafKey = P256.Signing.PrivateKey()
        let publicKey = Certificate.PublicKey(leafKey.publicKey)
        let subject = try DistinguishedName {
            OrganizationName("idflow")
            CommonName(commonName)
        }
        let authorityKeyIdentifier = try certificate.extensions.subjectKeyIdentifier?.keyIdentifier
        let leaf = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: notValidBefore, notValidAfter: notValidAfter, issuer: certificate.subject, subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([usage])
                SubjectKeyIdentifier(hash: publicKey)
                if let authorityKeyIdentifier {
                    AuthorityKeyIdentifier(keyIdentifier: authorityKeyIdentifier)
                }
                if !alternativeNames.isEmpty {
                    SubjectAlternativeNames(alternativeNames)
                }
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
        return Issued(certificatePEM: try leaf.serializeAsPEM().pemString, privateKeyPEM: leafKey.pemRepresentation)
    }

    /// The 4 or 16 bytes of an IPv4 or IPv6 literal (brackets allowed), or nil.
    static func addressBytes(_ address: String) -> [UInt8]? {
        var literal = address
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        var v4 = in_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, literal, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }
}

/// Why `CertificateAuthority` could not issue a certificate.
public enum CertificateAuthorityError: Error, Equatable, CustomStringConvertible {
    /// An entry of `ipAddresses` is not an IPv4 or IPv6 literal.
    case invalidIPAddress(String)
    /// A server certificate needs at least one DNS name or IP address.
    case noNames

    public var description: String {
        switch self {
        case .invalidIPAddress(let address): return "not an IP address: \(address)"
        case .noNames: return "a server certificate needs at least one DNS name or IP address"
        }
    }
}
