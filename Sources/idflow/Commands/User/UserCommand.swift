import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract:
            "Get a user; unlock, suspend, expire, reset a password.",
        discussion: """
            Management calls with the API token; the user is named by id or login. Each prints {"userId", \
            "login", "status"} as read back (`get`: the whole user), plus "tempPassword" or "resetPasswordUrl" when \
            the org returns one. A call the status does not allow: exit 3; an unknown user: exit 5.

              $ idflow user get jo@example.com | jq -r .status
              $ idflow user reset-password jo@example.com | jq -r .resetPasswordUrl \\
                  | idflow set-password --activation-url-stdin --password-file new.txt
            """,
        subcommands: [
            UserLifecycleCommand<GetOperation>.self, UserLifecycleCommand<UnlockOperation>.self,
            UserLifecycleCommand<SuspendOperation>.self, UserLifecycleCommand<UnsuspendOperation>.self,
            UserExpirePasswordCommand.self, UserResetPasswordCommand.self,
        ])
}

/// The user a lifecycle subcommand acts on.
struct UserArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The user's id (00u...) or login.", valueName: "user"))
    var user: String
}

/// A lifecycle operation without options of its own, named by its type so one command serves four.
protocol UserOperation {
    static var operation: UserLifecycle.Operation { get }
    static var abstract: String { get }
}

enum GetOperation: UserOperation {
    static let operation = UserLifecycle.Operation.show
    static let abstract = "Print the user object."
}

enum UnlockOperation: UserOperation {
    static let operation = UserLifecycle.Operation.unlock
    static let abstract = "Unlock a LOCKED_OUT user (ACTIVE again, same password)."
}

enum SuspendOperation: UserOperation {
    static let operation = UserLifecycle.Operation.suspend
    static let abstract = "Suspend an ACTIVE user: sign-in is refused until unsuspend."
}

enum UnsuspendOperation: UserOperation {
    static let operation = UserLifecycle.Operation.unsuspend
    static let abstract = "Lift a suspension (ACTIVE again)."
}

struct UserLifecycleCommand<Operation: UserOperation>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: Operation.operation.rawValue, abstract: Operation.abstract, discussion: GlobalOptions.helpNote)
    }

    @OptionGroup var target: UserArgument
    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await UserLifecycle(user: target.user, operation: Operation.operation).run(context)
        }
    }
}

struct UserExpirePasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "expire-password",
        abstract: "Expire the user's password (PASSWORD_EXPIRED): the next sign-in must choose a new one.",
        discussion: """
            --temp-password prints a temporary password ("tempPassword", a secret) to sign in with once.

            \(GlobalOptions.helpNote)
            """)

    @OptionGroup var target: UserArgument

    @Flag(name: .customLong("temp-password"), help: "Set and print a temporary password (expire_password_with_temp_password).")
    var tempPassword = false

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await UserLifecycle(user: target.user, operation: .expirePassword, tempPassword: tempPassword).run(context)
        }
    }
}

struct UserResetPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-password",
        abstract: "Start a password reset (RECOVERY) and print the one-time reset link, or let the org e-mail it.",
        discussion: """
            The link ("resetPasswordUrl", a secret) is redeemed by `set-password --activation-url-stdin`.

            \(GlobalOptions.helpNote)
            """)

    @OptionGroup var target: UserArgument

    @Flag(name: .customLong("send-email"), help: "Let the org e-mail the reset link instead of printing it.")
    var sendEmail = false

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await UserLifecycle(user: target.user, operation: .resetPassword, sendEmail: sendEmail).run(context)
        }
    }
}
