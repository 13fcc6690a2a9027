import Testing

@testable import IdFlowSandbox

/// The names of the certificate `sandbox --tls` generates, whatever `--host` says.
@Suite struct ServerNamesTests {
    static let loopback = (dnsNames: ["localhost"], ipAddresses: ["127.0.0.1", "::1"])

    @Test(arguments: ["127.0.0.1", "::1", "[::1]", "localhost", "LocalHost", "0.0.0.0", "::", ""])
    func loopbackAndWildcardHostsAddNothing(host: String) {
        let names = SandboxTLS.serverNames(host: host)
        #expect(names.dnsNames == Self.loopback.dnsNames && names.ipAddresses == Self.loopback.ipAddresses)
    }

    @Test func anotherAddressIsAdded() {
        #expect(SandboxTLS.serverNames(host: "127.0.0.2").ipAddresses == ["127.0.0.1", "::1", "127.0.0.2"])
        #expect(SandboxTLS.serverNames(host: "[fd00::5]").ipAddresses == ["127.0.0.1", "::1", "fd00::5"])
        #expect(SandboxTLS.serverNames(host: "0:0:0:0:0:0:0:1").ipAddresses == ["127.0.0.1", "::1"])
    }

    @Test func aHostNameResolvesToTheAddressesOrgUrlMayName() {
        #expect(SandboxTLS.resolve("localhost").contains("127.0.0.1"))
        #expect(SandboxTLS.resolve("127.0.0.9") == ["127.0.0.9"])
    }
}
