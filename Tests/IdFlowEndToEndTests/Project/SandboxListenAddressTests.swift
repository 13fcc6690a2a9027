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

/// A port already taken (a sandbox still running from before) is the user's choice to change, not a network
/// failure: exit 64 (usage), naming the port and `--port 0`, with no hint about --org-url or --proxy.
@Suite struct SandboxPortInUseTests {
    @Test func aTakenPortNamesItselfAndPort0() async throws {
        let first = try await LiveSandbox.start()
        defer { first.stop() }
        let port = try #require(URLComponents(string: first.orgURL)?.port)
        let second = try await IdFlowBinary.run(["sandbox", "--port", "\(port)"], environment: [:])
        #expect(second.exitCode == 64, "\(second)")
        #expect(second.error?["message"]?.stringValue == "port \(port) is in use on 127.0.0.1", "\(second)")
        let hint = second.error?["hint"]?.stringValue ?? ""
        #expect(hint.contains("--port 0"), "\(second)")
        #expect(!hint.contains("--proxy") && !hint.contains("--org-url"), "\(second)")
    }
}
