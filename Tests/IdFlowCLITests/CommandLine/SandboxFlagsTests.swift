import ArgumentParser
import Testing

@testable import idflow

/// `idflow sandbox` is a server: the client's configuration flags mean nothing to it, so it neither lists
/// nor takes them.
@Suite struct SandboxFlagsTests {
    @Test func helpSandboxListsOnlyTheServersFlags() async {
        let result = await CLI.run(["help", "sandbox"])
        #expect(result.exitCode == 0)
        for flag in ["--host", "--port", "--api-token", "--config"] {
            #expect(result.stdout.contains(flag), "idflow help sandbox lacks \(flag)")
        }
        for flag in ["--org-url", "--client-id", "--issuer", "--profile", "--state-dir", "--verbose", "--max-retries", "--pretty"] {
            #expect(!result.stdout.contains(flag), "idflow help sandbox lists the client flag \(flag)")
        }
    }

    @Test(arguments: [["-v", "sandbox"], ["--org-url", "https://o.example.com", "sandbox"], ["sandbox", "--profile", "x"]])
    func aClientFlagGivenToTheSandboxIsAUsageErrorNamingIt(arguments: [String]) async {
        let result = await CLI.run(arguments)
        #expect(result.exitCode == 64)
        #expect(result.stdout.isEmpty)
        let flag = arguments.first { $0.hasPrefix("-") } ?? ""
        #expect(result.stderr.contains(flag), "\(result.stderr)")
    }
}
