import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the configuration, the org, keys, clock, state.",
        discussion: """
            Prints {"ok", "checks": [{"name", "status", "detail", "fix"}]}, and a line per check on stderr. Exits 0 \
            when no check failed, else with the most severe failure's code (13, 4, 6, 12, 3, in that order).

              $ idflow doctor | jq -r '.checks[] | select(.status == "fail") | .fix'
              $ idflow doctor --offline --profile staging

            \(GlobalOptions.helpNote)
            """)

    @Flag(help: "Skip the checks that need the network (org, discovery, JWKS, clock, credentials).")
    var offline = false

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        let environment = CommandRunner.environment
        let doctor = Doctor(flags: global.flags, environment: environment.variables, offline: offline)
        try await CommandRunner.runResolving(global) { resolved in
            await doctor.run(resolved, console: environment.console)
        }
    }
}
