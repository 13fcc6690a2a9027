import Foundation
import IdFlowSandbox
import SwiftASN1
import Testing
import X509

@Suite("CertificateAuthority: the certificates of the sandbox's TLS and of TLS tests")
struct CertificateAuthorityTests {
    static func names(_ certificate: Certificate) throws -> [GeneralName] {
        guard let names = try certificate.extensions.subjectAlternativeNames else { return [] }
        return Array(names)
    }

    static func commonName(_ name: DistinguishedName) -> String? {
        name.lazy.flatMap { $0 }.first { $0.type == .RDNAttributeType.commonName }.map { String(describing: $0.value) }
    }

    @Test("a CA is self-signed, a CA by basicConstraints, and signs certificates only")
    func certificateAuthority() throws {
        let authority = try CertificateAuthority(commonName: "Test Root")
        let certificate = try Certificate(pemEncoded: authority.certificatePEM)
        #expect(certificate.subject == certificate.issuer)
        #expect(Self.commonName(certificate.subject) == "Test Root")
        #expect(authority.commonName == "Test Root")
        #expect(try certificate.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
        #expect(certificate.extensions[oid: .X509ExtensionID.basicConstraints]?.critical == true)
        let usage = try #require(try certificate.extensions.keyUsage)
        #expect(usage.keyCertSign && usage.cRLSign && !usage.digitalSignature)
        #expect(certificate.publicKey.isValidSignature(certificate.signature, for: certificate))
        #expect(certificate.signatureAlgorithm == .ecdsaWithSHA256)
        // The key is PKCS#8, as curl and OpenSSL read it.
        #expect(authority.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(try Certificate.PrivateKey(pemEncoded: authority.privateKeyPEM).publicKey == certificate.publicKey)
    }

    @Test("a server certificate names its DNS names and IP addresses, is valid when asked, and is signed by the CA")
    func serverCertificate() throws {
        let authority = try CertificateAuthority()
        let ca = try Certificate(pemEncoded: authority.certificatePEM)
        let start = Date(timeIntervalSince1970: 1_900_000_000)
        let end = start.addingTimeInterval(86400)
        let issued = try authority.issueServerCertificate(
            dnsNames: ["localhost", "sandbox.test"], ipAddresses: ["127.0.0.1", "::1"], notValidBefore: start,
            notValidAfter: end)
        let certificate = try Certificate(pemEncoded: issued.certificatePEM)
        #expect(
            try Self.names(certificate) == [
                .dnsName("localhost"), .dnsName("sandbox.test"),
                .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                .ipAddress(ASN1OctetString(contentBytes: ArraySlice([UInt8](repeating: 0, count: 15) + [1]))),
            ])
        #expect(Self.commonName(certificate.subject) == "localhost")
        #expect(certificate.issuer == ca.subject)
        #expect(ca.publicKey.isValidSignature(certificate.signature, for: certificate))
        #expect(certificate.notValidBefore == start && certificate.notValidAfter == end)
        #expect(try certificate.extensions.basicConstraints == .notCertificateAuthority)
        #expect(try certificate.extensions.extendedKeyUsage == ExtendedKeyUsage([.serverAuth]))
        #expect(try certificate.extensions.keyUsage?.digitalSignature == true)
        #expect(
            try certificate.extensions.authorityKeyIdentifier?.keyIdentifier
                == ca.extensions.subjectKeyIdentifier?.keyIdentifier)
        #expect(try Certificate.PrivateKey(pemEncoded: issued.privateKeyPEM).publicKey == certificate.publicKey)
    }

    @Test("an expired one and a wrong-host one are what a test asks for")
    func expiredAndWrongHost() throws {
        let authority = try CertificateAuthority()
        // The validity asked for is the validity issued (to the second a certificate keeps), judged against the
        // dates given rather than this machine's clock when the line runs.
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let expired = try Certificate(
            pemEncoded: authority.issueServerCertificate(
                dnsNames: ["localhost"], notValidBefore: now.addingTimeInterval(-2 * 86400), notValidAfter: now.addingTimeInterval(-86400)
            ).certificatePEM)
        #expect(expired.notValidAfter == now.addingTimeInterval(-86400))
        let notYet = try Certificate(
            pemEncoded: authority.issueServerCertificate(
                ipAddresses: ["127.0.0.1"], notValidBefore: now.addingTimeInterval(86400), notValidAfter: now.addingTimeInterval(2 * 86400)
            ).certificatePEM)
        #expect(notYet.notValidBefore == now.addingTimeInterval(86400))
        #expect(Self.commonName(notYet.subject) == "127.0.0.1")
        let wrongHost = try Certificate(
            pemEncoded: authority.issueServerCertificate(dnsNames: ["elsewhere.example"]).certificatePEM)
        #expect(try Self.names(wrongHost) == [.dnsName("elsewhere.example")])
    }

    @Test("a client certificate is for clientAuth, names its holder, and has no alternative names")
    func clientCertificate() throws {
        let authority = try CertificateAuthority()
        let issued = try authority.issueClientCertificate(commonName: "idflow-client")
        let certificate = try Certificate(pemEncoded: issued.certificatePEM)
        #expect(Self.commonName(certificate.subject) == "idflow-client")
        #expect(try certificate.extensions.extendedKeyUsage == ExtendedKeyUsage([.clientAuth]))
        #expect(try certificate.extensions.subjectAlternativeNames == nil)
        #expect(try Certificate(pemEncoded: authority.certificatePEM).publicKey.isValidSignature(certificate.signature, for: certificate))
    }

    @Test("a CA read back from its PEM issues certificates that chain to the same root")
    func reloaded() throws {
        let original = try CertificateAuthority(commonName: "Reloaded")
        let reloaded = try CertificateAuthority(certificatePEM: original.certificatePEM, privateKeyPEM: original.privateKeyPEM)
        #expect(reloaded.commonName == "Reloaded")
        let leaf = try Certificate(pemEncoded: reloaded.issueClientCertificate(commonName: "c").certificatePEM)
        #expect(try Certificate(pemEncoded: original.certificatePEM).publicKey.isValidSignature(leaf.signature, for: leaf))
    }

    @Test("a server certificate needs a name, and an IP address must be one")
    func badNames() throws {
        let authority = try CertificateAuthority()
        #expect(throws: CertificateAuthorityError.noNames) { try authority.issueServerCertificate(dnsNames: []) }
        #expect(throws: CertificateAuthorityError.invalidIPAddress("localhost")) {
            try authority.issueServerCertificate(dnsNames: [], ipAddresses: ["localhost"])
        }
    }
}
