import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct ChallengesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "challenges",
        abstract: "List the push challenges pending for this machine.",
        discussion: """
            Each enrollment signs in with its own device key: no user login is needed after `enroll`.

              $ idflow challenges \\
                  | jq '.challenges[] | {transactionId, clientOS, clientLocation}'
              $ idflow challenges --wait 60

            \(GlobalOptions.helpNote)
            """)

    @Option(help: ArgumentHelp("Only this enrollment's challenges.", valueName: "enrollment-id"), completion: .enrollments)
    var enrollment: String?

    @Option(help: ArgumentHelp("Wait up to this long for at least one challenge (exit 9 if none comes).", valueName: "seconds"))
    var wait: Int?

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        if let wait, wait <= 0 { throw ValidationError("--wait must be positive") }
    }

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await ListChallenges(enrollmentId: enrollment, wait: wait.map { .seconds($0) }).run(context)
        }
    }
}
