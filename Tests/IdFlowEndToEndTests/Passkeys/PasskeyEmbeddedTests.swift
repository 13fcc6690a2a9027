import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// Passkeys through the Identity Engine, the built binary against a sandbox that verifies every registration and
/// assertion for real: a sign-up that enrolls one, the passkey as second factor and alone, a PIN-sealed passkey where
/// the org requires user verification, passkey promotion, and the refusals a user meets (an AAGUID the org does not
/// allow, a relying party that is not the site idflow talks to, a copied passkey whose sign count went back).
@Suite(.serialized)
struct PasskeyEmbeddedTests {
    static let password = "Str0ng-Passw0rd!"
    static let allowedAAGUID = "08987058-cadc-4b81-b6e1-30de50dcbe96"

    /// A sandbox whose Identity Engine policy is `idx` (JSON).
    static func sandbox(_ idx: String) async throws -> LiveSandbox {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("passkey-idx-\(UUID().uuidString).json")
        try #"{"idx": \#(idx)}"#.write(to: config, atomically: true, encoding: .utf8)
        return try await LiveSandbox.start(["--config", config.path])
    }

    /// `register --embedded --passkey` for `email` (the password from stdin) with `extra` flags.
    func signUp(_ sandbox: LiveSandbox, _ email: String, _ extra: [String] = []) async throws -> IdFlowBinary.Result {
        try await sandbox.idflow(
            [
                "register", "--embedded", "--passkey", "--answer", "userProfile.email=\(email)", "--answer", "userProfile.firstName=Pat",
                "--answer", "userProfile.lastName=Key", "--answer", "credentials.passcode=@-",
            ] + extra, stdin: Self.password)
    }

    /// `login-pkce --embedded` with the identifier and password (stdin), and `extra` flags.
    func signIn(_ sandbox: LiveSandbox, _ email: String, _ extra: [String] = []) async throws -> IdFlowBinary.Result {
        try await sandbox.idflow(
            ["login-pkce", "--embedded", "--answer", "identifier=\(email)", "--answer", "credentials.passcode=@-"] + extra,
            stdin: Self.password)
    }

    func passkeys(_ sandbox: LiveSandbox) async throws -> [JSONValue] {
        let listed = try await sandbox.idflow(["passkey", "list"])
        return try #require(try listed.json()["passkeys"]?.arrayValue, "\(listed)")
    }

    static func pinFile(_ pin: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("passkey-pin-\(UUID().uuidString)")
        try Data((pin + "\n").utf8).write(to: file)
        return file.path
    }

