import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct EnrollUpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Change an enrollment's push token, or switch its user-verification key on or off.",
        usage: "idflow enroll update <enrollment-id> [<options>]",
        discussion: """
            `on` makes a new key sealed under the PIN (replacing any old one); `off` drops it once the server agreed.

              $ idflow enroll update "$ENROLLMENT_ID" --user-verification off \\
                  | jq .userVerification

            \(GlobalOptions.helpNote)
            """)

    @Argument(help: ArgumentHelp("The enrollment id (see `idflow enroll list`).", valueName: "enrollment-id"), completion: .enrollments)
    var enrollmentId: String

    @Option(name: .customLong("push-token"), help: ArgumentHelp("A new push (APNs) device token as hex.", valueName: "hex"))
    var pushToken: String?

    @Option(name: .customLong("user-verification"), help: ArgumentHelp("Switch the user-verification key on or off.", valueName: "on|off"))
    var userVerification: Switch?

    @OptionGroup var accessToken: AccessTokenOption
    @OptionGroup var pin: PINOptions
    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        _ = try PushToken.validate(pushToken)
        guard pushToken != nil || userVerification != nil else {
            throw ValidationError("give --push-token and/or --user-verification on|off")
        }
        if accessToken.accessTokenStdin && pin.pinStdin {
            throw ValidationError("--access-token-stdin and --pin-stdin cannot both read standard input")
        }
        if (pin.pinStdin || pin.pinFile != nil) && userVerification != .on {
            throw ValidationError("a PIN is only used with --user-verification on")
        }
    }

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await UpdateEnrollment(
                enrollmentId: enrollmentId, pushToken: try? PushToken.validate(pushToken),
                userVerification: userVerification.map { $0 == .on },
                pin: try pin.source(context), accessTokenFromStandardInput: accessToken.accessTokenStdin
            ).run(context)
        }
    }
}
