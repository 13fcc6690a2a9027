import Foundation
import IdFlowTestSupport
import Testing

/// The start-up line says where `idflow sandbox` really listens (only loopback is ever bound in tests).
@Suite struct SandboxListenAddressTests {
    @Test(arguments: ["127.0.0.1", "localhost"])
    func theStartUpLineAndInfoNameTheBoundAddress(host: String) async throws {
        let sandbox = try await LiveSandbox.start(["--host", host])
        defer { sandbox.stop() }
        let address = try #require(sandbox.info["listenAddress"]?.stringValue, "\(sandbox.info)")
        let port = try #require(URLComponents(string: sandbox.orgURL)?.port)
        #expect(address == "127.0.0.1:\(port)" || address == "[::1]:\(port)", "\(address)")
        let (status, info) = try await sandbox.call("GET", "/sandbox/info")
        #expect(status == 200)
        #expect(info?["listenAddress"]?.stringValue == address)
    }
}
