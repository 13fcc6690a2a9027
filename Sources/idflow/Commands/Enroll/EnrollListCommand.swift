import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct EnrollListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the push enrollments kept on this machine (of the configured org, else of every org).",
        discussion: """
            --check asks the org about each one with the enrollment's own maintenance token and adds \
            serverStatus (ACTIVE, RESET, DELETED, SUSPENDED or INVALID).

              $ idflow enroll list --check \\
                  | jq '.enrollments[] | {enrollmentId, serverStatus}'

            \(GlobalOptions.helpNote)
            """)

    @Flag(help: "Ask the server whether each enrollment still works.")
    var check = false

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await ListEnrollments(check: check).run(context)
        }
    }
}
