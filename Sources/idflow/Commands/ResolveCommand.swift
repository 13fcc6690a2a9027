import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct ResolveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Approve or deny a pending push challenge.",
        usage: "idflow resolve [<options>]",
        discussion: """
            The challenge's signature is checked against the org's keys first (exit 13, nothing sent). Expired: \
            exit 9; unknown or answered: exit 5. User verification needs the PIN; a wrong one answers \
            UV_TEMPORARILY_UNAVAILABLE, as a phone does, and exits 4. A number challenge is approved only with the \
            number the sign-in shows (--number N, or at the prompt).

              $ idflow resolve --next --approve | jq -r .decision
              $ idflow resolve --next --approve --number 42

            \(GlobalOptions.helpNote)
            """)

    @Option(name: .customLong("transaction-id"), help: ArgumentHelp("The challenge's transactionId.", valueName: "tx"))
    var transactionId: String?

    @Flag(help: "Answer the oldest pending challenge.")
    var next = false

    @Flag(help: "Approve the sign-in.")
    var approve = false

    @Flag(help: "Deny the sign-in.")
    var deny = false

    @Flag(
        name: .customLong("user-verification"),
        help: "Sign with the user-verification key (the PIN) even when not asked.")
    var userVerification = false

    @Option(help: ArgumentHelp("Only look at this enrollment's challenges.", valueName: "enrollment-id"), completion: .enrollments)
    var enrollment: String?

    @Option(
        help: ArgumentHelp(
            "The number the sign-in shows, for a number challenge.",
            valueName: "n"))
    var number: String?

    @OptionGroup var pin: PINOptions
    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        guard (transactionId != nil) != next else { throw ValidationError("choose exactly one of --transaction-id or --next") }
        guard approve != deny else { throw ValidationError("choose exactly one of --approve or --deny") }
        if deny && userVerification { throw ValidationError("--user-verification only applies to --approve") }
        if deny && number != nil { throw ValidationError("--number only applies to --approve") }
    }

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await ResolveChallenge(
                target: transactionId.map { .transaction($0) } ?? .next, approve: approve, userVerification: userVerification,
                pin: try pin.source(context), enrollmentId: enrollment, number: number
            ).run(context)
        }
    }
}
