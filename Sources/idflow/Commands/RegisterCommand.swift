import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation

struct RegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract:
            "Create users (STAGED); sign up via --idp, --embedded.",
        discussion: """
            With --email: creates a STAGED user (POST /api/v1/users?activate=false) and prints it; needs the org URL \
            and an API token. With --batch: one user per input line, NDJSON results in input order. With --idp: \
            custom registration at the Token Server. With --embedded: self-service sign-up through the Identity \
            Engine. docs/registration.md and docs/bulk-provisioning.md in idflow's source tree tell more.

              $ uid=$(idflow register --email jo@example.com --first-name Jo \\
                  --last-name Doe | jq -r .id)

            \(GlobalOptions.helpNote)
            """)

    @OptionGroup var profile: ProfileOptions

    @OptionGroup var customRegistration: CustomRegistrationOptions

    @Flag(help: "Sign up via the Identity Engine's forms (--answer).")
    var embedded = false

    @OptionGroup var answers: AnswerOptions

    @Flag(help: "With --embedded: enroll a passkey.")
    var passkey = false

    @OptionGroup var passkeyOptions: PasskeyOptions

    @Flag(name: .customLong("no-store"), help: "With --embedded: print the tokens, save nothing.")
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
        if passkey || passkeyOptions.given {
            throw ValidationError("--passkey, --passkey-pin-file, --attestation and --aaguid work with --embedded only")
        }
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
                var login = try answers.login(context, clientSecret: clientSecret, store: !noStore, signUp: true)
                login.passkey = passkey
                login.passkeySettings = passkeyOptions.settings
                return try await login.run(context)
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
