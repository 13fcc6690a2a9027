import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import OneTimePasscode
import Testing

/// Which authenticator an answer is for, end to end: a sign-up whose policy requires the password and Google
/// Authenticator (issue 37 item 5), where `credentials.passcode` fits both code forms. The password answer is the
/// password's, the app's code comes from `--totp-secret-file` or from an answer scoped to the app.
@Suite(.serialized)
struct AnswerScopeTests {
    static let policy = #"{"enroll": {"required": ["password", "google_otp"]}, "signIn": {"factors": 2}, "signUp": true}"#
    static let password = EmbeddedPolicyTests.password

    /// The password in a file, as the issue's command gives it (`credentials.passcode=@pw`).
    static func passwordFile(_ sandbox: LiveSandbox) throws -> URL {
        let file = sandbox.home.appendingPathComponent("pw")
        try password.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    static func signUp(_ sandbox: LiveSandbox, _ email: String, seed: URL, _ extra: [String] = []) async throws -> IdFlowBinary.Result {
        try await sandbox.idflow(
            [
                "register", "--embedded", "--answer", "userProfile.email=\(email)", "--answer", "userProfile.firstName=Bo",
                "--answer", "userProfile.lastName=Th", "--answer", "credentials.passcode=@\(try passwordFile(sandbox).path)",
                "--totp-secret-file", seed.path,
            ] + extra)
    }

    /// The code a phone holding `seed` shows at the sandbox's time.
    static func phoneCode(_ sandbox: LiveSandbox, seed: URL) async throws -> String {
        let (_, clock) = try await sandbox.call("GET", "/sandbox/clock")
        let now = try #require(clock?["now"]?.stringValue.flatMap(ISO8601.date))
        let secret = try #require(
            TOTPSecret(base32: String(contentsOf: seed, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        return TOTP(secret: secret).code(at: now)
    }

    /// The issue's command as it was filed: idflow enrolls the password first, then Google Authenticator with the code
    /// of the seed it kept, and the new user signs in with the password and that seed.
    @Test func aSignUpRequiringThePasswordAndGoogleAuthenticatorEnrollsBoth() async throws {
        let sandbox = try await EmbeddedPolicyTests.sandbox(Self.policy)
        defer { sandbox.stop() }
        let seed = sandbox.home.appendingPathComponent("seed")
        let enrolled = try await Self.signUp(sandbox, "both@example.com", seed: seed)
        #expect(enrolled.exitCode == 0, "\(enrolled)")
        #expect(!enrolled.stderr.contains("doesn't match"), "\(enrolled.stderr)")
        let (_, listed) = try await sandbox.call("GET", "/sandbox/users/both@example.com/authenticators")
        let keys = (listed?["authenticators"]?.arrayValue ?? []).compactMap { $0["key"]?.stringValue }
        #expect(keys.contains("google_otp"), "\(String(describing: listed))")

        let signedIn = try await sandbox.idflow([
            "login-pkce", "--embedded", "--no-store", "--answer", "identifier=both@example.com", "--answer",
            "credentials.passcode=@\(try Self.passwordFile(sandbox).path)", "--totp-secret-file", seed.path,
        ])
        #expect(signedIn.exitCode == 0, "\(signedIn)")
        #expect(try signedIn.json()["id_token_claims"]?["sub"] == (try enrolled.json()["id_token_claims"]?["sub"]))
    }

    /// Google Authenticator chosen first by the script: its code form is answered from the seed, never with the
    /// password; a later sign-in without the seed file takes the code a phone shows through an answer scoped to the app.
    @Test func aPasswordAnswerNeverAnswersTheAppsCodeAndAScopedAnswerDoes() async throws {
        let sandbox = try await EmbeddedPolicyTests.sandbox(Self.policy)
        defer { sandbox.stop() }
        let seed = sandbox.home.appendingPathComponent("seed")
        let enrolled = try await Self.signUp(sandbox, "app@example.com", seed: seed, ["--answer", "authenticator=google_otp"])
        #expect(enrolled.exitCode == 0, "\(enrolled)")

        // The enrollment spent the current 30-second step; the phone shows the next one.
        try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": .number(60)])
        let codeFile = sandbox.home.appendingPathComponent("code")
        try await Self.phoneCode(sandbox, seed: seed).write(to: codeFile, atomically: true, encoding: .utf8)
        let signedIn = try await sandbox.idflow([
            "login-pkce", "--embedded", "--no-store", "--answer", "identifier=app@example.com", "--answer",
            "credentials.passcode=@\(try Self.passwordFile(sandbox).path)", "--answer", "google_otp:credentials.passcode=@\(codeFile.path)",
        ])
        #expect(signedIn.exitCode == 0, "\(signedIn)")
        #expect(try signedIn.json()["id_token_claims"]?["sub"] == (try enrolled.json()["id_token_claims"]?["sub"]))
    }
}
