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
            UserGetCommand.self, UserUnlockCommand.self, UserSuspendCommand.self, UserUnsuspendCommand.self,
            UserExpirePasswordCommand.self, UserResetPasswordCommand.self,
        ])
}

/// The user a lifecycle subcommand acts on.
struct UserArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The user's id (00u...) or login.", valueName: "user"))
    var user: String
}

/// What the four lifecycle subcommands without options of their own share: the configuration made from the
/// operation, and the run.
///
/// Four small types rather than one generic command over its operation: instantiating a generic type checks its
/// requirements against every protocol conformance in the binary, about 0.1 ms each, and ArgumentParser builds the
/// whole command tree before it parses any command line, so every idflow command paid for all four at start-up.
enum UserLifecycleCommand {
    static func configuration(_ operation: UserLifecycle.Operation, abstract: String) -> CommandConfiguration {
        CommandConfiguration(commandName: operation.rawValue, abstract: abstract, discussion: GlobalOptions.helpNote)
    }

    static func run(_ operation: UserLifecycle.Operation, _ target: UserArgument, _ global: GlobalOptions) async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await UserLifecycle(user: target.user, operation: operation).run(context)
        }
    }
}

struct UserGetCommand: AsyncParsableCommand {
    static let configuration = UserLifecycleCommand.configuration(.show, abstract: "Print the user object.")
    @OptionGroup var target: UserArgument
    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions
    func run() async throws { try await UserLifecycleCommand.run(.show, target, global) }
}

struct UserUnlockCommand: AsyncParsableCommand {
    static let configuration = UserLifecycleCommand.configuration(
        .unlock, abstract: "Unlock a LOCKED_OUT user (ACTIVE again, same password).")
    @OptionGroup var target: UserArgument
    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions
    func run() async throws { try await UserLifecycleCommand.run(.unlock, target, global) }
}

struct UserSuspendCommand: AsyncParsableCommand {
    static let configuration = UserLifecycleCommand.configuration(
        .suspend, abstract: "Suspend an ACTIVE user: sign-in is refused until unsuspend.")
    @OptionGroup var target: UserArgument
    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions
    func run() async throws { try await UserLifecycleCommand.run(.suspend, target, global) }
}

struct UserUnsuspendCommand: AsyncParsableCommand {
    static let configuration = UserLifecycleCommand.configuration(.unsuspend, abstract: "Lift a suspension (ACTIVE again).")
    @OptionGroup var target: UserArgument
    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions
    func run() async throws { try await UserLifecycleCommand.run(.unsuspend, target, global) }
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
