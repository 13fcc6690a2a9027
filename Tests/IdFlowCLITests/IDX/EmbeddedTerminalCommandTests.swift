import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

@testable import idflow

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `login-pkce --embedded` with a person at the terminal: the forms become prompts, a wrong answer is asked
/// again, and nothing is left for `--resume`.
struct EmbeddedTerminalCommandTests {
    let configuration = EmbeddedLoginCommandTests().configuration

    @Test func eachFormBecomesPromptsAndTheSignInCompletes() async throws {
        let server = RecordedIdentityEngine.transport()
        let environment = CLI.isolatedEnvironment()
        let result = await CLI.run(
            ["login-pkce", "--embedded"] + configuration, transport: server, environment: environment,
            terminalAnswers: ["jo@example.com", "", "s3cret"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.json?["access_token"] == "at1")
        #expect(result.stderr.contains("Username: "), "the recording does not mark it required")
        #expect(result.stderr.contains("Remember this device [y/N]: "))
        #expect(result.stderr.contains("Password (required, hidden): "))
        let identify = try #require(server.requests.first { $0.route.hasSuffix("/identify") })
        #expect(identify.jsonBody?["identifier"] == "jo@example.com")
        #expect(identify.jsonBody?["rememberMe"] == nil, "an optional field left empty is not sent")
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: environment["IDFLOW_STATE_DIR"]! + "/idx")) ?? []
        #expect(kept.isEmpty, "a terminal sign-in keeps no transaction")
    }

    @Test func aWrongPasswordIsAskedAgainWithTheServersMessage() async throws {
        let server = RecordedIdentityEngine.transport()
        let result = await CLI.run(
            ["login-pkce", "--embedded", "--answer", "identifier=jo@example.com"] + configuration, transport: server,
            terminalAnswers: ["", "wrong", "s3cret"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.contains("error: Invalid code. Try again."))
        let passwords = server.requests.filter { $0.route.hasSuffix("/challenge/answer") }.map { $0.jsonBody?["credentials"]?["passcode"] }
        #expect(passwords == ["wrong", "s3cret"])
        #expect(!server.requests.contains { $0.route.hasSuffix("/identify") && $0.jsonBody?["credentials"] != nil })
    }

    @Test func aRequiredFieldLeftEmptyIsAskedAgainThenGivenUp() async {
        let result = await CLI.run(
            ["login-pkce", "--embedded", "--answer", "identifier=jo@example.com"] + configuration,
            transport: RecordedIdentityEngine.transport(), terminalAnswers: ["", "", "", ""])
        #expect(result.exitCode == 3)
        #expect(result.stderr.contains("Password is required"))
        #expect(result.error?["hint"]?.stringValue?.contains("--answer credentials.passcode=") == true)
    }

    @Test func severalFormsAreANumberedChoice() async throws {
        let server = RecordedIdentityEngine.transport(introspect: "identify-with-password-and-select-enroll-profile.json")
        let result = await CLI.run(
            ["login-pkce", "--embedded"] + configuration, transport: server, terminalAnswers: ["2"])
        // Each choice says what it does, not only the Identity Engine's name for it.
        #expect(result.stderr.contains("  1) identify: sign in with a username"), "\(result.stderr)")
        #expect(result.stderr.contains("  2) select-enroll-profile: sign up: create a new account"), "\(result.stderr)")
        #expect(server.requests.contains { $0.route == "POST /idp/idx/enroll" }, "choice 2 was sent")
    }

    /// An authenticator app's enrollment at a terminal: the QR code drawn on stderr for a phone to scan, the key
    /// beside it for typing, then the code asked for; nothing of it on stdout.
    @Test func anAuthenticatorAppsQRCodeIsDrawnForThePhoneToScan() async throws {
        let server = RecordedIdentityEngine.transport { request in
            switch request.route {
            case "POST /idp/idx/identify": return RecordedIdentityEngine.reply("google-otp-enroll-qrcode.json")
            case "POST /idp/idx/challenge/answer":
                let code = request.jsonBody?["credentials"]?["passcode"]?.stringValue
                return code == "123456"
                    ? RecordedIdentityEngine.reply("04-success-with-interaction-code.json")
                    : RecordedIdentityEngine.reply("error-google-otp-invalid-passcode.json", status: 400)
            default: return nil
            }
        }
        let result = await CLI.run(
            ["login-pkce", "--embedded", "--answer", "identifier=jo@example.com"] + configuration, transport: server,
            terminalAnswers: ["", "123456"])  // Enter takes the enrollment, then the code
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Scan this QR code with Google Authenticator:"))
        let drawing = result.stderr.split(separator: "\n").filter { $0.contains("█") || $0.contains("▀") || $0.contains("▄") }
        #expect(drawing.count >= 12, "the code is drawn: \(result.stderr)")
        #expect(Set(drawing.map(\.count)).count == 1, "every line of the drawing is as wide as the code")
        #expect(result.stderr.contains("Can't scan it? Enter this key in Google Authenticator: AANACLY3MX6EHKJJ"))
        #expect(result.stderr.contains("Enter code (required): "))
        #expect(!result.stdout.contains("AANACLY3MX6EHKJJ"))
    }
}
