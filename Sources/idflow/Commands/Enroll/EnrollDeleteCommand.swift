import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct EnrollDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an enrollment on the server and forget it (and its keys) here.",
        usage: "idflow enroll delete <enrollment-id> [<options>]",
        discussion: """
            An enrollment, device or user the server says is gone or suspended counts as deleted.

              $ idflow enroll delete "$ENROLLMENT_ID" | jq .deleted

            \(GlobalOptions.helpNote)
            """)

    @Argument(help: ArgumentHelp("The enrollment id (see `idflow enroll list`).", valueName: "enrollment-id"), completion: .enrollments)
    var enrollmentId: String

    @Flag(name: .customLong("local-only"), help: "Forget the enrollment on this machine only; the server keeps it.")
    var localOnly = false

    @OptionGroup var accessToken: AccessTokenOption
    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        if localOnly && accessToken.accessTokenStdin {
            throw ValidationError("--local-only sends nothing, so it takes no access token")
        }
    }

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await DeleteEnrollment(
                enrollmentId: enrollmentId, localOnly: localOnly, accessTokenFromStandardInput: accessToken.accessTokenStdin
            ).run(context)
        }
    }
}
