import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

@testable import idflow

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// register → activate → set-password as a script sees them: the JSON on stdout, the error line on stderr,
/// the exit code, and what was sent.
@Suite struct RegistrationCommandTests {
    let configuration = ["--org-url", OktaReplies.org]
    let apiToken = CLI.isolatedEnvironment(["OKTA_CLIENT_TOKEN": "ssws-token"])

    @Test func registerPrintsTheStagedUserAndSendsActivateFalse() async throws {
        let transport = RoutedTransport { request in
            request.route == "POST /api/v1/users" ? OktaReplies.user(status: "STAGED") : nil
        }
        let result = await CLI.run(
            ["register", "--email", "jo@example.com", "--first-name", "Jo", "--attr", "title=ops"] + configuration, transport: transport,
            environment: apiToken)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.json?["status"] == "STAGED")
        #expect(result.json?["id"] == "00u1")
        let sent = try #require(transport.requests.first)
        #expect(sent.query("activate") == "false")
        #expect(sent.header("Authorization") == "SSWS ssws-token")
        #expect(sent.jsonBody?["profile"]?["title"] == "ops")
        #expect(sent.jsonBody?["profile"]?["login"] == "jo@example.com")
    }

    /// `--quiet` (before or after the subcommand) and `IDFLOW_QUIET=1` drop the headline; the JSON is unchanged,
    /// and an error line still comes out.
    @Test func quietDropsTheHeadlineButNotTheResultOrTheError() async {
        let transport = RoutedTransport { request in
            request.route == "POST /api/v1/users" ? OktaReplies.user(status: "STAGED") : nil
        }
        let loud = await CLI.run(["register", "--email", "jo@example.com"] + configuration, transport: transport, environment: apiToken)
        #expect(loud.stderr.contains("registered"), "the headline a quiet run leaves out")
        for (arguments, environment) in [
            (["--quiet", "register", "--email", "jo@example.com"], apiToken), (["register", "-q", "--email", "jo@example.com"], apiToken),
            (["register", "--email", "jo@example.com"], apiToken.merging(["IDFLOW_QUIET": "1"]) { $1 }),
        ] {
            let quiet = await CLI.run(arguments + configuration, transport: transport, environment: environment)
            #expect(quiet.exitCode == 0, "\(arguments): \(quiet.stderr)")
            #expect(quiet.stderr.isEmpty, "\(arguments): \(quiet.stderr)")
            #expect(quiet.json?["id"] == "00u1")
        }
        let failing = await CLI.run(["--quiet", "register", "--email", "jo@example.com"] + configuration)
        #expect(failing.exitCode == 64)
        #expect(failing.error?["hint"]?.stringValue?.contains("OKTA_CLIENT_TOKEN") == true)
    }

    @Test func aDuplicateLoginExits3WithTheServersCause() async {
        let transport = RoutedTransport { _ in
            OktaReplies.error(
                400, code: "E0000001", summary: "Api validation failed: login", causes: ["login: An object with this field already exists"])
        }
        let result = await CLI.run(["register", "--email", "jo@example.com"] + configuration, transport: transport, environment: apiToken)
        #expect(result.exitCode == 3)
        #expect(result.stdout.isEmpty)
        #expect(result.error?["errorCode"] == "E0000001")
        #expect(result.error?["causes"] == ["login: An object with this field already exists"])
    }

    @Test func registerWithoutAnAPITokenIsAUsageErrorWithAHint() async {
        let result = await CLI.run(["register", "--email", "jo@example.com"] + configuration)
        #expect(result.exitCode == 64)
        #expect(result.error?["hint"]?.stringValue?.contains("OKTA_CLIENT_TOKEN") == true)
    }

    @Test func anAttributeWithoutEqualsIsAUsageError() async {
        let result = await CLI.run(["register", "--email", "jo@example.com", "--attr", "title"] + configuration, environment: apiToken)
        #expect(result.exitCode == 64)
    }

    @Test func activatePrintsTheTokenAndTheStatusReadBack() async {
        let transport = RoutedTransport { request in
            switch request.route {
            case "POST /api/v1/users/00u1/lifecycle/activate":
                return .json(
                    200,
                    "{\"activationUrl\":\"\(OktaReplies.org)/welcome/XE6wE17zmphl3KqAPFxO\",\"activationToken\":\"XE6wE17zmphl3KqAPFxO\"}")
            case "GET /api/v1/users/00u1": return OktaReplies.user(status: "PROVISIONED")
            default: return nil
            }
        }
        let result = await CLI.run(["activate", "--user", "00u1"] + configuration, transport: transport, environment: apiToken)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.json?["status"] == "PROVISIONED")
        #expect(result.json?["activationToken"] == "XE6wE17zmphl3KqAPFxO")
        #expect(result.json?["userId"] == "00u1")
        #expect(transport.requests.first?.query("sendEmail") == "false")
    }

    @Test func activatingAnUnknownUserExits5() async {
        let transport = RoutedTransport { _ in
            OktaReplies.error(404, code: "E0000007", summary: "Not found: Resource not found: nobody (User)")
        }
        let result = await CLI.run(["activate", "--user", "nobody"] + configuration, transport: transport, environment: apiToken)
        #expect(result.exitCode == 5)
        #expect(result.error?["errorCode"] == "E0000007")
    }

    @Test func setPasswordReadsThePasswordFromStdinAndPrintsTheSessionToken() async throws {
        let transport = RoutedTransport { request in
            switch request.route {
            case "POST /api/v1/authn":
                return .json(
                    200,
                    """
                    {"stateToken":"00state","expiresAt":"2026-11-22T10:05:00.000Z","status":"PASSWORD_RESET",
                    "_embedded":{"user":{"id":"00u1","profile":{"login":"jo@example.com"}}},
                    "_links":{"next":{"name":"resetPassword","href":"\(OktaReplies.org)/api/v1/authn/credentials/reset_password"}}}
                    """)
            case "POST /api/v1/authn/credentials/reset_password":
                return .json(
                    200,
                    """
                    {"expiresAt":"2026-11-22T10:05:00.000Z","status":"SUCCESS","sessionToken":"20111session",
                    "_embedded":{"user":{"id":"00u1","profile":{"login":"jo@example.com"}}}}
                    """)
            default: return nil
            }
        }
        let result = await CLI.run(
            ["set-password", "--activation-token-file", "/dev/null", "--password-stdin"] + configuration, transport: transport,
            stdin: "S3cret-Passw0rd!\n", environment: CLI.isolatedEnvironment())
        // /dev/null holds no token: the command must say so before anything is sent.
        #expect(result.exitCode == 64)
        #expect(transport.requests.isEmpty)

        let tokenFile = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-cli-token-\(UUID().uuidString)")
        try "XE6wE17zmphl3KqAPFxO\n".write(to: tokenFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: tokenFile) }
        let ok = await CLI.run(
            ["set-password", "--activation-token-file", tokenFile.path, "--password-stdin"] + configuration, transport: transport,
            stdin: "S3cret-Passw0rd!\n")
        #expect(ok.exitCode == 0, "\(ok.stderr)")
        #expect(ok.json?["sessionToken"] == "20111session")
        #expect(ok.json?["status"] == "SUCCESS")
        #expect(transport.requests.first?.jsonBody?["token"] == "XE6wE17zmphl3KqAPFxO")
        #expect(transport.requests.last?.jsonBody?["newPassword"] == "S3cret-Passw0rd!")
        #expect(!ok.stderr.contains("S3cret-Passw0rd!"))
    }

    @Test func aPasswordOnArgvWorksButWarns() async {
        let result = await CLI.run(["set-password", "--activation-token", "t", "--password", "p"], environment: CLI.isolatedEnvironment())
        #expect(result.stderr.contains("visible to other users in `ps`"))
    }

    /// A server whose activation publishes Okta's default complexity policy and counts what it is sent.
    static func activationServer() -> RoutedTransport {
        RoutedTransport { request in
            switch request.route {
            case "POST /api/v1/authn":
                return .json(
                    200,
                    """
                    {"stateToken":"00state","expiresAt":"2099-01-01T00:05:00.000Z","status":"PASSWORD_RESET","recoveryType":"ACCOUNT_ACTIVATION",
                    "_embedded":{"user":{"id":"00u1","profile":{"login":"jo@example.com"}},
                    "policy":{"complexity":{"minLength":8,"minLowerCase":1,"minUpperCase":1,"minNumber":1,"minSymbol":0}}},
                    "_links":{"next":{"name":"resetPassword","href":"\(OktaReplies.org)/api/v1/authn/credentials/reset_password"}}}
                    """)
            case "POST /api/v1/authn/credentials/reset_password":
                return .json(200, "{\"status\":\"SUCCESS\",\"sessionToken\":\"20111session\",\"expiresAt\":\"2099-01-01T00:05:00.000Z\"}")
            default: return nil
            }
        }
    }

    @Test func aWeakPasswordIsCaughtBeforeItIsSentAndAScriptMayRunAgainWithTheSameToken() async {
        let environment = CLI.isolatedEnvironment(["IDFLOW_ACTIVATION_TOKEN": "XE6wE17zmphl3KqAPFxO"])
        let server = Self.activationServer()
        let weak = await CLI.run(
            ["set-password", "--password-stdin"] + configuration, transport: server, stdin: "short", environment: environment)
        #expect(weak.exitCode == 3)
        #expect(weak.error?["kind"] == "password_policy")
        #expect(
            weak.error?["causes"] == [
                "Passwords must have at least 8 characters.", "Passwords must have at least one uppercase letter.",
                "Passwords must have at least one number.",
            ])
        #expect(!server.requests.contains { $0.route.hasSuffix("reset_password") }, "the weak password never left the machine")

        let strong = await CLI.run(
            ["set-password", "--password-stdin"] + configuration, transport: server, stdin: "Str0ng-Passw0rd!", environment: environment)
        #expect(strong.exitCode == 0, "\(strong.stderr)")
        #expect(server.requests.filter { $0.route == "POST /api/v1/authn" }.count == 1, "the activation token was redeemed once")
        #expect(server.requests.last?.jsonBody?["stateToken"] == "00state")
    }

    @Test func atATerminalAWeakPasswordIsAskedForAgain() async {
        let server = Self.activationServer()
        let result = await CLI.run(
            ["set-password", "--password-stdin"] + configuration, transport: server, stdin: "alllowercase",
            environment: CLI.isolatedEnvironment(["IDFLOW_ACTIVATION_TOKEN": "XE6wE17zmphl3KqAPFxO"]), terminalAnswers: ["Str0ng-Passw0rd!"]
        )
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Choose another password"))
        #expect(result.json?["sessionToken"] == "20111session")
        #expect(server.requests.filter { $0.route.hasSuffix("reset_password") }.count == 1)
    }

    @Test func theActivationLinkAndThePasswordCannotBothComeFromStdin() async {
        let result = await CLI.run(["set-password", "--activation-url-stdin", "--password-stdin"])
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("cannot both read standard input"))
    }
}
