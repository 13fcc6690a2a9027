import Foundation
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// `login-direct --webauthn` and `--mfa webauthn`, the built idflow against `idflow sandbox`: a passkey enrolled at
/// sign-up through the Identity Engine (`register --embedded --passkey`) then signs in through Direct
/// Authentication, with a username, without one, and after a password; the sandbox verifies each assertion for real.
@Suite(.serialized)
struct DirectAuthPasskeyEndToEndTests {
    static let password = "Str0ng-Passw0rd!"

    /// A sandbox whose Identity Engine enrolls a password and a passkey (with the passkey settings `webauthn`, JSON),
    /// and in which `email` signed up with both (`extra` flags to `register`); the user's id.
    static func signedUp(_ email: String, webauthn: String = "{}", _ extra: [String] = []) async throws -> (LiveSandbox, String) {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("direct-passkey-\(UUID().uuidString).json")
        try #"{"idx": {"enroll": {"required": ["password", "webauthn"]}, "signIn": {"factors": 1}, "webauthn": \#(webauthn)}}"#
            .write(to: config, atomically: true, encoding: .utf8)
        let sandbox = try await LiveSandbox.start(["--config", config.path])
        let signUp = try await sandbox.idflow(
            [
                "register", "--embedded", "--passkey", "--no-store", "--answer", "userProfile.email=\(email)", "--answer",
                "userProfile.firstName=Pat", "--answer", "userProfile.lastName=Key", "--answer", "credentials.passcode=@-",
            ] + extra, stdin: password)
        guard signUp.exitCode == 0, let subject = try signUp.json()["id_token_claims"]?["sub"]?.stringValue else {
            sandbox.stop()
            throw LiveSandbox.StepFailed(step: "register --embedded --passkey", result: signUp)
        }
        return (sandbox, subject)
    }

    func passkey(_ sandbox: LiveSandbox) async throws -> JSONValue {
        let listed = try await sandbox.idflow(["passkey", "list"])
        return try #require(try listed.json()["passkeys"]?.arrayValue?.first, "\(listed)")
    }

    @Test func aPasskeySignsInWithAndWithoutAUsernameAndStoresTheLogin() async throws {
        let (sandbox, subject) = try await Self.signedUp("pat@example.com")
        defer { sandbox.stop() }

        let named = try await sandbox.idflow(["login-direct", "--webauthn", "--username", "pat@example.com"])
        #expect(named.exitCode == 0, "\(named)")
        #expect(try named.json()["id_token_claims"]?["sub"]?.stringValue == subject)
        #expect(try named.json()["id_token_claims"]?["amr"]?.arrayValue == ["hwk"], "\(named)")
        #expect(try await passkey(sandbox)["signCount"]?.intValue == 1)
        let token = try await sandbox.idflow(["token", "get"])
        #expect(token.exitCode == 0, "\(token)")
        #expect(try token.json()["access_token"] == (try named.json()["access_token"]))

        // No username: the passkey's user handle names the user.
        let discoverable = try await sandbox.idflow(["login-direct", "--webauthn", "--no-store"])
        #expect(discoverable.exitCode == 0, "\(discoverable)")
        #expect(try discoverable.json()["id_token_claims"]?["sub"]?.stringValue == subject)
        #expect(try await passkey(sandbox)["signCount"]?.intValue == 2)
    }

    @Test func aPasskeyAnswersTheSecondFactorAfterAPassword() async throws {
        let (sandbox, subject) = try await Self.signedUp("mfa@example.com")
        defer { sandbox.stop() }
        let passwordFile = sandbox.home.appendingPathComponent("pw.txt")
        try Self.password.write(to: passwordFile, atomically: true, encoding: .utf8)

        let login = try await sandbox.idflow([
            "login-direct", "--username", "mfa@example.com", "--password-file", passwordFile.path, "--mfa", "webauthn", "--no-store",
        ])
        #expect(login.exitCode == 0, "\(login)")
        #expect(try login.json()["id_token_claims"]?["sub"]?.stringValue == subject)
        #expect(try login.json()["id_token_claims"]?["amr"]?.arrayValue == ["pwd", "hwk", "mfa"], "\(login)")
    }

    /// Where the org requires user verification, a PIN-sealed passkey signs in with its PIN from a file; without the
    /// PIN a script is told how to give it (exit 3).
    @Test func aPINSealedPasskeySignsInWhereUserVerificationIsRequired() async throws {
        let pinFile = FileManager.default.temporaryDirectory.appendingPathComponent("direct-pin-\(UUID().uuidString)")
        try "246810\n".write(to: pinFile, atomically: true, encoding: .utf8)
        let (sandbox, subject) = try await Self.signedUp(
            "uv@example.com", webauthn: #"{"userVerification": "required"}"#, ["--passkey-pin-file", pinFile.path])
        defer { sandbox.stop() }
        #expect(try await passkey(sandbox)["sealed"]?.boolValue == true)

        let login = try await sandbox.idflow(["login-direct", "--webauthn", "--passkey-pin-file", pinFile.path, "--no-store"])
        #expect(login.exitCode == 0, "\(login)")
        #expect(try login.json()["id_token_claims"]?["sub"]?.stringValue == subject)
        let noPIN = try await sandbox.idflow(["login-direct", "--webauthn", "--no-store"])
        #expect(noPIN.exitCode == 3, "\(noPIN)")
        #expect(noPIN.error?["hint"]?.stringValue?.contains("--passkey-pin-file") == true, "\(noPIN)")
    }

    /// A copy of the passkey file taken before a sign-in signs with a count the sandbox has seen: refused (exit 4).
    @Test func aCopiedPasskeyWhoseCountWentBackIsRefused() async throws {
        let (sandbox, _) = try await Self.signedUp("clone@example.com")
        defer { sandbox.stop() }
        let id = try #require(try await passkey(sandbox)["id"]?.stringValue)
        let file = sandbox.stateDirectory.appendingPathComponent("passkeys/\(id).json")
        let copy = try Data(contentsOf: file)
        let first = try await sandbox.idflow(["login-direct", "--webauthn", "--no-store"])
        #expect(first.exitCode == 0, "\(first)")

        try copy.write(to: file)
        let cloned = try await sandbox.idflow(["login-direct", "--webauthn", "--username", "clone@example.com", "--no-store"])
        #expect(cloned.exitCode == 4, "\(cloned)")
        #expect(cloned.error?["message"]?.stringValue?.contains("WebAuthn") == true, "\(cloned)")
    }
}
