import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation

struct LoginPKCECommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login-pkce",
        abstract: "Log in with OAuth 2.0 authorization code + PKCE (S256) and save the tokens for the profile.",
        discussion: """
            Choose one way to get the authorization code:

              --session-token      Okta: redeem a session token (from set-password) headlessly, prompt=none
              --username           Okta: primary authentication (/api/v1/authn), then the session token
              --browser            open a browser, catch the redirect on http://127.0.0.1:PORT/callback (RFC 8252)
              --manual             print the URL, paste the redirect URL (or the code) back on stdin
              --embedded           Okta Identity Engine: answer the sign-in's forms with --answer, no browser

            Endpoints come from {issuer}/.well-known/openid-configuration; --browser and --manual work with any \
            OpenID Connect provider. The ID token is validated (signature against the JWKS, iss, aud, exp/iat, \
            nonce, at_hash) before anything is printed or stored; a failure exits 13. With --mfa push, a sign-in \
            that needs MFA sends a push and waits for it (denied: exit 8; nobody answered: exit 9).

            With --embedded, each --answer fills one field of the forms the Identity Engine asks for, by its \
            path (identifier, credentials.passcode, authenticator=okta_email); name=@FILE reads the value from a \
            file, name=@- from standard input. At a terminal, what was not answered is asked for (secrets without \
            echo, choices by number) and a refused answer is asked again; Ctrl-C cancels the sign-in on the \
            server and exits 130. In a script, when a form needs an answer that was not given (an e-mailed code), \
            whatever the server must do first is done (the code is sent), the form is printed on stdout as \
            {"transaction", "remediation", "fields", "messages"} and the run exits 3; --resume with that \
            transaction and the missing answers continues it (kept 0600 under {state-dir}/idx/ until it \
            succeeds, fails or expires); --remediation resend asks for another code. An Okta Verify push is \
            waited for at the server's pace up to --mfa-timeout (approve it with `idflow resolve`; denied: exit \
            8, no answer: exit 9). Refused credentials exit 4, an expired sign-in too.

              $ idflow login-pkce --session-token-stdin <<<"$st" \\
                  | jq -r .access_token
              $ printf '%s' "$PW" \\
                  | idflow login-pkce --username jo@example.com --password-stdin
              $ printf '%s' "$PW" \\
                  | idflow login-pkce --username jo@example.com --password-stdin \\
                      --mfa push
              $ idflow login-pkce --browser
              $ idflow login-pkce --embedded --answer identifier=jo@example.com \\
                  --answer credentials.passcode=@- <<<"$PW"
              $ idflow login-pkce --embedded --resume "$TX" \\
                  --answer credentials.passcode=@- <<<"$CODE"

            Account recovery: a password that has expired is replaced during the login (--username: Authn's \
            PASSWORD_EXPIRED, the old password sent again; --embedded: reenroll-authenticator), from \
            --new-password-stdin, --new-password-file or IDFLOW_NEW_PASSWORD, or typed twice at a terminal; in a \
            script without one the run exits 3 saying which option to add (--embedded keeps the transaction for \
            --resume). The new password is checked against the rules the server publishes before it is sent. A \
            password about to expire only warns, on stderr and as "password_warning" in the output, unless a new \
            one is given; "password_changed" is true when the login changed it. --embedded --recover resets a \
            forgotten password (verify with an e-mailed or texted code, then the new password); --embedded \
            --unlock unlocks a locked-out account the same way and then signs in with --password-*. A refused \
            sign-in of a locked-out, suspended or deactivated account says so when an API token is configured \
            (Okta answers them like a wrong password); `idflow user` has the admin's side.

              $ idflow login-pkce --username jo@example.com --password-file old.txt \\
                  --new-password-file new.txt
              $ idflow login-pkce --embedded --recover --username jo@example.com \\
                  --answer authenticator=okta_email
              $ idflow login-pkce --embedded --resume "$TX" \\
                  --answer credentials.passcode=@- \\
                  --new-password-file new.txt <<<"$CODE"

            \(GlobalOptions.helpNote)
            """)

    @OptionGroup var method: LoginMethodOptions

    @Flag(help: "Sign in through the Okta Identity Engine's forms (interaction code flow), answered with --answer.")
    var embedded = false

    @OptionGroup var answers: AnswerOptions

    @Flag(help: "With --embedded: reset a forgotten password (the password's recover), verifying with an e-mailed or texted code.")
    var recover = false

    @Flag(help: "With --embedded: unlock a locked-out account (unlock-account), verifying with an e-mailed or texted code, then sign in.")
    var unlock = false

    @OptionGroup var newPassword: NewPasswordOptions

    @Option(
        help: ArgumentHelp(
            "With --username: answer an MFA_REQUIRED sign-in with this factor, waiting for it (progress on stderr).", valueName: "factor"))
    var mfa: MFAFactor?

    @Option(
        name: .customLong("mfa-timeout"),
        help: ArgumentHelp(
            "Seconds to wait for a push (--mfa push, or Okta Verify in --embedded) to be answered (exit 9 after).", valueName: "seconds"))
    var mfaTimeout: Int = 300

    @Flag(name: .customLong("no-store"), help: "Print the tokens without saving them.")
    var noStore = false

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
            if embedded {
                var login = try answers.login(
                    context, clientSecret: clientSecret, store: !noStore, signUp: false, pollTimeout: .seconds(mfaTimeout))
                login.recover = recover
                login.unlock = unlock
                login.newPassword = try newPassword.read(context)
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
}

/// The second factors `login-pkce --mfa` can wait for.
enum MFAFactor: String, CaseIterable, ExpressibleByArgument {
    case push
}
