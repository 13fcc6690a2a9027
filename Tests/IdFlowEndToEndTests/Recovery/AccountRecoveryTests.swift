import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// Account recovery end to end: the built `idflow` against a real `idflow sandbox` whose users an admin put into
/// each state with `idflow user` (or the sandbox clock aged their passwords): expired, expiring, forgotten, locked
/// out and suspended, through Authn (`--username`) and the Identity Engine (`--embedded`), from scripts.
@Suite(.serialized)
struct AccountRecoveryTests {
    static let password = "Str0ng-Passw0rd!"
    static let newPassword = "N3w-Passw0rd-2026"

    static func sandbox(passwordPolicy: String = "{}", idx: String? = nil) async throws -> LiveSandbox {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("recovery-\(UUID().uuidString).json")
        let idxKey = idx.map { #", "idx": \#($0)"# } ?? ""
        try #"{"passwordPolicy": \#(passwordPolicy)\#(idxKey)}"#.write(to: config, atomically: true, encoding: .utf8)
        return try await LiveSandbox.start(["--config", config.path])
    }

    /// A file holding `secret`, as a script keeps a password.
    static func secretFile(_ sandbox: LiveSandbox, _ name: String, _ secret: String) throws -> String {
        let file = sandbox.home.appendingPathComponent(name)
        try secret.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    static func authnLogin(
        _ sandbox: LiveSandbox, _ login: String, password: String = password, _ extra: [String] = [], environment: [String: String] = [:]
    ) async throws -> IdFlowBinary.Result {
        try await sandbox.idflow(
            ["login-pkce", "--username", login, "--password-stdin"] + extra, stdin: password, environment: environment)
    }

    static func embeddedLogin(_ sandbox: LiveSandbox, _ login: String, password: String = password, _ extra: [String] = []) async throws
        -> IdFlowBinary.Result
    {
        try await sandbox.idflow(["login-pkce", "--embedded", "--username", login, "--password-stdin"] + extra, stdin: password)
    }

    static func status(_ sandbox: LiveSandbox, _ login: String) async throws -> String? {
        try await sandbox.idflow(["user", "get", login]).json()["status"]?.stringValue
    }

    /// The newest code the sandbox sent to `to` (an address or a phone number).
    static func sentCode(_ sandbox: LiveSandbox, to: String) async throws -> String {
        let (_, outbox) = try await sandbox.call("GET", "/sandbox/outbox")
        let message = try #require((outbox?.arrayValue ?? []).last { $0["to"]?.stringValue == to && $0["code"] != nil })
        return try #require(message["code"]?.stringValue)
    }

    /// An admin expires the password; the Authn login in a script without a new one stops (exit 3) naming the option,
    /// a weak one is refused before it is sent, a good one from a file is set and the login completes; afterwards only
    /// the new password signs in, and no password reaches the trace.
    @Test func anExpiredPasswordIsChangedByAnAuthnLogin() async throws {
        let sandbox = try await Self.sandbox()
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "exp@example.com")
        let expired = try await sandbox.idflow(["user", "expire-password", "exp@example.com"])
        #expect(expired.exitCode == 0, "\(expired)")
        #expect(try expired.json()["status"] == "PASSWORD_EXPIRED")

        let stopped = try await Self.authnLogin(sandbox, "exp@example.com")
        #expect(stopped.exitCode == 3, "\(stopped)")
        #expect(stopped.error?["hint"]?.stringValue?.contains("--new-password-stdin") == true, "\(stopped.stderr)")
        #expect(stopped.stdout.isEmpty)

        let weak = try await Self.authnLogin(
            sandbox, "exp@example.com", ["--new-password-file", try Self.secretFile(sandbox, "weak", "short")])
        #expect(weak.exitCode == 3, "\(weak)")
        #expect(
            (weak.error?["causes"]?.arrayValue ?? []).contains { $0.stringValue?.contains("at least 8 characters") == true },
            "\(weak.stderr)")

        let newFile = try Self.secretFile(sandbox, "new", Self.newPassword)
        let changed = try await Self.authnLogin(sandbox, "exp@example.com", ["--new-password-file", newFile, "--verbose"])
        #expect(changed.exitCode == 0, "\(changed)")
        #expect(try changed.json()["password_changed"] == true)
        #expect(try changed.json()["access_token"]?.stringValue?.isEmpty == false)
        #expect(!changed.stderr.contains(Self.newPassword) && !changed.stderr.contains(Self.password), "a password reached the trace")
        #expect(try await Self.status(sandbox, "exp@example.com") == "ACTIVE")

        #expect(try await Self.authnLogin(sandbox, "exp@example.com").exitCode == 4, "the old password no longer works")
        let again = try await Self.authnLogin(sandbox, "exp@example.com", password: Self.newPassword)
        #expect(again.exitCode == 0, "\(again)")
        #expect(try again.json()["password_changed"] == nil)
    }

