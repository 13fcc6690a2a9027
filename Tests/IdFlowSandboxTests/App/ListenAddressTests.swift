import IdFlowSandbox
import Testing

/// `idflow sandbox --host` warns when the sandbox, which has no TLS and hands out its API token, can be reached
/// from other machines. No test listens anywhere but on loopback: the decision is tested here, the loopback
/// servers in `SandboxServerTests` and end to end.
@Suite struct ListenAddressTests {
    @Test(arguments: ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "0:0:0:0:0:0:0:1", "localhost", "LOCALHOST"])
    func loopbackNeedsNoWarning(host: String) {
        #expect(ListenAddress.isLoopback(host))
        #expect(!ListenAddress.isEveryInterface(host))
        #expect(ListenAddress.warning(host: host) == nil)
    }

    @Test(arguments: ["0.0.0.0", "::", "[::]"])
    func everyInterfaceIsWarnedAbout(host: String) throws {
        #expect(ListenAddress.isEveryInterface(host))
        let warning = try #require(ListenAddress.warning(host: host))
        #expect(warning.hasPrefix("warning: the sandbox listens on every interface (\(host))"))
        #expect(warning.contains("no TLS") && warning.contains("--host 127.0.0.1"))
    }

    @Test(arguments: ["192.168.1.20", "10.0.0.1", "fe80::1", "sandbox.example.com", "127.0.0.1.example.com", "1270.0.0.1"])
    func anyOtherAddressIsWarnedAbout(host: String) throws {
        #expect(!ListenAddress.isLoopback(host) && !ListenAddress.isEveryInterface(host))
        let warning = try #require(ListenAddress.warning(host: host))
        #expect(warning.hasPrefix("warning: the sandbox listens on \(host), which is not a loopback address"))
    }

    @Test("with --tls the warning is about who can reach the sandbox, not about the missing TLS")
    func withTLS() throws {
        let warning = try #require(ListenAddress.warning(host: "0.0.0.0", tls: true))
        #expect(
            warning == "warning: the sandbox listens on every interface (0.0.0.0). Anyone who can reach it can use its API "
                + "token, clients and users; --host 127.0.0.1 keeps it to this machine.")
        #expect(ListenAddress.warning(host: "127.0.0.1", tls: true) == nil)
    }
}
