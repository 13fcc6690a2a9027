import Foundation
import NIOSSL

/// What `SandboxServer.start` makes of `SandboxTLSConfiguration`: swift-nio-ssl's server configuration and, for a
/// generated certificate, the CA file clients trust (removed when the server stops).
struct SandboxTLS: Sendable {
    let serverConfiguration: TLSConfiguration
    /// The generated CA's PEM file; nil for a given certificate (its issuer is the user's business).
    let caFile: String?

    /// Generates the CA and server certificate if asked to, and writes the CA file.
    static func prepare(_ tls: SandboxTLSConfiguration, host: String) throws -> SandboxTLS {
        switch tls.identity {
        case .generated:
            let authority = try CertificateAuthority()
            let names = serverNames(host: host)
            let server = try authority.issueServerCertificate(dnsNames: names.dnsNames, ipAddresses: names.ipAddresses)
            let chain = try NIOSSLCertificate.fromPEMBytes(Array(server.certificatePEM.utf8))
            let configuration = try tls.serverConfiguration(chain: chain, key: server.privateKeyPEM)
            let caFile = try CAFile.write(authority.certificatePEM)
            return SandboxTLS(serverConfiguration: configuration, caFile: caFile)
        case .pem(let certificateChain, let privateKey):
            let chain = try NIOSSLCertificate.fromPEMBytes(Array(certificateChain.utf8))
            return SandboxTLS(serverConfiguration: try tls.serverConfiguration(chain: chain, key: privateKey), caFile: nil)
        }
    }

    /// The names of a generated server certificate: 127.0.0.1, ::1 and localhost, plus `host` when it is another
    /// name or address (a wildcard address adds nothing: `orgUrl` then names loopback). A host name adds the
    /// addresses it resolves to as well, since `orgUrl` names the address the server bound.
    static func serverNames(host: String) -> (dnsNames: [String], ipAddresses: [String]) {
        var dnsNames = ["localhost"]
        var ipAddresses = ["127.0.0.1", "::1"]
        func addAddress(_ address: String) {
            guard let bytes = CertificateAuthority.addressBytes(address) else { return }
            if !ipAddresses.contains(where: { CertificateAuthority.addressBytes($0) == bytes }) { ipAddresses.append(address) }
        }
        var name = host
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if !name.isEmpty, !ListenAddress.isEveryInterface(name) {
            if CertificateAuthority.addressBytes(name) != nil {
                addAddress(name)
            } else if !dnsNames.contains(name.lowercased()) {
                dnsNames.append(name.lowercased())
                resolve(name).forEach(addAddress)
            }
        }
        return (dnsNames, ipAddresses)
    }

    /// The IPv4 and IPv6 addresses `name` resolves to (none when it does not).
    static func resolve(_ name: String) -> [String] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [String] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            let family = current.pointee.ai_family
            if let address = current.pointee.ai_addr {
                if family == AF_INET {
                    var value = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                    if inet_ntop(AF_INET, &value, &text, socklen_t(text.count)) != nil {
                        addresses.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
                    }
                } else if family == AF_INET6 {
                    var value = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                    if inet_ntop(AF_INET6, &value, &text, socklen_t(text.count)) != nil {
                        addresses.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
                    }
                }
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }

    /// Removes the CA file, if there is one.
    func removeCAFile() {
        if let caFile { try? FileManager.default.removeItem(atPath: caFile) }
    }
}

/// The generated CA's certificate on disk: mode 0600 in the temporary directory, written under a temporary name
/// and renamed, so a reader never sees half a file.
enum CAFile {
    /// `name` tells the files apart: `ca` for the CA, `service-app-key` for the default service app's private key.
    static func write(_ pem: String, directory: URL = FileManager.default.temporaryDirectory, name: String = "ca") throws -> String {
        let id = UUID().uuidString.lowercased()
        let path = directory.appendingPathComponent("idflow-sandbox-\(name)-\(id).pem").path
        let temporary = directory.appendingPathComponent(".idflow-sandbox-\(name)-\(id).pem.tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw SandboxTLSError.cannotWriteCAFile(path: path, reason: String(cString: strerror(errno)))
        }
        let bytes = Array(pem.utf8)
        var written = 0
        var failure: Int32 = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            written += count
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw SandboxTLSError.cannotWriteCAFile(path: path, reason: String(cString: strerror(failure)))
        }
        return path
    }
}
