import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// `password change` and `password reset` as a user runs them, the built idflow against `idflow sandbox`: a change
/// with the token of a `login-direct` that asked for the password scope, a recovery with Okta Verify's code from a
/// kept seed, and the refusals a script sees.
@Suite(.serialized)
struct PasswordEndToEndTests {
    static let password = DirectAuthEndToEndTests.password
    static let newPassword = "Batt3ry-Staple-Horse"
    static let scope = "openid okta.myAccount.password.manage"
    /// Okta Verify may recover a password, and a password alone signs in, so the sign-ins that check the new password
    /// need no second factor.
    static let recoveryConfig =
        #"{"mfaPolicy": "never", "passwordPolicy": {"recovery": {"authenticators": ["email", "phone", "okta_verify"]}}}"#

    /// A file only its owner reads, holding `text`.
    static func secretFile(_ text: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("password-\(UUID().uuidString)")
        try text.write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        return file
    }

    @Test func aChangeAfterLoginDirectWithTheScopeTakesTheNewPassword() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "change@example.com", password: Self.password)
        let login = try await sandbox.idflow(
            ["login-direct", "--username", "change@example.com", "--password-stdin", "--scope", Self.scope], stdin: Self.password)
        #expect(login.exitCode == 0, "\(login)")

        let old = try Self.secretFile(Self.password)
        let change = try await sandbox.idflow(
            ["password", "change", "--password-file", old.path, "--new-password-stdin"], stdin: Self.newPassword)
        #expect(change.exitCode == 0, "\(change)")
        #expect(try change.json()["changed"] == true)
        #expect(try change.json()["method"] == "change")
        // The keys the contract promised before the first build.
        #expect(try change.json()["passwordChanged"] == true && change.json()["status"] == "ACTIVE", "\(change)")
        #expect(try change.json()["userId"]?.stringValue?.hasPrefix("00u") == true, "\(change)")
        #expect(try change.json().objectValue?.keys.contains("login") == true, "\(change)")
        #expect(!change.stderr.contains(Self.newPassword), "the new password is never printed")

        let withNew = try await sandbox.idflow(
            ["login-direct", "--username", "change@example.com", "--password-stdin", "--no-store"], stdin: Self.newPassword)
        #expect(withNew.exitCode == 0, "\(withNew)")
        let withOld = try await sandbox.idflow(
            ["login-direct", "--username", "change@example.com", "--password-stdin", "--no-store"], stdin: Self.password)
        #expect(withOld.exitCode == 4, "\(withOld)")
    }

    @Test func aChangeWithATokenWithoutTheScopeIsExit4AndSaysHowToLogIn() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "noscope@example.com", password: Self.password)
        let login = try await sandbox.idflow(
            ["login-direct", "--username", "noscope@example.com", "--password-stdin"], stdin: Self.password)
        #expect(login.exitCode == 0, "\(login)")
        let old = try Self.secretFile(Self.password)
        let change = try await sandbox.idflow(
            ["password", "change", "--password-file", old.path, "--new-password-stdin"], stdin: Self.newPassword)
        #expect(change.exitCode == 4, "\(change)")
        #expect(change.error?["hint"]?.stringValue?.contains(#"--scope "openid okta.myAccount.password.manage""#) == true, "\(change)")
        #expect(change.stdout.isEmpty)
    }

    @Test func aWeakNewPasswordIsExit3WithEveryRuleBeforeAnythingIsSent() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "weak@example.com", password: Self.password)
        let login = try await sandbox.idflow(
            ["login-direct", "--username", "weak@example.com", "--password-stdin", "--scope", Self.scope], stdin: Self.password)
        #expect(login.exitCode == 0, "\(login)")
        let old = try Self.secretFile(Self.password)
        let change = try await sandbox.idflow(["password", "change", "--password-file", old.path, "--new-password-stdin"], stdin: "weak")
        #expect(change.exitCode == 3, "\(change)")
        #expect((change.error?["causes"]?.arrayValue?.count ?? 0) >= 2, "\(change)")
    }

    /// The whole recovery from a kept seed: the new password signs in, the old one no longer does.
    @Test func aResetWithTheSeedsCodeSetsTheNewPassword() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("reset-seed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let seedFile = home.appendingPathComponent("ov.totp")
        let sandbox = try await DirectAuthEndToEndTests.enrolled("forgot@example.com", config: Self.recoveryConfig, seedFile: seedFile)
        defer { sandbox.stop() }
        let before = try sandbox.storedLogin()

        let reset = try await sandbox.idflow(
            ["password", "reset", "--username", "forgot@example.com", "--totp-secret-file", seedFile.path, "--new-password-stdin"],
            stdin: Self.newPassword)
        #expect(reset.exitCode == 0, "\(reset)")
        let output = try reset.json()
        #expect(output["method"] == "reset" && output["factor"] == "otp" && output["username"] == "forgot@example.com", "\(reset)")
        #expect(output["login"] == "forgot@example.com" && output["passwordChanged"] == true, "\(reset)")
        #expect(output["password"]?["status"] == "ACTIVE", "\(reset)")
        #expect(try sandbox.storedLogin() == before, "the recovery token is not stored")

        let withNew = try await sandbox.idflow(
            ["login-direct", "--username", "forgot@example.com", "--password-stdin", "--no-store"], stdin: Self.newPassword)
        #expect(withNew.exitCode == 0, "\(withNew)")
        let withOld = try await sandbox.idflow(
            ["login-direct", "--username", "forgot@example.com", "--password-stdin", "--no-store"], stdin: Self.password)
        #expect(withOld.exitCode == 4, "\(withOld)")
    }

    /// The default recovery policy names e-mail and phone only: Okta Verify's code cannot recover (exit 8, a policy's no).
    @Test func aFactorTheRecoveryPolicyDoesNotNameIsExit8() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("reset-policy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let seedFile = home.appendingPathComponent("ov.totp")
        let sandbox = try await DirectAuthEndToEndTests.enrolled("policy@example.com", seedFile: seedFile)
        defer { sandbox.stop() }
        let reset = try await sandbox.idflow(
            ["password", "reset", "--username", "policy@example.com", "--totp-secret-file", seedFile.path, "--new-password-stdin"],
            stdin: Self.newPassword)
        #expect(reset.exitCode == 8, "\(reset)")
        #expect(reset.error?["hint"]?.stringValue?.contains("recover a password") == true, "\(reset)")
        #expect(reset.stdout.isEmpty)
    }

    /// An app that has only the password grant cannot recover: the password is not a way to prove who forgot it.
    @Test func aResetWithAPasswordGrantOnlyAppIsRefused() async throws {
        let config =
            #"{"directAuth": {"grants": {"\#(SandboxConfiguration.defaultClientId)": ["password"]}}, "passwordPolicy": {"recovery": {"authenticators": ["okta_verify"]}}}"#
        let sandbox = try await DirectAuthEndToEndTests.enrolled("pwonly@example.com", config: config)
        defer { sandbox.stop() }
        let reset = try await sandbox.idflow(
            [
                "password", "reset", "--username", "pwonly@example.com", "--otp-stdin", "--new-password-file",
                try Self.secretFile(Self.newPassword).path,
            ],
            stdin: "123456")
        #expect(reset.exitCode == 4, "\(reset)")
        #expect(reset.error?["hint"]?.stringValue?.contains("OTP") == true, "\(reset)")
        let withPassword = try await sandbox.idflow(
            ["password", "reset", "--username", "pwonly@example.com", "--password-stdin"], stdin: Self.password)
        #expect(withPassword.exitCode == 64, "\(withPassword)")
    }
}
