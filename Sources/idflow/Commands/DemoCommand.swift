import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowSandbox

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract:
            "Run the whole chain on an embedded sandbox.",
        discussion: """
            Runs each step against an in-process sandbox, with the same code as its command, in a temporary state \
            directory: one JSON line per step on stdout, a headline on stderr. Exits 0 only if every step did what \
            it should, else with the failed step's code; leaves nothing behind.

              $ swift run idflow demo
              $ idflow demo \\
                  | jq -r 'select(.step=="login-pkce").result.access_token'
            """)

    @Flag(help: "Trace HTTP on stderr, every secret redacted.")
    var verbose = false

    @Flag(help: "Run every step over https: the sandbox serves a certificate from a CA generated for the run.")
    var tls = false

    func run() async throws {
        let console = CommandRunner.environment.console
        var failure: Int32?
        try await CommandRunner.report(to: console) { () throws(IdFlowError) in
            let server: SandboxServer
            do {
                var configuration = SandboxConfiguration()
                // A second factor from Google Authenticator: the demo enrolls it and signs in with it unattended. Passkeys
                // too, offered after a sign-in (promotion): the demo enrolls one and signs in with it alone.
                configuration.idx = IDXPolicy(required: [.password], optional: [.googleOTP, .webAuthn], factors: 2)
                configuration.idx.webAuthn.promotion = true
                // Direct Authentication's push shows a number to pick, and is polled each second, not each five.
                configuration.directAuth.numberChallenge = true
                configuration.directAuth.intervalSeconds = 1
                if tls { configuration.tls = SandboxTLSConfiguration() }
                server = try await SandboxServer.start(configuration)
            } catch {
                throw .network(url: "127.0.0.1", reason: "cannot start the embedded sandbox: \(error)")
            }
            let info = server.info
            failure = await Demo().run(
                against: .init(
                    orgURL: info.orgUrl, issuer: info.issuer, apiToken: info.apiToken, clientID: info.clientId,
                    redirectURI: info.redirectUri,
                    customRegistrationClient: info.customRegistration.map {
                        ClientCredentials(clientID: $0.clientId, secret: Secret($0.clientSecret))
                    }, caFile: info.caFile, resourceURL: info.resource?.url,
                    offersAuthenticatorApp: true, offersPasskeys: true),
                verbose: verbose, console: console)
            await server.stop()
        }
        if let failure { throw ExitCode(failure) }
    }
}