    /// The same in the Identity Engine (`reenroll-authenticator`): the script stops with the transaction kept, and
    /// `--resume` with the new password completes it.
    @Test func anExpiredPasswordIsChangedByAnEmbeddedLoginAndResume() async throws {
        let sandbox = try await Self.sandbox()
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "exi@example.com")
        #expect(try await sandbox.idflow(["user", "expire-password", "exi@example.com"]).exitCode == 0)

        let stopped = try await Self.embeddedLogin(sandbox, "exi@example.com")
        #expect(stopped.exitCode == 3, "\(stopped)")
        #expect(try stopped.json()["remediation"] == "reenroll-authenticator")
        #expect(stopped.error?["hint"]?.stringValue?.contains("--new-password-stdin") == true, "\(stopped.stderr)")
        let transaction = try #require(try stopped.json()["transaction"]?.stringValue)

        let done = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--resume", transaction, "--new-password-stdin", "--verbose"], stdin: Self.newPassword)
        #expect(done.exitCode == 0, "\(done)")
        #expect(try done.json()["password_changed"] == true)
        #expect(!done.stderr.contains(Self.newPassword), "the new password reached the trace")
        #expect(try await Self.embeddedLogin(sandbox, "exi@example.com", password: Self.newPassword).exitCode == 0)
    }

    /// A password inside the policy's warning window: both logins go on, warn on stderr and say so in the JSON.
    @Test func aPasswordAboutToExpireWarnsAndTheLoginGoesOn() async throws {
        // A one-day password inside a week's warning: warned from the start, without moving the sandbox clock (tokens
        // issued ahead of the client's clock are refused).
        let sandbox = try await Self.sandbox(passwordPolicy: #"{"age": {"maxAgeDays": 1, "expireWarnDays": 7}}"#)
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "warn@example.com")

        let authn = try await Self.authnLogin(sandbox, "warn@example.com")
        #expect(authn.exitCode == 0, "\(authn)")
        let days = try authn.json()["password_warning"]?["days_to_expiry"]?.intValue
        #expect(days == 1, "\(authn.stdout)")
        #expect(authn.stderr.contains("warning:"), "\(authn.stderr)")

        let embedded = try await Self.embeddedLogin(sandbox, "warn@example.com")
        #expect(embedded.exitCode == 0, "\(embedded)")
        #expect(try embedded.json()["password_warning"] != nil, "\(embedded.stdout)")
        #expect(embedded.stderr.contains("warning:"), "\(embedded.stderr)")

        let changed = try await Self.embeddedLogin(
            sandbox, "warn@example.com", ["--new-password-file", try Self.secretFile(sandbox, "n", Self.newPassword)])
        #expect(changed.exitCode == 0, "\(changed)")
        #expect(try changed.json()["password_changed"] == true)
        #expect(try changed.json()["password_warning"] == nil)
        let after = try await Self.authnLogin(sandbox, "warn@example.com", password: Self.newPassword)
        #expect(after.exitCode == 0, "\(after)")
    }

    /// Forgot password by an e-mailed code: `--recover` stops at the code, `--resume` with it and the new password
    /// ends signed in; the new password works afterwards.
    @Test func aForgottenPasswordIsResetWithAnEmailedCode() async throws {
        let sandbox = try await Self.sandbox()
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "forgot@example.com")
        let stopped = try await sandbox.idflow(["login-pkce", "--embedded", "--recover", "--username", "forgot@example.com"])
        #expect(stopped.exitCode == 3, "\(stopped)")
        let transaction = try #require(try stopped.json()["transaction"]?.stringValue)
        let code = try await Self.sentCode(sandbox, to: "forgot@example.com")

        let weakFile = try Self.secretFile(sandbox, "weak", "alllowercase1")
        let weak = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--resume", transaction, "--answer", "credentials.passcode=@-", "--new-password-file", weakFile],
            stdin: code)
        #expect(weak.exitCode == 3, "\(weak)")
        #expect(try weak.json()["remediation"] == "reset-authenticator", "\(weak.stdout)")

        let done = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--resume", transaction, "--new-password-stdin", "--verbose"], stdin: Self.newPassword)
        #expect(done.exitCode == 0, "\(done)")
        #expect(try done.json()["password_changed"] == true)
        #expect(!done.stderr.contains(Self.newPassword), "the new password reached the trace")
        #expect(try await Self.authnLogin(sandbox, "forgot@example.com", password: Self.newPassword).exitCode == 0)
    }

    /// Forgot password by a texted code: a user who enrolled a phone at sign-up chooses it for the recovery.
    @Test func aForgottenPasswordIsResetWithATextedCode() async throws {
        let sandbox = try await Self.sandbox(idx: #"{"enroll": {"required": ["password", "phone"]}, "signIn": {"factors": 1}}"#)
        defer { sandbox.stop() }
        let number = "+15555550142"
        let signUp = try await sandbox.idflow(
            [
                "register", "--embedded", "--answer", "userProfile.email=sms@example.com", "--answer", "userProfile.firstName=Sam",
                "--answer", "userProfile.lastName=Ess", "--answer", "authenticator=okta_password", "--answer", "credentials.passcode=@-",
                "--answer", "phoneNumber=\(number)", "--answer", "methodType=sms",
            ], stdin: Self.password)
        #expect(signUp.exitCode == 3, "\(signUp)")
        let enrollment = try #require(try signUp.json()["transaction"]?.stringValue)
        let enrolled = try await sandbox.idflow(
            ["register", "--embedded", "--resume", enrollment, "--answer", "credentials.passcode=@-"],
            stdin: try await Self.sentCode(sandbox, to: number))
        #expect(enrolled.exitCode == 0, "\(enrolled)")

        let stopped = try await sandbox.idflow(
            [
                "login-pkce", "--embedded", "--recover", "--username", "sms@example.com", "--answer", "authenticator=phone_number",
                "--answer", "methodType=sms",
            ])
        #expect(stopped.exitCode == 3, "\(stopped)")
        let transaction = try #require(try stopped.json()["transaction"]?.stringValue)
        let done = try await sandbox.idflow(
            [
                "login-pkce", "--embedded", "--resume", transaction, "--answer", "credentials.passcode=@-", "--new-password-file",
                try Self.secretFile(sandbox, "n", Self.newPassword),
            ], stdin: try await Self.sentCode(sandbox, to: number))
        #expect(done.exitCode == 0, "\(done)")
        #expect(try await Self.embeddedLogin(sandbox, "sms@example.com", password: Self.newPassword).exitCode == 0)
    }

    /// Ten wrong passwords lock the account (here three, by policy); the right one is then refused with a message
    /// that says the account is locked; self-service unlock by e-mailed code, then the sign-in with the password.
    @Test func aLockedOutUserUnlocksByEmailAndSignsIn() async throws {
        let sandbox = try await Self.sandbox(passwordPolicy: #"{"lockout": {"maxAttempts": 3}}"#)
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "lock@example.com")
        for _ in 0..<3 { #expect(try await Self.authnLogin(sandbox, "lock@example.com", password: "Wr0ng-Passw0rd").exitCode == 4) }
        #expect(try await Self.status(sandbox, "lock@example.com") == "LOCKED_OUT")

        let refused = try await Self.authnLogin(sandbox, "lock@example.com")
        #expect(refused.exitCode == 4, "\(refused)")
        #expect(refused.error?["message"]?.stringValue?.contains("locked out") == true, "\(refused.stderr)")
        #expect(refused.error?["hint"]?.stringValue?.contains("--unlock") == true, "\(refused.stderr)")
        let anonymous = try await Self.authnLogin(sandbox, "lock@example.com", environment: ["OKTA_CLIENT_TOKEN": ""])
        #expect(anonymous.exitCode == 4)
        #expect(anonymous.error?["hint"]?.stringValue?.contains("locked out") == true, "without an API token the hint lists it")

        let passwordFile = try Self.secretFile(sandbox, "pw", Self.password)
        let stopped = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--unlock", "--username", "lock@example.com", "--password-file", passwordFile])
        #expect(stopped.exitCode == 3, "\(stopped)")
        let transaction = try #require(try stopped.json()["transaction"]?.stringValue)
        let code = try await Self.sentCode(sandbox, to: "lock@example.com")
        let unlocked = try await sandbox.idflow(
            [
                "login-pkce", "--embedded", "--unlock", "--resume", transaction, "--username", "lock@example.com", "--password-file",
                passwordFile, "--answer", "credentials.passcode=@-", "--verbose",
            ], stdin: code)
        #expect(unlocked.exitCode == 0, "\(unlocked)")
        #expect(unlocked.stderr.contains("signing in again"), "\(unlocked.stderr)")
        #expect(!unlocked.stderr.contains(Self.password) && !unlocked.stderr.contains("\"\(code)\""), "a secret reached the trace")
        #expect(try unlocked.json()["access_token"] != nil)
        #expect(try await Self.status(sandbox, "lock@example.com") == "ACTIVE")
    }

    /// An admin's unlock; the refusal of one that is not locked; a suspended user's clear error in both APIs.
    @Test func anAdminUnlocksAndSuspendsAndTheErrorsSaySo() async throws {
        let sandbox = try await Self.sandbox(passwordPolicy: #"{"lockout": {"maxAttempts": 2}}"#)
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "adm@example.com")
        let notLocked = try await sandbox.idflow(["user", "unlock", "adm@example.com"])
        #expect(notLocked.exitCode == 3, "\(notLocked)")
        #expect(notLocked.error?["errorCode"] == "E0000032")

        for _ in 0..<2 { _ = try await Self.authnLogin(sandbox, "adm@example.com", password: "Wr0ng-Passw0rd") }
        let unlocked = try await sandbox.idflow(["user", "unlock", "adm@example.com"])
        #expect(unlocked.exitCode == 0, "\(unlocked)")
        #expect(try unlocked.json()["status"] == "ACTIVE")
        #expect(try await Self.authnLogin(sandbox, "adm@example.com").exitCode == 0)

        #expect(try await sandbox.idflow(["user", "suspend", "adm@example.com"]).json()["status"] == "SUSPENDED")
        for result in [try await Self.authnLogin(sandbox, "adm@example.com"), try await Self.embeddedLogin(sandbox, "adm@example.com")] {
            #expect(result.exitCode == 4, "\(result)")
            #expect(result.error?["message"]?.stringValue?.contains("suspended") == true, "\(result.stderr)")
        }
        #expect(try await sandbox.idflow(["user", "unsuspend", "adm@example.com"]).json()["status"] == "ACTIVE")
        #expect(try await Self.embeddedLogin(sandbox, "adm@example.com").exitCode == 0)
    }

    /// An admin's reset link, redeemed by set-password with the new password.
    @Test func anAdminResetLinkIsRedeemedBySetPassword() async throws {
        let sandbox = try await Self.sandbox()
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "reset@example.com")
        let reset = try await sandbox.idflow(["user", "reset-password", "reset@example.com"])
        #expect(reset.exitCode == 0, "\(reset)")
        #expect(try reset.json()["status"] == "RECOVERY")
        let link = try #require(try reset.json()["resetPasswordUrl"]?.stringValue)
        let set = try await sandbox.idflow(
            ["set-password", "--activation-url-stdin", "--password-file", try Self.secretFile(sandbox, "n", Self.newPassword)], stdin: link)
        #expect(set.exitCode == 0, "\(set)")
        #expect(try await Self.status(sandbox, "reset@example.com") == "ACTIVE")
        #expect(try await Self.authnLogin(sandbox, "reset@example.com", password: Self.newPassword).exitCode == 0)

        // The link works once; used again it is explained as a reset link, with the command that issues a new one.
        let again = try await sandbox.idflow(
            ["set-password", "--activation-url-stdin", "--password-file", try Self.secretFile(sandbox, "m", Self.newPassword)], stdin: link)
        #expect(again.exitCode == 4, "\(again)")
        let hint = again.error?["hint"]?.stringValue ?? ""
        #expect(hint.contains("reset link") && hint.contains("idflow user reset-password"), "\(again.stderr)")
        #expect(!hint.contains("idflow activate"), "\(again.stderr)")
    }
}

