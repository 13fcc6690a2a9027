import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation
import Testing

@testable import idflow

/// Every documented way of calling each command parses into that command, and every combination the help
/// rules out fails as a usage error (exit 64) with a message that says what to change.
@Suite struct ParsingTests {
    static let valid: [(arguments: [String], command: any ParsableCommand.Type)] = [
        (["register", "--email", "jo@example.com"], RegisterCommand.self),
        (
            ["register", "--email", "jo@example.com", "--first-name", "Jo", "--last-name", "Doe", "--login", "jo@example.com"],
            RegisterCommand.self
        ),
        (["register", "--email", "jo@example.com", "--attr", "mobilePhone=+1-555-0100", "--attr", "title=ops"], RegisterCommand.self),
        (["register", "--idp", "invite-code", "--data", "K7Q2"], RegisterCommand.self),
        (["register", "--idp", "invite-code", "--data", "@code.txt", "--client-secret-file", "s.txt"], RegisterCommand.self),
        (["register", "--idp", "sms-otp", "--init-data", "{\"phone\":\"+31600000000\"}", "--data-stdin"], RegisterCommand.self),
        (["register", "--idp", "sms-otp", "--transaction-id", "tx1", "--data", "-"], RegisterCommand.self),
        (["register", "--idp", "sms-otp", "--transaction-id", "tx1", "--cancel"], RegisterCommand.self),
        (["register", "--idp", "sms-otp", "--token-server", "https://ts.example.com"], RegisterCommand.self),
        (["register", "--batch", "users.ndjson"], RegisterCommand.self),
        (
            [
                "register", "--embedded", "--answer", "userProfile.email=new@example.com", "--answer", "userProfile.firstName=New",
                "--answer", "userProfile.lastName=User", "--answer", "credentials.passcode=@-",
            ], RegisterCommand.self
        ),
        (["register", "--batch", "-", "--format", "csv", "--concurrency", "8", "--activate", "--skip-existing"], RegisterCommand.self),
        (["--quiet", "register", "--batch", "users.ndjson", "--summary-json"], RegisterCommand.self),
        (["register", "--embedded", "--resume", "tx1", "--answer", "credentials.passcode=123456", "--no-store"], RegisterCommand.self),
        (["register", "--embedded", "--resume", "tx1", "--remediation", "resend"], RegisterCommand.self),
        (["activate", "--user", "00u1"], ActivateCommand.self),
        (["activate", "--user", "jo@example.com", "--send-email"], ActivateCommand.self),
        (["activate", "--user", "00u1", "--reactivate"], ActivateCommand.self),
        (["set-password", "--activation-token", "t", "--password-stdin"], SetPasswordCommand.self),
        (["set-password", "--activation-token-file", "t.txt", "--password-file", "p.txt"], SetPasswordCommand.self),
        (["set-password", "--activation-url", "https://o.example.com/welcome/t", "--password", "p"], SetPasswordCommand.self),
        (["set-password", "--activation-url-file", "link.txt", "--password-stdin"], SetPasswordCommand.self),
        (["set-password", "--activation-url-stdin", "--password-file", "p.txt"], SetPasswordCommand.self),
        (["set-password"], SetPasswordCommand.self),  // token and password from IDFLOW_ACTIVATION_TOKEN / IDFLOW_PASSWORD
        (["login-pkce", "--session-token", "s"], LoginPKCECommand.self),
        (["login-pkce", "--session-token-stdin", "--no-store"], LoginPKCECommand.self),
        (["login-pkce", "--username", "jo@example.com", "--password-stdin"], LoginPKCECommand.self),
        (
            ["login-pkce", "--username", "jo@example.com", "--password-file", "p.txt", "--client-secret-file", "s.txt"],
            LoginPKCECommand.self
        ),
        (["login-pkce", "--username", "jo@example.com"], LoginPKCECommand.self),  // password from IDFLOW_PASSWORD
        (["login-pkce", "--browser"], LoginPKCECommand.self),
        (["login-pkce", "--browser", "--port", "8765", "--browser-timeout", "60"], LoginPKCECommand.self),
        (["login-pkce", "--manual"], LoginPKCECommand.self),
        (["login-pkce", "--embedded"], LoginPKCECommand.self),
        (["login-pkce", "--embedded", "--recover", "--username", "jo@example.com"], LoginPKCECommand.self),
        (["login-pkce", "--embedded", "--unlock", "--username", "jo@example.com", "--password-file", "pw"], LoginPKCECommand.self),
        (
            ["login-pkce", "--embedded", "--username", "jo@example.com", "--password-stdin", "--new-password-file", "n"],
            LoginPKCECommand.self
        ),
        (["login-pkce", "--username", "jo@example.com", "--password-file", "pw", "--new-password-stdin"], LoginPKCECommand.self),
        (["user", "get", "jo@example.com"], UserGetCommand.self),
        (["user", "unlock", "00u1"], UserUnlockCommand.self),
        (["user", "expire-password", "jo@example.com", "--temp-password"], UserExpirePasswordCommand.self),
        (["user", "reset-password", "jo@example.com", "--send-email"], UserResetPasswordCommand.self),
        (
            ["login-pkce", "--embedded", "--answer", "identifier=jo@example.com", "--answer", "credentials.passcode=@-"],
            LoginPKCECommand.self
        ),
        (["login-pkce", "--embedded", "--remediation", "identify", "--answer", "identifier=jo@example.com"], LoginPKCECommand.self),
        (["login-pkce", "--embedded", "--resume", "tx1", "--answer", "credentials.passcode=123456"], LoginPKCECommand.self),
        (["login-pkce", "--embedded", "--answer", "identifier=jo@example.com", "--mfa-timeout", "60"], LoginPKCECommand.self),
        (["login-direct", "--username", "jo@example.com", "--otp-stdin"], LoginDirectCommand.self),
        (["login-direct", "--username", "jo@example.com", "--totp-secret-file", "seed", "--acr-values", "phr"], LoginDirectCommand.self),
        (["login-direct", "--username", "jo@example.com", "--oob", "push", "--dpop", "--scope", "openid"], LoginDirectCommand.self),
        (["login-direct", "--username", "jo@example.com", "--oob", "sms", "--binding-code-stdin"], LoginDirectCommand.self),
        (["login-direct", "--username", "jo@example.com", "--password-stdin", "--mfa", "push"], LoginDirectCommand.self),
        (
            ["login-direct", "--username", "jo", "--password-file", "pw", "--mfa", "otp", "--otp-stdin", "--no-store"],
            LoginDirectCommand.self
        ),
        (["login-direct", "--username", "jo", "--password-file", "pw", "--mfa", "voice", "--binding-code-stdin"], LoginDirectCommand.self),
        (["login-device"], LoginDeviceCommand.self),
        (["login-device", "--open", "--device-timeout", "120"], LoginDeviceCommand.self),
        (["login-device", "--no-store", "--client-secret-file", "s.txt", "--scope", "openid"], LoginDeviceCommand.self),
        (["refresh"], RefreshCommand.self),
        (["refresh", "--refresh-token-stdin", "--no-store"], RefreshCommand.self),
        (["refresh", "--client-secret-file", "s.txt", "--scope", "openid"], RefreshCommand.self),
        (["token", "inspect"], TokenInspectCommand.self),
        (["token", "inspect", "-", "--type", "id"], TokenInspectCommand.self),
        (["token", "inspect", "eyJ.x.y"], TokenInspectCommand.self),
        (["token", "verify", "--type", "id", "--audience", "0oa1"], TokenVerifyCommand.self),
        (["token", "introspect", "--type", "refresh"], TokenIntrospectCommand.self),
        (["token", "introspect", "-", "--type", "access_token", "--client-secret-file", "s.txt"], TokenIntrospectCommand.self),
        (["token", "revoke"], TokenRevokeCommand.self),
        (["token", "revoke", "-", "--type", "access"], TokenRevokeCommand.self),
        (["userinfo"], UserinfoCommand.self),
        (["userinfo", "--access-token-stdin"], UserinfoCommand.self),
        (["logout"], LogoutCommand.self),
        (["logout", "--client-secret-file", "s.txt"], LogoutCommand.self),
        (["login-pkce", "--username", "jo@example.com", "--password-stdin", "--mfa", "push"], LoginPKCECommand.self),
        (["login-pkce", "--username", "jo@example.com", "--mfa", "push", "--mfa-timeout", "60"], LoginPKCECommand.self),
        (["enroll"], EnrollCreateCommand.self),
        (["enroll", "--name", "ci-runner-7", "--user-verification", "--pin-stdin"], EnrollCreateCommand.self),
        (
            ["enroll", "--access-token-stdin", "--push-token", "ab12ef", "--user-verification", "--pin-file", "pin.txt"],
            EnrollCreateCommand.self
        ),
        (["enroll", "create", "--name", "ci"], EnrollCreateCommand.self),
        (["enroll", "list"], EnrollListCommand.self),
        (["enroll", "list", "--check"], EnrollListCommand.self),
        (["enroll", "update", "pfd1", "--user-verification", "off"], EnrollUpdateCommand.self),
        (["enroll", "update", "pfd1", "--user-verification", "on", "--pin-stdin"], EnrollUpdateCommand.self),
        (["enroll", "update", "pfd1", "--push-token", "00ff", "--access-token-stdin"], EnrollUpdateCommand.self),
        (["enroll", "delete", "pfd1"], EnrollDeleteCommand.self),
        (["enroll", "delete", "pfd1", "--local-only"], EnrollDeleteCommand.self),
        (["challenges"], ChallengesCommand.self),
        (["challenges", "--enrollment", "pfd1", "--wait", "60"], ChallengesCommand.self),
        (["resolve", "--next", "--approve"], ResolveCommand.self),
        (["resolve", "--transaction-id", "tx1", "--deny"], ResolveCommand.self),
        (["resolve", "--next", "--approve", "--user-verification", "--pin-stdin"], ResolveCommand.self),
        (["resolve", "--transaction-id", "tx1", "--approve", "--pin-file", "pin.txt", "--enrollment", "pfd1"], ResolveCommand.self),
        (["sandbox"], SandboxCommand.self),
        (["sandbox", "--env"], SandboxCommand.self),
        (["sandbox", "--host", "127.0.0.1", "--port", "8080", "--api-token", "t", "--config", "c.json"], SandboxCommand.self),
        (["demo"], DemoCommand.self),
        (["api", "https://api.example.com/v1/me"], ApiCommand.self),
        (
            [
                "api", "-X", "PUT", "-H", "X-Request-Id: 1", "-H", "Content-Type: text/plain", "--data", "@body.txt", "--include", "--raw",
                "--no-refresh", "https://api.example.com/v1/x",
            ], ApiCommand.self
        ),
        (["api", "--method", "post", "--header", "A: b", "--data", "@-", "-i", "https://api.example.com/v1/x"], ApiCommand.self),
        (["token", "get"], TokenGetCommand.self),
        (["token", "get", "--min-ttl", "300", "--output", "exec-credential", "--token-type", "access"], TokenGetCommand.self),
        (["token", "get", "--output", "json", "--token-type", "id"], TokenGetCommand.self),
        (["demo", "--verbose"], DemoCommand.self),
        // Every configuration flag, on a command that takes no others.
        (
            [
                "logout", "--org-url", "https://o.example.com", "--api-token-file", "a.txt", "--issuer",
                "https://o.example.com/oauth2/default",
                "--client-id", "0oa1", "--redirect-uri", "com.example:/cb", "--scope", "openid", "--profile", "p", "--state-dir", "/tmp/s",
                "-v", "--timeout", "5", "--max-retries", "0", "--pretty",
            ], LogoutCommand.self
        ),
    ]

