import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation

struct LoginPKCECommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login-pkce",
        abstract: "Log in (authorization code + PKCE); save the tokens.",
        discussion: """
            Gets the authorization code one way: --session-token (Okta, headless), --username (Okta primary \
            authentication), --browser (a loopback redirect), --manual (paste the redirect URL back) or --embedded \
            (the Identity Engine's forms, answered with --answer). The ID token is validated before anything is \
            printed or stored (exit 13 when it fails). More in docs/logging-in.md, docs/embedded-sign-in.md \
            and docs/account-recovery.md.

              $ idflow login-pkce --browser
              $ printf '%s' "$PW" \\
                  | idflow login-pkce --username jo@example.com --password-stdin

            \(GlobalOptions.helpNote)
            """)

    @OptionGroup var method: LoginMethodOptions

    @Flag(help: "Answer the Identity Engine's sign-in forms (--answer).")
    var embedded = false

    @OptionGroup var answers: AnswerOptions

    @Flag(help: "With --embedded: reset a forgotten password.")
    var recover = false

    @Flag(help: "With --embedded: unlock a locked-out account, sign in.")
    var unlock = false

    @OptionGroup var newPassword: NewPasswordOptions

    @Flag(help: "With --embedded: enroll or sign in with a passkey.")
    var passkey = false

    @OptionGroup var passkeyOptions: PasskeyOptions

    @Option(
        help: ArgumentHelp(
            "With --username: answer MFA this way.", valueName: "factor"))
    var mfa: MFAFactor?

    @Option(
        name: .customLong("mfa-timeout"),
        help: ArgumentHelp(
            "Seconds a push may take (exit 9 after).", valueName: "seconds"))
    var mfaTimeout: Int = 300

    @Flag(name: .customLong("no-store"), help: "Print the tokens without saving them.")
    var noStore = false

    @OptionGroup var deviceSSO: DeviceSSOOption
    @OptionGroup var clientSecret: ClientSecretOption

    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        // With --embedded, --username answers the identifier.
        let methods = method.given.filter { !(embedded && $0 == "--username") }
        guard methods.count + (embedded ? 1 : 0) == 1 else {
            throw ValidationError("choose exactly one of --session-token[-stdin], --username, --browser, --manual or --embedded")
        }
        if !embedded && (answers.given || recover || unlock) {
            throw ValidationError("--answer, --remediation, --resume, --recover and --unlock are used with --embedded")
        }
        if !embedded && (passkey || passkeyOptions.given) {
            throw ValidationError("--passkey, --passkey-pin-file, --attestation and --aaguid are used with --embedded")
        }
        if recover && unlock { throw ValidationError("choose --recover (forgotten password) or --unlock (locked account), not both") }
        if recover && method.passwordOptions.given {
            throw ValidationError(
                "--recover replaces a forgotten password: give the new one with --new-password-stdin or --new-password-file")
        }
        let readers =
            [method.passwordOptions.passwordStdin, newPassword.newPasswordStdin, method.sessionTokenStdin]
            + answers.answers.map { $0.hasSuffix("=@-") }
        if readers.filter({ $0 }).count > 1 {
            throw ValidationError(
                "only one secret can come from standard input; read the others from files (--new-password-file, name=@FILE)")
        }
        try method.validateCombinations(embedded: embedded)
        if mfa != nil && method.username == nil { throw ValidationError("--mfa works with --username (Okta primary authentication)") }
        guard mfaTimeout > 0 else { throw ValidationError("--mfa-timeout must be positive") }
    }

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await deviceSSO.run(context, tokens: \.tokens) { context throws(IdFlowError) in try await signIn(context) }
        }
    }

    /// The sign-in the options ask for, in the context `--device-sso` gives it.
    private func signIn(_ context: IdFlowContext) async throws(IdFlowError) -> SignInOutput {
        if embedded {
            var login = try answers.login(
                context, clientSecret: clientSecret, store: !noStore, signUp: false, pollTimeout: .seconds(mfaTimeout))
            login.recover = recover
            login.unlock = unlock
            login.newPassword = try newPassword.read(context)
            login.passkey = passkey
            login.passkeySettings = passkeyOptions.settings
            if let username = method.username { try login.answers.add("identifier", username, flag: "--username") }
            if method.passwordOptions.given {
                let password = try method.passwordOptions.read(context)
                // After --unlock the password signs in; before, the unlock's code is asked, which it must not answer.
                if unlock {
                    login.passwordAfterUnlock = password
                } else {
                    try login.answers.add("credentials.passcode", password.value, flag: "--password")
                }
            }
            return try await login.run(context)
        }
        if newPassword.given && method.username == nil {
            context.notice(
                "warning: --new-password-* is used with --username and --embedded only; with --browser or --manual the sign-in page asks for a new password"
            )
        }
        let resolver = mfa.map { _ in PushMFA(context: context, timeout: .seconds(mfaTimeout)) }
        return try await LoginPKCE(
            method: try method.chosen(context), clientSecret: try clientSecret.secret(context), store: !noStore, mfa: resolver,
            newPassword: try newPassword.read(context)
        ).run(context)
    }
}

/// The second factors `login-pkce --mfa` can wait for.
enum MFAFactor: String, CaseIterable, ExpressibleByArgument {
    case push
}