    @Test func aSignUpEnrollsAPasskeyThatThenSignsInAsSecondFactorAndAlone() async throws {
        let sandbox = try await Self.sandbox(#"{"enroll": {"required": ["password", "webauthn"]}, "signIn": {"factors": 2}}"#)
        defer { sandbox.stop() }
        let signedUp = try await signUp(sandbox, "pat@example.com", ["--no-store"])
        #expect(signedUp.exitCode == 0, "\(signedUp)")
        let subject = try #require(try signedUp.json()["id_token_claims"]?["sub"]?.stringValue)
        let kept = try await passkeys(sandbox)
        #expect(kept.count == 1)
        let host = try #require(URL(string: sandbox.orgURL)?.host)
        #expect(kept.first?["rpId"]?.stringValue == host && kept.first?["origin"]?.stringValue == sandbox.orgURL)
        #expect(kept.first?["sealed"]?.boolValue == false)

        // The password, then the passkey as the second factor, without being asked.
        let second = try await signIn(sandbox, "pat@example.com")
        #expect(second.exitCode == 0, "\(second)")
        #expect(try second.json()["id_token_claims"]?["sub"]?.stringValue == subject)
        #expect(try await passkeys(sandbox).first?["signCount"]?.intValue == 1)

        // No username: the passkey alone names the user (then the password, as the policy wants two factors).
        let alone = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--passkey", "--answer", "credentials.passcode=@-"], stdin: Self.password)
        #expect(alone.exitCode == 0, "\(alone)")
        #expect(try alone.json()["id_token_claims"]?["sub"]?.stringValue == subject)
        #expect(try await passkeys(sandbox).first?["signCount"]?.intValue == 2)
    }

    @Test func aPasskeyAloneSignsInWithNoUsernameAndNoPassword() async throws {
        let sandbox = try await Self.sandbox(#"{"enroll": {"required": ["password", "webauthn"]}, "signIn": {"factors": 1}}"#)
        defer { sandbox.stop() }
        let signedUp = try await signUp(sandbox, "solo@example.com", ["--no-store"])
        #expect(signedUp.exitCode == 0, "\(signedUp)")
        let subject = try #require(try signedUp.json()["id_token_claims"]?["sub"]?.stringValue)
        let alone = try await sandbox.idflow(["login-pkce", "--embedded", "--passkey", "--verbose"])
        #expect(alone.exitCode == 0, "\(alone)")
        #expect(try alone.json()["id_token_claims"]?["sub"]?.stringValue == subject)
        #expect(alone.stderr.contains("webauthn-autofillui"))
    }

    @Test func whereTheOrgRequiresUVOnlyAPINSealedPasskeySignsIn() async throws {
        let sandbox = try await Self.sandbox(
            #"{"enroll": {"required": ["password", "webauthn"]}, "signIn": {"factors": 2}, "webauthn": {"userVerification": "required"}}"#)
        defer { sandbox.stop() }
        // A script with no PIN cannot make a passkey the org will accept: exit 3 naming the flag.
        let noPIN = try await signUp(sandbox, "nopin@example.com")
        #expect(noPIN.exitCode == 3, "\(noPIN)")
        #expect(noPIN.error?["hint"]?.stringValue?.contains("--passkey-pin-file") == true, "\(noPIN)")

        let pin = try Self.pinFile("246810-pin")
        let signedUp = try await signUp(sandbox, "sealed@example.com", ["--passkey-pin-file", pin])
        #expect(signedUp.exitCode == 0, "\(signedUp)")
        #expect(try await passkeys(sandbox).first?["sealed"]?.boolValue == true)
        #expect(!signedUp.stderr.contains("246810-pin"))

        let withPIN = try await signIn(sandbox, "sealed@example.com", ["--passkey-pin-file", pin])
        #expect(withPIN.exitCode == 0, "\(withPIN)")
        let withoutPIN = try await signIn(sandbox, "sealed@example.com")
        #expect(withoutPIN.exitCode == 3, "\(withoutPIN)")
        #expect(withoutPIN.error?["hint"]?.stringValue?.contains("--passkey-pin-file") == true)
        let wrongPIN = try await signIn(sandbox, "sealed@example.com", ["--passkey-pin-file", try Self.pinFile("000000-pin")])
        #expect(wrongPIN.exitCode == 4, "\(wrongPIN)")
    }

    @Test func aPromotionIsSkippedWithoutPasskeyAndEnrollsOneWithIt() async throws {
        let sandbox = try await Self.sandbox(
            #"{"enroll": {"required": ["password"], "optional": ["webauthn"]}, "webauthn": {"promotion": true}}"#)
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "promo@example.com", password: Self.password)
        let skipped = try await signIn(sandbox, "promo@example.com", ["--verbose"])
        #expect(skipped.exitCode == 0, "\(skipped)")
        #expect(skipped.stderr.contains("--passkey enrolls one"))
        #expect(try await passkeys(sandbox).isEmpty)

        let accepted = try await signIn(sandbox, "promo@example.com", ["--passkey"])
        #expect(accepted.exitCode == 0, "\(accepted)")
        #expect(try await passkeys(sandbox).count == 1)
    }

    @Test func anAAGUIDOffTheAllowListExits3NamingTheFlagAndAnAllowedOneEnrolls() async throws {
        let sandbox = try await Self.sandbox(
            #"{"enroll": {"required": ["password", "webauthn"]}, "webauthn": {"allowedAAGUIDs": ["\#(Self.allowedAAGUID)"]}}"#)
        defer { sandbox.stop() }
        let refused = try await signUp(sandbox, "model@example.com")
        #expect(refused.exitCode == 3, "\(refused)")
        #expect(refused.error?["message"]?.stringValue?.contains("AAGUID") == true, "\(refused)")
        #expect(refused.error?["hint"]?.stringValue?.contains("--aaguid") == true, "\(refused)")
        #expect(try await passkeys(sandbox).isEmpty, "a refused passkey is not kept")

        let allowed = try await signUp(
            sandbox, "model2@example.com", ["--aaguid", Self.allowedAAGUID, "--attestation", "packed"])
        #expect(allowed.exitCode == 0, "\(allowed)")
        #expect(try await passkeys(sandbox).first?["aaguid"]?.stringValue == Self.allowedAAGUID)
    }

    @Test func aRelyingPartyThatIsNotTheSandboxsHostIsRefusedWithExit13() async throws {
        let sandbox = try await Self.sandbox(
            #"{"enroll": {"required": ["password", "webauthn"]}, "webauthn": {"rpId": "login.example.net"}}"#)
        defer { sandbox.stop() }
        let refused = try await signUp(sandbox, "origin@example.com")
        #expect(refused.exitCode == 13, "\(refused)")
        #expect(refused.error?["message"]?.stringValue?.contains("login.example.net") == true, "\(refused)")
        #expect(try await passkeys(sandbox).isEmpty)
    }

    @Test func aCopiedPasskeyWhoseSignCountWentBackIsRefusedByTheSandbox() async throws {
        let sandbox = try await Self.sandbox(#"{"enroll": {"required": ["password", "webauthn"]}, "signIn": {"factors": 2}}"#)
        defer { sandbox.stop() }
        #expect(try await signUp(sandbox, "clone@example.com", ["--no-store"]).exitCode == 0)
        let id = try #require(try await passkeys(sandbox).first?["id"]?.stringValue)
        let file = sandbox.stateDirectory.appendingPathComponent("passkeys/\(id).json")
        let copy = try Data(contentsOf: file)
        let first = try await signIn(sandbox, "clone@example.com")
        #expect(first.exitCode == 0, "\(first)")
        // The copy, made before that sign-in, signs with the count the server has seen already.
        try copy.write(to: file)
        let cloned = try await signIn(sandbox, "clone@example.com")
        #expect(cloned.exitCode == 4, "\(cloned)")
        #expect(cloned.error?["message"]?.stringValue?.contains("WebAuthn") == true, "\(cloned)")
    }
}
