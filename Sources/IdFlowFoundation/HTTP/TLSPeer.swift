internal import CCurl
import Foundation

/// The server certificate OpenSSL looked at during a handshake, as the verify callback recorded it: enough to
/// tell a user which certificate was refused and why, or (`--verbose`) which one a connection trusted.
struct TLSPeer: Sendable, Equatable {
    /// Distinguished names in OpenSSL's one-line form (`/CN=idflow sandbox CA`).
    var subject: String
    var issuer: String
    /// ISO 8601 instants, empty when the certificate's date could not be read.
    var notBefore: String
    var notAfter: String
    /// The subjectAltName DNS names and IP addresses.
    var names: [String]

    init(subject: String, issuer: String, notBefore: String, notAfter: String, names: [String]) {
        self.subject = subject
        self.issuer = issuer
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.names = names
    }

    init(_ peer: idflow_tls_peer) {
        var copy = peer
        func text<T>(_ field: UnsafePointer<T>, _ size: Int) -> String {
            field.withMemoryRebound(to: CChar.self, capacity: size) { String(cString: $0) }
        }
        subject = withUnsafePointer(to: &copy.subject) { text($0, MemoryLayout.size(ofValue: peer.subject)) }
        issuer = withUnsafePointer(to: &copy.issuer) { text($0, MemoryLayout.size(ofValue: peer.issuer)) }
        notBefore = withUnsafePointer(to: &copy.not_before) { text($0, MemoryLayout.size(ofValue: peer.not_before)) }
        notAfter = withUnsafePointer(to: &copy.not_after) { text($0, MemoryLayout.size(ofValue: peer.not_after)) }
        let list = withUnsafePointer(to: &copy.names) { text($0, MemoryLayout.size(ofValue: peer.names)) }
        names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// One line for `--verbose`: who the certificate is for, who issued it, until when.
    var summary: String {
        var parts = ["subject \(subject)", "issuer \(issuer)"]
        if !names.isEmpty { parts.append("names \(names.joined(separator: ", "))") }
        if !notAfter.isEmpty { parts.append("valid until \(notAfter)") }
        return parts.joined(separator: "; ")
    }
}