/// An expired password at a terminal (a pty): the new one is typed twice, a weak one is refused with the rule it
/// breaks before anything is sent, and the login completes.
@Suite(.serialized)
struct ExpiredPasswordTerminalTests {
    @Test func anExpiredPasswordIsTypedAtPromptsAndTheLoginCompletes() async throws {
        let sandbox = try await AccountRecoveryTests.sandbox()
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "tty@example.com")
        #expect(try await sandbox.idflow(["user", "expire-password", "tty@example.com"]).exitCode == 0)
        let passwordFile = try AccountRecoveryTests.secretFile(sandbox, "old", AccountRecoveryTests.password)
        let session = try InteractiveSession.startInTerminal(
            ["login-pkce", "--username", "tty@example.com", "--password-file", passwordFile], environment: sandbox.environment)
        var seen = try await session.waitForPrompt { $0.hasSuffix("New password: ") }
        #expect(session.stderrText.contains("has expired"), "\(session.stderrText)")
        session.send("short\n")
        seen = try await session.waitForPrompt(after: seen) { $0.hasSuffix("New password: ") }
        #expect(session.stderrText.contains("at least 8 characters"), "\(session.stderrText)")
        session.send(AccountRecoveryTests.newPassword + "\n")
        seen = try await session.waitForPrompt(after: seen) { $0.hasSuffix("New password again: ") }
        session.send(AccountRecoveryTests.newPassword + "\n")
        let result = try await session.finish()
        #expect(result.exitCode == 0, "\(result)")
        #expect(try result.json()["password_changed"] == true)
        #expect(!result.stderr.contains(AccountRecoveryTests.newPassword), "the new password was echoed")
    }
}
