import CRenegotiatingServer
import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// A hostile server that renegotiates TLS 1.2 on a reused connection, against the built idflow. The verify
/// callback once wrote what it saw into the buffer of the transfer that had opened the connection, freed by then:
/// a renegotiation on the second request corrupted idflow's heap (SIGABRT). idflow now refuses renegotiation, and
/// what the callback records belongs to the connection, not to a finished transfer (scripts/asan-tls.sh checks that
/// part under AddressSanitizer).
@Suite(.serialized)
struct TLSRenegotiationTests {
    /// The C server of `CRenegotiatingServer`, with the certificate files it serves and the CA a client trusts.
    final class Server: @unchecked Sendable {
        let folder: URL
        let caFile: String
        private let server: OpaquePointer

        init() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-reneg-\(UUID().uuidString)")
            self.folder = folder
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let ca = try CertificateAuthority(commonName: "Renegotiation Test CA")
            let issued = try ca.issueServerCertificate(dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"])
            func write(_ name: String, _ text: String) throws -> String {
                let url = folder.appendingPathComponent(name)
                try text.write(to: url, atomically: true, encoding: .utf8)
                return url.path
            }
            caFile = try write("ca.pem", ca.certificatePEM)
            let certificate = try write("server.pem", issued.certificatePEM)
            let key = try write("server.key", issued.privateKeyPEM)
            var error = [CChar](repeating: 0, count: 256)
            guard let started = idflow_renegotiating_server_start(certificate, key, &error, error.count) else {
                let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                throw Failure(description: "the renegotiating server did not start: \(reason)")
            }
            server = started
        }

        deinit {
            idflow_renegotiating_server_stop(server)
            try? FileManager.default.removeItem(at: folder)
        }

        var origin: String { "https://localhost:\(idflow_renegotiating_server_port(server))" }
        var counts: idflow_renegotiating_server_counts { idflow_renegotiating_server_counts_now(server) }

        /// Runs `idflow arguments…` with a home of its own, trusting the server's CA.
        func idflow(_ arguments: [String]) async throws -> IdFlowBinary.Result {
            let home = folder.appendingPathComponent("home-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            return try await IdFlowBinary.run(arguments, environment: ["HOME": home.path, "IDFLOW_CA_FILE": caFile])
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    @Test func aRenegotiationOnAReusedConnectionIsRefusedAndTheCallEndsCleanly() async throws {
        let server = try Server()
        // The redirect is answered on the same connection, so idflow's second request reuses it and the server asks
        // for a renegotiation before answering.
        let result = try await server.idflow(["api", "\(server.origin)/redirect"])
        let counts = server.counts
        #expect(counts.renegotiations_asked >= 1, "the server never got to renegotiate: \(counts)")
        #expect(counts.renegotiations_completed == 0, "idflow went through a renegotiation: \(counts)")
        // What a user sees: the answer of a fresh connection (libcurl retries a reused connection that broke before
        // any answer), not a crash and not a renegotiated one.
        #expect(result.exitCode == 0, "\(result)")
        #expect(try result.json()["renegotiated"] == false, "\(result)")
        #expect(!result.stderr.contains("AddressSanitizer") && !result.stderr.contains("malloc()"), "\(result)")
    }

    @Test func aNewConnectionStillNamesTheCertificateItVerified() async throws {
        let server = try Server()
        // The record the verify callback fills now belongs to the connection: --verbose still names the certificate
        // of each new connection, once.
        let result = try await server.idflow(["api", "\(server.origin)/plain", "--verbose"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.contains("Renegotiation Test CA"), "\(result)")
        #expect(server.counts.renegotiations_asked == 0)
    }
}
