import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// register → activate → set-password, run as a user would: the built binary against `idflow sandbox`.
@Suite(.serialized)
struct RegistrationChainTests {
    @Test func theWholeChainTakesAUserFromStagedToActive() async throws {
        let sandbox = try await LiveSandbox.start()
        let registered = try await sandbox.idflow([
            "register", "--email", "jo@example.com", "--first-name", "Jo", "--last-name", "Doe", "--attr", "mobilePhone=+1-555-0100",
        ])
        #expect(registered.exitCode == 0, "\(registered)")
        let user = try registered.json()
        let id = try #require(user["id"]?.stringValue)
        #expect(user["status"] == "STAGED")
        #expect(user["profile"]?["login"] == "jo@example.com")
        #expect(user["profile"]?["mobilePhone"] == "+1-555-0100")

        let activated = try await sandbox.idflow(["activate", "--user", id])
        #expect(activated.exitCode == 0, "\(activated)")
        let activation = try activated.json()
        #expect(activation["status"] == "PROVISIONED")
        #expect(activation["userId"] == .string(id))
        let token = try #require(activation["activationToken"]?.stringValue)
        #expect(activation["activationUrl"]?.stringValue?.contains(token) == true)

        // `=` keeps a token that starts with "-" (the alphabet has it) from being read as an option.
        let set = try await sandbox.idflow(
            ["set-password", "--activation-token=\(token)", "--password-stdin"], stdin: "Str0ng-Passw0rd!\n")
        #expect(set.exitCode == 0, "\(set)")
        let session = try set.json()
        #expect(session["status"] == "SUCCESS")
        #expect(session["userId"] == .string(id))
        #expect(session["login"] == "jo@example.com")
        #expect(session["sessionToken"]?.stringValue?.isEmpty == false)
        #expect(session["expiresAt"]?.stringValue != nil)
        #expect(set.stderr.contains("visible to other users"), "a token on argv warns")

        let (status, after) = try await sandbox.call("GET", "/api/v1/users/\(id)")
        #expect(status == 200)
        #expect(after?["status"] == "ACTIVE")
    }

    @Test func activateTakesALoginAndTheActivationURLWorksForSetPassword() async throws {
        let sandbox = try await LiveSandbox.start()
        #expect(try await sandbox.idflow(["register", "--email", "al@example.com"]).exitCode == 0)
        let activated = try await sandbox.idflow(["activate", "--user", "al@example.com"])
        let url = try #require(try activated.json()["activationUrl"]?.stringValue)
        // With no org configured the link's host cannot be checked, so the password is not sent there...
        let unchecked = try await sandbox.idflow(
            ["set-password", "--activation-url", url, "--password-stdin"], stdin: "Str0ng-Passw0rd!",
            environment: ["OKTA_CLIENT_ORGURL": ""])
        #expect(unchecked.exitCode == 13, "\(unchecked)")
        #expect(unchecked.error?["hint"]?.stringValue?.contains("--org-url \(sandbox.orgURL)") == true)
        // ...until --org-url names it; the link itself comes from a file, out of `ps`.
        let linkFile = sandbox.home.appendingPathComponent("link.txt")
        try Data((url + "\n").utf8).write(to: linkFile)
        let set = try await sandbox.idflow(
            ["set-password", "--activation-url-file", linkFile.path, "--password-stdin", "--org-url", sandbox.orgURL],
            stdin: "Str0ng-Passw0rd!",
            environment: ["OKTA_CLIENT_ORGURL": ""])
        #expect(set.exitCode == 0, "\(set)")
        #expect(try set.json()["login"] == "al@example.com")
        #expect(!set.stderr.contains("visible to other users"), "a link from a file is not warned about")
    }

    @Test func sendEmailPutsTheLinkInTheOutboxInsteadOfTheOutput() async throws {
        let sandbox = try await LiveSandbox.start()
        #expect(try await sandbox.idflow(["register", "--email", "mail@example.com"]).exitCode == 0)
        let activated = try await sandbox.idflow(["activate", "--user", "mail@example.com", "--send-email"])
        #expect(activated.exitCode == 0, "\(activated)")
        let output = try activated.json()
        #expect(output["status"] == "PROVISIONED")
        #expect(output["activationToken"] == nil)
        #expect(output["activationUrl"] == nil)
        let (_, outbox) = try await sandbox.call("GET", "/sandbox/outbox")
        let mail = try #require(outbox?.arrayValue?.last)
        #expect(mail["to"] == "mail@example.com")
        let link = try #require(mail["activationUrl"]?.stringValue)
        let set = try await sandbox.idflow([
            "set-password", "--activation-url", link, "--password-file", try passwordFile("Str0ng-Passw0rd!"),
        ])
        #expect(set.exitCode == 0, "\(set)")
    }

