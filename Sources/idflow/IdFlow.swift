import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation

@main
struct IdFlow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "idflow",
        abstract: "Drive every step of a user's identity life cycle against Okta.",
        discussion: """
            Every command prints one JSON document on stdout (NDJSON lines with register --batch) and human messages \
            on stderr; on failure the last line of stderr is one JSON error line. The exit code says what happened:

               0  success
               1  internal failure (a bug)
               3  the server rejected the request (validation, conflict, policy)
               4  authentication or authorization failed (401/403, invalid_grant, 407)
               5  not found (user, enrollment, challenge, transaction)
               6  network or TLS failure, or a timeout (untrusted issuer: --ca-file)
               7  server error (5xx), or still rate-limited (429) after the retries
               8  the user or a policy said no (push denied, device code denied)
               9  gave up waiting (browser redirect, MFA, push challenge, device code)
              10  custom registration: recoverable status (4000-4999); retry the step
              11  custom registration: unrecoverable status (5000-5999); start again
              12  local state problem (nothing stored, store unreadable, lock not obtained)
              13  security check failed (remote plain http, state, ID token, open key file)
              64  usage error (bad flags, missing configuration)
             130  interrupted (Ctrl-C, SIGTERM) waiting or at a prompt; nothing half-stored

            Start offline with `idflow sandbox`. `man idflow` describes the configuration, \
            environment and files; `COMMAND --help-hidden` lists the configuration options.
            """,
        version: IdFlowVersion.string,
        subcommands: [
            RegisterCommand.self, ActivateCommand.self, SetPasswordCommand.self, PasswordCommand.self, UserCommand.self,
            LoginPKCECommand.self,
            LoginDirectCommand.self, LoginDeviceCommand.self, LoginClientCommand.self, LoginSSOCommand.self, WebSSOCommand.self,
            LoginJWTBearerCommand.self, RefreshCommand.self, ApiCommand.self,
            TokenCommand.self, UserinfoCommand.self,
            LogoutCommand.self,
            EnrollCommand.self, ChallengesCommand.self, ResolveCommand.self, TOTPCommand.self, PasskeyCommand.self,
            SandboxCommand.self, DemoCommand.self,
            DoctorCommand.self, CompletionCommand.self,
        ]
    )

    /// The entry point: the configuration flags may stand before the subcommand (`idflow -v register …`).
    /// Synchronous, so that help, the version and usage errors end before the concurrency runtime starts; a
    /// command that runs gets it, and exits from its task.
    static func main() {
        ProcessHardening.disableCoreDumps()
        // A write past the file-size limit (`ulimit -f`) fails with EFBIG, which idflow reports (and the token store
        // survives: TokenStore), instead of SIGXFSZ ending the process between a grant and the save of its tokens.
        signal(SIGXFSZ, SIG_IGN)
        switch invocation(Array(CommandLine.arguments.dropFirst())) {
        case .finished(let code):
            Foundation.exit(code)
        case .run(let parsed, let arguments):
            // Handed whole to the task; nothing here touches it again.
            nonisolated(unsafe) let command = parsed
            Task { Foundation.exit(await run(command, arguments: arguments)) }
            dispatchMain()
        }
    }
}
