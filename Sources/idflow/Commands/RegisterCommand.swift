import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation

struct RegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract:
            "Create a user with no password (STAGED), many from a file (--batch), register one through a custom identity provider (--idp), or sign up through the Identity Engine (--embedded).",
        discussion: """
            With --email: sends POST /api/v1/users?activate=false with the profile and prints the user object as the \
            server returns it. Needs the org URL and a management API token.

              $ uid=$(idflow register --email jo@example.com --first-name Jo \\
                  --last-name Doe | jq -r .id)

            A login that already exists gives the server's E0000001 error with its cause (exit 3).

            With --idp: custom registration at the Token Server (POST /oauth/custom-registration/{idp}/init and \
            /complete, HTTP Basic with --client-id and the client secret). --init-data makes it two-step. The \
            complete step issues the tokens, which are validated like login-pkce's and saved for the profile; \
            prints {"status","identityProvider","data","tokens"}.

              $ idflow register --idp invite-code --data-stdin \\
                  --client-secret-file secret <<<"$INVITE" | jq -r .tokens.access_token

            A recoverable status (4000-4999) exits 10 with {"status","step","transactionId","data","identityProvider"} \
            on stdout; continue with --transaction-id and other --data. At a terminal idflow asks again instead. \
            An unrecoverable status (5000-5999, or any other) exits 11 and the transaction is dropped.

            With --batch, one user per input line, NDJSON results in input order, a summary on stderr:

              $ idflow register --batch users.ndjson --activate --concurrency 8 \\
                  > results.ndjson

            With --embedded: self-service sign-up through the Okta Identity Engine (select-enroll-profile, \
            enroll-profile, then the authenticators the policy enrolls: the password, an e-mailed code), answered \
            with --answer, at prompts, or stopped and resumed (--resume) as login-pkce --embedded is; the new \
            user is signed in and the output is login-pkce's (--no-store: nothing saved). A policy without \
            sign-up exits 3.

              $ idflow register --embedded --answer userProfile.email=new@example.com \\
                  --answer userProfile.firstName=New --answer userProfile.lastName=User \\
                  --answer credentials.passcode=@- <<<"$PW"

            \(GlobalOptions.helpNote)
            """)

    @OptionGroup var profile: ProfileOptions

    @OptionGroup var customRegistration: CustomRegistrationOptions

    @Flag(help: "Sign up through the Okta Identity Engine's forms (interaction code flow), answered with --answer.")
    var embedded = false

    @OptionGroup var answers: AnswerOptions

    @Flag(name: .customLong("no-store"), help: "With --embedded: print the new user's tokens without saving them.")
    var noStore = false

    @OptionGroup var clientSecret: ClientSecretOption

    @OptionGroup(title: "Batch Options") var batch: BatchOptions

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        if embedded {
            try validateEmbedded()
            return
        }
        if answers.given { throw ValidationError("--answer, --resume and --remediation work with --embedded only") }
        if noStore { throw ValidationError("--no-store works with --embedded only") }
        guard let identityProvider = customRegistration.identityProvider else {
            if let used = customRegistration.given.first { throw ValidationError("\(used) needs --idp") }
            try validateDirectory()
            return
        }
        if batch.file != nil { throw ValidationError("--batch cannot be used with --idp") }
        if let used = profile.given.first {
            throw ValidationError("\(used) cannot be used with --idp: the identity provider's script creates the user")
        }
        try customRegistration.validate(for: identityProvider)
    }

    /// The sign-up form: the profile and password come as --answer, so no other form's options apply.
    private func validateEmbedded() throws {
        let others =
            profile.given + (customRegistration.identityProvider != nil ? ["--idp"] : []) + (batch.file != nil ? ["--batch"] : [])
            + customRegistration.given
        if let used = others.first {
            throw ValidationError(
                "\(used) cannot be used with --embedded: give the profile and password as --answer userProfile.email=..., "
                    + "--answer credentials.passcode=@-")
        }
        if let flag = batch.givenWithoutBatch.first { throw ValidationError("\(flag) works with --batch only") }
    }

    /// The Users API forms: one user from the flags, or many from `--batch`.
    private func validateDirectory() throws {
        if batch.file != nil {
            guard profile.given.isEmpty else {
                throw ValidationError(
                    "--batch reads every user from its input: leave out --email, --first-name, --last-name, --login and --attr")
            }
        } else if let flag = batch.givenWithoutBatch.first {
            throw ValidationError("\(flag) works with --batch only")
        } else if profile.email == nil {
            throw ValidationError(
                "give --email for one user, --batch FILE for many, --idp IDP for custom registration, or --embedded to sign up")
        }
    }

    func run() async throws {
        if embedded {
            try await CommandRunner.run(global) { context throws(IdFlowError) in
                try await answers.login(context, clientSecret: clientSecret, store: !noStore, signUp: true).run(context)
            }
        } else if let identityProvider = customRegistration.identityProvider {
            try await customRegistration.run(identityProvider, clientSecret: clientSecret, global)
        } else if batch.file != nil {
            try await CommandRunner.environment.withInterruption { interruption in
                try await CommandRunner.stream(global) { context, emit throws(IdFlowError) in
                    try await batch.flow(interruption: interruption).run(context, emit: emit).failure
                }
            }
        } else {
            try await CommandRunner.run(global) { context throws(IdFlowError) in try await profile.registration().run(context) }
        }
    }
}