    @Test func aDuplicateLoginIsTheServersE0000001WithItsCause() async throws {
        let sandbox = try await LiveSandbox.start()
        #expect(try await sandbox.idflow(["register", "--email", "dup@example.com"]).exitCode == 0)
        let again = try await sandbox.idflow(["register", "--email", "DUP@example.com"])
        #expect(again.exitCode == 3, "\(again)")
        #expect(again.stdout.isEmpty, "nothing half-way on stdout")
        let error = try #require(again.error)
        #expect(error["errorCode"] == "E0000001")
        #expect(error["httpStatus"] == 400)
        #expect(error["causes"]?.arrayValue?.contains { $0.stringValue?.contains("already exists") == true } == true)
    }

    @Test(arguments: [
        ("short", ["8 characters", "uppercase", "number"]),
        ("alllowercase1", ["uppercase"]),
        ("NoDigitsHere", ["number"]),
        ("My-Jodoe-Pass1", ["username"]),
    ])
    func aWeakPasswordShowsEveryFailedRule(password: String, expected: [String]) async throws {
        let sandbox = try await LiveSandbox.start()
        let registered = try await sandbox.idflow(["register", "--email", "jodoe@example.com"])
        let id = try #require(try registered.json()["id"]?.stringValue)
        let token = try #require(try await sandbox.idflow(["activate", "--user", id]).json()["activationToken"]?.stringValue)
        let set = try await sandbox.idflow(
            ["set-password", "--password-stdin"], stdin: password, environment: ["IDFLOW_ACTIVATION_TOKEN": token])
        #expect(set.exitCode == 3, "\(set)")
        let error = try #require(set.error)
        // Rules the policy publishes are caught before sending; the rest (the username rule) by the server.
        #expect(error["kind"] == "password_policy" || ["E0000080", "E0000014"].contains(error["errorCode"]?.stringValue ?? ""))
        let causes = (error["causes"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: " | ").lowercased()
        for rule in expected {
            #expect(causes.contains(rule.lowercased()), "cause for \(rule) missing in \(causes)")
        }
    }

    @Test(arguments: ["short", "My-Jodoe-Pass1"])
    func aWeakThenAStrongPasswordNeedOneActivationToken(weak: String) async throws {
        let sandbox = try await LiveSandbox.start()
        let id = try #require(try await sandbox.idflow(["register", "--email", "jodoe@example.com"]).json()["id"]?.stringValue)
        let token = try #require(try await sandbox.idflow(["activate", "--user", id]).json()["activationToken"]?.stringValue)
        let first = try await sandbox.idflow(
            ["set-password", "--password-stdin"], stdin: weak, environment: ["IDFLOW_ACTIVATION_TOKEN": token])
        #expect(first.exitCode == 3, "\(first)")
        #expect(first.error?["hint"]?.stringValue?.contains("same activation token") == true)
        let second = try await sandbox.idflow(
            ["set-password", "--password-stdin"], stdin: "Str0ng-Passw0rd!", environment: ["IDFLOW_ACTIVATION_TOKEN": token])
        #expect(second.exitCode == 0, "\(second)")
        #expect(try second.json()["status"] == "SUCCESS")
        let (_, user) = try await sandbox.call("GET", "/api/v1/users/\(id)")
        #expect(user?["status"] == "ACTIVE")
        // Nothing of the finished activation is left in the state directory.
        let open = try? FileManager.default.contentsOfDirectory(atPath: sandbox.stateDirectory.appendingPathComponent("activations").path)
        #expect(open?.isEmpty ?? true)
    }

    @Test func reactivateReplacesALostActivationToken() async throws {
        let sandbox = try await LiveSandbox.start()
        let id = try #require(try await sandbox.idflow(["register", "--email", "lost@example.com"]).json()["id"]?.stringValue)
        let first = try #require(try await sandbox.idflow(["activate", "--user", id]).json()["activationToken"]?.stringValue)

        let again = try await sandbox.idflow(["activate", "--user", id])
        #expect(again.exitCode == 3, "\(again)")
        #expect(again.error?["hint"]?.stringValue?.contains("--reactivate") == true, "\(again.stderr)")

        let reactivated = try await sandbox.idflow(["activate", "--user", "lost@example.com", "--reactivate"])
        #expect(reactivated.exitCode == 0, "\(reactivated)")
        let output = try reactivated.json()
        let second = try #require(output["activationToken"]?.stringValue)
        #expect(second != first)
        #expect(output["status"] == "PROVISIONED")
        #expect(output["activationUrl"]?.stringValue?.contains(second) == true)

        let old = try await sandbox.idflow(
            ["set-password", "--password-stdin"], stdin: "Str0ng-Passw0rd!", environment: ["IDFLOW_ACTIVATION_TOKEN": first])
        #expect(old.exitCode == 4, "the replaced token stopped working: \(old)")
        let new = try await sandbox.idflow(
            ["set-password", "--password-stdin"], stdin: "Str0ng-Passw0rd!", environment: ["IDFLOW_ACTIVATION_TOKEN": second])
        #expect(new.exitCode == 0, "\(new)")

        // An ACTIVE user cannot be reactivated: Okta's E0000038, with a hint that says why.
        let active = try await sandbox.idflow(["activate", "--user", id, "--reactivate"])
        #expect(active.exitCode == 3, "\(active)")
        #expect(active.error?["errorCode"] == "E0000038")
        #expect(active.error?["hint"]?.stringValue?.contains("PROVISIONED users only") == true)
    }

    @Test func aUsedActivationTokenExits4() async throws {
        let sandbox = try await LiveSandbox.start()
        let id = try #require(try await sandbox.idflow(["register", "--email", "re@example.com"]).json()["id"]?.stringValue)
        let token = try #require(try await sandbox.idflow(["activate", "--user", id]).json()["activationToken"]?.stringValue)
        let env = ["IDFLOW_ACTIVATION_TOKEN": token]
        #expect(try await sandbox.idflow(["set-password", "--password-stdin"], stdin: "Str0ng-Passw0rd!", environment: env).exitCode == 0)
        let again = try await sandbox.idflow(["set-password", "--password-stdin"], stdin: "An0ther-Passw0rd!", environment: env)
        #expect(again.exitCode == 4, "\(again)")
        #expect(again.error?["errorCode"] == "E0000004")
        #expect(again.error?["hint"]?.stringValue?.contains("idflow activate") == true)
    }

    @Test func anExpiredActivationTokenExits4() async throws {
        let sandbox = try await LiveSandbox.start()
        let id = try #require(try await sandbox.idflow(["register", "--email", "old@example.com"]).json()["id"]?.stringValue)
        let token = try #require(try await sandbox.idflow(["activate", "--user", id]).json()["activationToken"]?.stringValue)
        let (status, _) = try await sandbox.call("POST", "/sandbox/clock", json: ["advanceSeconds": .number(8 * 86400)])
        #expect(status == 200)
        let set = try await sandbox.idflow(
            ["set-password", "--password-stdin"], stdin: "Str0ng-Passw0rd!", environment: ["IDFLOW_ACTIVATION_TOKEN": token])
        #expect(set.exitCode == 4, "\(set)")
    }

    @Test func activatingAnActiveUserIsE0000016Exit3() async throws {
        let sandbox = try await LiveSandbox.start()
        let (id, _) = try await sandbox.createActiveUser(email: "act@example.com")
        let again = try await sandbox.idflow(["activate", "--user", id])
        #expect(again.exitCode == 3, "\(again)")
        #expect(again.error?["errorCode"] == "E0000016")
    }

    @Test(arguments: ["00uNoSuchUser0000000", "nobody@example.com"])
    func anUnknownUserExits5(user: String) async throws {
        let sandbox = try await LiveSandbox.start()
        let result = try await sandbox.idflow(["activate", "--user", user])
        #expect(result.exitCode == 5, "\(result)")
        #expect(result.error?["errorCode"] == "E0000007")
    }

    @Test func aWrongAPITokenExits4() async throws {
        let sandbox = try await LiveSandbox.start()
        let result = try await sandbox.idflow(["register", "--email", "x@example.com"], environment: ["OKTA_CLIENT_TOKEN": "00wrong"])
        #expect(result.exitCode == 4, "\(result)")
        #expect(result.error?["errorCode"] == "E0000011")
        #expect(result.error?["hint"]?.stringValue?.contains("OKTA_CLIENT_TOKEN") == true)
    }

    @Test func aMissingAPITokenIsAUsageErrorThatSaysHowToSetIt() async throws {
        let sandbox = try await LiveSandbox.start()
        let result = try await sandbox.idflow(["register", "--email", "x@example.com"], environment: ["OKTA_CLIENT_TOKEN": ""])
        #expect(result.exitCode == 64, "\(result)")
        #expect(result.error?["hint"]?.stringValue?.contains("OKTA_CLIENT_TOKEN") == true)
    }

    @Test func passwordsAndTokensNeverReachTheVerboseTrace() async throws {
        let sandbox = try await LiveSandbox.start()
        let id = try #require(try await sandbox.idflow(["register", "--email", "v@example.com"]).json()["id"]?.stringValue)
        let activated = try await sandbox.idflow(["activate", "--user", id, "--verbose"])
        let token = try #require(try activated.json()["activationToken"]?.stringValue)
        #expect(activated.stderr.contains("/lifecycle/activate"), "the trace shows the request")
        #expect(!activated.stderr.contains(token), "the activation token leaked into the trace")
        #expect(!activated.stderr.contains(sandbox.apiToken), "the API token leaked into the trace")
        let set = try await sandbox.idflow(
            ["set-password", "--password-stdin", "-v"], stdin: "Sup3r-Secret-Pw!", environment: ["IDFLOW_ACTIVATION_TOKEN": token])
        let session = try #require(try set.json()["sessionToken"]?.stringValue)
        #expect(set.stderr.contains("POST"))
        for secret in ["Sup3r-Secret-Pw!", token, session] {
            #expect(!set.stderr.contains(secret), "a secret leaked into the trace")
        }
        #expect(set.stderr.contains("stateToken"), "the key is shown, its value masked")
    }

    func passwordFile(_ password: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pw-\(UUID().uuidString)")
        try password.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
