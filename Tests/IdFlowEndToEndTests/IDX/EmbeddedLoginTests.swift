import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// `login-pkce --embedded` run as a script would, against `idflow sandbox`'s Identity Engine.
@Suite(.serialized)
struct EmbeddedLoginTests {
    @Test func aScriptSignsInWithAPasswordFromStandardInput() async throws {
        let sandbox = try await LiveSandbox.start()
        let (userID, _) = try await sandbox.createActiveUser(email: "embedded@example.com", password: "Str0ng-Passw0rd!")
        let login = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--answer", "identifier=embedded@example.com", "--answer", "credentials.passcode=@-"],
            stdin: "Str0ng-Passw0rd!\n")
        #expect(login.exitCode == 0, "\(login)")
        let output = try login.json()
        #expect(output["token_type"] == "Bearer")
        #expect(output["id_token_claims"]?["sub"] == .string(userID))
        #expect(output["refresh_token"]?.stringValue != nil)
        let stored = sandbox.stateDirectory.appendingPathComponent("profiles/default/tokens.json").path
        #expect(FileManager.default.fileExists(atPath: stored))

        // The stored login is a login like any other: it refreshes.
        let refresh = try await sandbox.idflow(["refresh"])
        #expect(refresh.exitCode == 0, "\(refresh)")
    }

    @Test func aWrongPasswordExits4AndAMissingOneExits3WithTheForm() async throws {
        let sandbox = try await LiveSandbox.start()
        _ = try await sandbox.createActiveUser(email: "wrong@example.com", password: "Str0ng-Passw0rd!")
        let wrong = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--answer", "identifier=wrong@example.com", "--answer", "credentials.passcode=@-"],
            stdin: "not-it")
        #expect(wrong.exitCode == 4, "\(wrong)")
        #expect(wrong.stdout.isEmpty)
        #expect(wrong.error?["message"] == "Authentication failed")

        let missing = try await sandbox.idflow(["login-pkce", "--embedded", "--answer", "identifier=wrong@example.com"])
        #expect(missing.exitCode == 3, "\(missing)")
        let pending = try missing.json()
        #expect(pending["remediation"] == "challenge-authenticator")
        #expect(pending["fields"]?.arrayValue?.first?["name"] == "credentials.passcode")
        #expect(pending["fields"]?.arrayValue?.first?["secret"] == .bool(true))

        // The same transaction continues with the missing answer.
        let transaction = try #require(pending["transaction"]?.stringValue)
        let resumed = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--resume", transaction, "--answer", "credentials.passcode=@-"], stdin: "Str0ng-Passw0rd!")
        #expect(resumed.exitCode == 0, "\(resumed)")
        #expect(try resumed.json()["token_type"] == "Bearer")
    }

    @Test func aNewUserSignsUpThroughThePolicyAndThenSignsIn() async throws {
        let sandbox = try await LiveSandbox.start()
        // The sandbox offers the policy's authenticators to enroll (select-authenticator-enroll), password first.
        let signUp = try await sandbox.idflow(
            [
                "register", "--embedded", "--answer", "userProfile.email=newbie@example.com", "--answer", "userProfile.firstName=New",
                "--answer", "userProfile.lastName=User", "--answer", "credentials.passcode=@-",
            ], stdin: "Str0ng-Passw0rd!\n")
        #expect(signUp.exitCode == 0, "\(signUp)")
        let subject = try #require(try signUp.json()["id_token_claims"]?["sub"]?.stringValue)

        let again = try await sandbox.idflow(
            [
                "register", "--embedded", "--answer", "userProfile.email=newbie@example.com", "--answer", "userProfile.firstName=New",
                "--answer", "userProfile.lastName=User", "--answer", "credentials.passcode=@-",
            ], stdin: "Str0ng-Passw0rd!\n")
        #expect(again.exitCode == 3, "\(again)")
        #expect(again.error?["message"] == "A user with this Email already exists")

        let login = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--answer", "identifier=newbie@example.com", "--answer", "credentials.passcode=@-"],
            stdin: "Str0ng-Passw0rd!\n")
        #expect(login.exitCode == 0, "\(login)")
        #expect(try login.json()["id_token_claims"]?["sub"]?.stringValue == subject)
    }
}
