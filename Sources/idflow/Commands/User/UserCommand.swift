import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract:
            "Read a user; unlock, suspend, expire, reset a password.",
        discussion: """
            Management calls with the API token (OKTA_CLIENT_TOKEN), POST /api/v1/users/{id}/lifecycle/…; the user \
            is named by id (00u...) or login. Each prints {"userId", "login", "status"} as read back after the call \
            (`get` prints the whole user object), plus "tempPassword" or "resetPasswordUrl" when the org returns one.

              $ idflow user get jo@example.com | jq -r .status
              $ idflow user unlock jo@example.com
              $ idflow user reset-password jo@example.com | jq -r .resetPasswordUrl \\
                  | idflow set-password --activation-url-stdin --password-file new.txt

            A call the user's status does not allow exits 3 with the status in the hint (unlock of a user who is \
            not locked out: E0000032); an unknown user exits 5.
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
    static let abstract = "Print the user object: status, statusChanged, lastLogin, passwordChanged, profile."
}

enum UnlockOperation: UserOperation {
    static let operation = UserLifecycle.Operation.unlock
    static let abstract = "Unlock a LOCKED_OUT user (ACTIVE again); the user signs in with the same password."
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
            With --temp-password the org sets a temporary password and returns it as "tempPassword" (a secret: \
            hand it over safely); the user signs in with it and chooses a new one.

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
            The link ("resetPasswordUrl", a secret) is redeemed with `idflow set-password --activation-url-stdin`, \
            which sets the new password (ACTIVE again).

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