    @Test(arguments: valid.indices)
    func documentedCallsParse(index: Int) throws {
        let (arguments, expected) = Self.valid[index]
        let command = try CLI.parse(arguments)
        #expect(type(of: command) == expected, "\(arguments) parsed as \(type(of: command))")
    }

    static let invalid: [(arguments: [String], message: String)] = [
        (
            ["login-direct", "--username", "jo"],
            "choose one way in: --otp-stdin, --totp-secret-file, --oob CHANNEL, or --password-stdin/--password-file"
        ),
        (
            ["login-direct", "--username", "jo", "--oob", "push", "--otp-stdin"],
            "choose one way in: --otp-stdin, --totp-secret-file, --oob CHANNEL, or --password-stdin/--password-file"
        ),
        (
            ["login-direct", "--username", "jo", "--oob", "email"],
            "The value 'email' is invalid for '--oob <channel>'. Please provide one of 'push', 'sms' or 'voice'."
        ),
        (
            ["login-direct", "--username", "jo", "--password-stdin", "--mfa", "email"],
            "The value 'email' is invalid for '--mfa <factor>'. Please provide one of 'otp', 'push', 'sms', 'voice' or 'webauthn'."
        ),
        (
            ["login-direct", "--username", "jo", "--otp-stdin", "--mfa", "push"],
            "--mfa follows a password (--password-stdin or --password-file)"
        ),
        (
            ["login-direct", "--resume", "abc", "--username", "jo", "--binding-code-stdin"],
            "--resume continues a kept sign-in: give only the code, with --binding-code-stdin"
        ),
        (["login-direct", "--oob", "push"], "--username is required (or --resume a stopped sign-in)"),
        (
            ["login-direct", "--username", "jo", "--oob", "push", "--binding-code-stdin"],
            "--binding-code-stdin goes with --oob sms|voice or --mfa sms|voice"
        ),
        (
            ["login-direct", "--username", "jo", "--password-stdin", "--mfa", "otp", "--otp-stdin"],
            "only one secret can come from standard input; read the password from a file (--password-file)"
        ),
        (
            ["login-direct", "--username", "jo", "--password-file", "p", "--otp-stdin"],
            "with a password, --otp-stdin and --totp-secret-file go with --mfa otp"
        ),
        (["login-direct", "--username", "jo", "--otp-stdin", "--password", "pw"], "Unknown option '--password'"),
        (["register"], "give --email for one user, --batch FILE for many, --idp IDP for custom registration, or --embedded to sign up"),
        (["register", "--data", "K7Q2"], "--data needs --idp"),
        (["register", "--embedded", "--email", "jo@example.com"], "--email cannot be used with --embedded"),
        (["register", "--embedded", "--idp", "x"], "--idp cannot be used with --embedded"),
        (["register", "--email", "jo@example.com", "--answer", "a=b"], "--answer, --resume and --remediation work with --embedded only"),
        (["register", "--email", "jo@example.com", "--no-store"], "--no-store works with --embedded only"),
        (["register", "--idp", "x", "--resume", "tx"], "--answer, --resume and --remediation work with --embedded only"),
        (["register", "--idp", "x", "--email", "jo@example.com"], "--email cannot be used with --idp"),
        (["register", "--idp", "x", "--data", "a", "--data-stdin"], "give --data or --data-stdin, not both"),
        (["register", "--idp", "x", "--init-data", "-", "--data-stdin"], "only one of --init-data and --data can come from stdin"),
        (["register", "--idp", "x", "--cancel"], "--cancel needs --transaction-id"),
        (["register", "--idp", "x", "--transaction-id", "t", "--init-data", "a"], "--init-data cannot be used with --transaction-id"),
        (["register", "--idp", "x", "--transaction-id", "t", "--cancel", "--data", "a"], "--cancel takes no data"),
        (["register", "--batch", "u.ndjson", "--email", "jo@example.com"], "--batch reads every user from its input"),
        (["register", "--email", "jo@example.com", "--activate"], "--activate works with --batch only"),
        (["register", "--batch", "u.ndjson", "--concurrency", "0"], "--concurrency must be between 1 and 64"),
        (["register", "--batch", "u.ndjson", "--format", "xml"], "--format"),
        (["register", "--idp", "x", "--batch", "u.ndjson"], "--batch cannot be used with --idp"),
        (["activate"], "Missing expected argument '--user <id-or-login>'"),
        (["login-pkce"], "choose exactly one of --session-token[-stdin], --username, --browser, --manual or --embedded"),
        (["login-pkce", "--embedded", "--browser"], "choose exactly one"),
        (
            ["login-pkce", "--browser", "--answer", "identifier=jo"],
            "--answer, --remediation, --resume, --recover and --unlock are used with --embedded"
        ),
        (
            ["login-pkce", "--manual", "--remediation", "identify"],
            "--answer, --remediation, --resume, --recover and --unlock are used with --embedded"
        ),
        (["login-pkce", "--browser", "--manual"], "choose exactly one"),
        (["login-pkce", "--session-token", "s", "--username", "u"], "choose exactly one"),
        (
            ["login-pkce", "--session-token", "s", "--session-token-stdin"],
            "--session-token and --session-token-stdin cannot be used together"
        ),
        (["login-pkce", "--browser", "--password-stdin"], "a password is only used with --username"),
        (["login-pkce", "--browser", "--recover"], "--recover and --unlock are used with --embedded"),
        (["login-pkce", "--embedded", "--recover", "--unlock"], "choose --recover (forgotten password) or --unlock"),
        (["login-pkce", "--embedded", "--recover", "--password-stdin"], "--recover replaces a forgotten password"),
        (["login-pkce", "--username", "u", "--password-stdin", "--new-password-stdin"], "only one secret can come from standard input"),
        (["login-pkce", "--browser", "--browser-timeout", "0"], "--browser-timeout must be positive"),
        (["login-device", "--device-timeout", "0"], "--device-timeout must be positive"),
        (["login-device", "--browser"], "Unknown option '--browser'"),
        (["login-pkce", "--browser", "--port", "70000"], "--port"),
        (["token", "inspect", "--type", "bearer"], "--type"),
        (["token", "frobnicate"], "Unknown command 'frobnicate'"),
        (["sandbox", "--port", "70000"], "--port must be between 0 and 65535"),
        (["register", "--email", "a@b.c", "--summary-json"], "--summary-json works with --batch only"),
        (["refresh", "--pretty", "--compact"], "--pretty and --compact cannot be used together"),
        (["register", "--email", "a@b.c", "--timeout", "soon"], "--timeout"),
        (["nonsense"], "Unknown command 'nonsense'"),
        (["login-pkce", "--browser", "--mfa", "push"], "--mfa works with --username"),
        (["login-pkce", "--username", "u", "--mfa", "sms"], "--mfa"),
        (["login-pkce", "--username", "u", "--mfa", "push", "--mfa-timeout", "0"], "--mfa-timeout must be positive"),
        (["enroll", "--push-token", "not-hex"], "--push-token must be hexadecimal"),
        (["enroll", "--access-token-stdin", "--user-verification", "--pin-stdin"], "cannot both read standard input"),
        (["enroll", "--pin-stdin"], "a PIN is only used with --user-verification"),
        (["enroll", "update", "pfd1"], "give --push-token and/or --user-verification on|off"),
        (["enroll", "update", "pfd1", "--user-verification", "maybe"], "--user-verification"),
        (["enroll", "update", "pfd1", "--user-verification", "off", "--pin-stdin"], "a PIN is only used with --user-verification on"),
        (["enroll", "delete"], "Missing expected argument '<enrollment-id>'"),
        (["enroll", "delete", "pfd1", "--local-only", "--access-token-stdin"], "--local-only sends nothing"),
        (["challenges", "--wait", "0"], "--wait must be positive"),
        (["resolve", "--approve"], "choose exactly one of --transaction-id or --next"),
        (["resolve", "--next", "--transaction-id", "tx", "--approve"], "choose exactly one of --transaction-id or --next"),
        (["resolve", "--next"], "choose exactly one of --approve or --deny"),
        (["resolve", "--next", "--approve", "--deny"], "choose exactly one of --approve or --deny"),
        (["resolve", "--next", "--deny", "--user-verification"], "--user-verification only applies to --approve"),
        (["api"], "Missing expected argument '<url>'"),
        (["token", "get", "--min-ttl=-5"], "--min-ttl must be a number of seconds, 0 or more"),
        (["token", "get", "--token-type", "refresh"], "--token-type must be id or access"),
        (["token", "get", "--output", "yaml"], "--output"),
        (["api", "-H", "Authorization: Bearer x", "https://api.example.com/"], "idflow sends the profile's own access token"),
        (["api", "https://api.example.com/", "--data", "not json"], "the --data body is not JSON"),
    ]

