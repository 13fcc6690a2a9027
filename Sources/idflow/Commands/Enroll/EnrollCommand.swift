import ArgumentParser
import IdFlowCore
import IdFlowFoundation

struct EnrollCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enroll",
        abstract: "Make this machine a push authenticator; manage it.",
        discussion: """
            Device keys (EC P-256) are kept under {state-dir}/devices/<org>/, 0600 files in 0700 folders; the \
            user-verification key is sealed under a PIN (scrypt + AES-GCM).

              $ idflow enroll --name ci-runner-7 --user-verification \\
                  --pin-stdin <<<"$PIN" | jq -r .enrollmentId
              $ idflow enroll list --check
            """,
        subcommands: [EnrollCreateCommand.self, EnrollListCommand.self, EnrollUpdateCommand.self, EnrollDeleteCommand.self],
        defaultSubcommand: EnrollCreateCommand.self)
}