    @Test(arguments: invalid.indices)
    func ruledOutCallsAreUsageErrors(index: Int) async {
        let (arguments, message) = Self.invalid[index]
        let result = await CLI.run(arguments)
        #expect(result.exitCode == 64, "\(arguments) exited \(result.exitCode)")
        #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        let last = result.stderr.split(separator: "\n").last.flatMap { try? JSONValue(data: Data($0.utf8)) }
        #expect(last?["error"]?["exitCode"] == 64, "the last line of stderr is the error line: \(result.stderr)")
    }

    /// Usage errors found after parsing (a secret given two ways) also exit 64, with the contract's error line.
    /// The contract named the passkey sign-in of login-direct `--passkey` before the command chose `--webauthn`: both
    /// names mean it.
    @Test func loginDirectTakesThePasskeyFlagByEitherName() throws {
        for name in ["--webauthn", "--passkey"] {
            let command = try #require(try CLI.parse(["login-direct", name, "--no-store"]) as? LoginDirectCommand)
            #expect(command.way.webauthn, "\(name)")
        }
    }

    @Test func aSecretGivenTwoWaysIsAUsageError() async {
        let result = await CLI.run(["set-password", "--activation-token", "t", "--activation-token-file", "t.txt", "--password", "p"])
        #expect(result.exitCode == 64)
        #expect(result.error?["message"]?.stringValue == "give the activation token one way only")
    }
}
