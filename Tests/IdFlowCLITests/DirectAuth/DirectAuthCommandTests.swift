import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation
@testable import idflow

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `login-direct` run as the command, against a scripted authorization server: what stdout, stderr and the exit
/// code say, and the prompts a person at a terminal answers.
@Suite struct DirectAuthCommandTests {
    static let configuration = ["--org-url", OktaReplies.org, "--client-id", "0oaclient", "--scope", "profile offline_access"]
    static let base = "/oauth2/default/v1"

    static let tokens = RoutedTransport.Reply.json(
        200,
        #"{"token_type":"Bearer","expires_in":3600,"access_token":"at1","scope":"profile offline_access","refresh_token":"rt1"}"#)
    static let mfaRequired = RoutedTransport.Reply.json(
        403,
        #"{"error":"mfa_required","error_description":"Verify with an additional authenticator.","mfa_token":"mfa1","supported_challenge_types":"http://auth0.com/oauth/grant-type/mfa-otp http://auth0.com/oauth/grant-type/mfa-oob"}"#
    )

    /// Discovery, the routes given, and the token endpoint answering `tokenAnswers` in order (the last repeats).
    static func server(_ routes: [String: RoutedTransport.Reply], tokenAnswers: [RoutedTransport.Reply] = [tokens]) -> RoutedTransport {
        let remaining = Locked(tokenAnswers)
        return RoutedTransport { request in
            if request.route == "GET /oauth2/default/.well-known/openid-configuration" {
                return FakeAuthorizationServer.discovery(issuer: OktaReplies.issuer)
            }
            if let reply = routes[request.route] { return reply }
            guard request.route == "POST \(base)/token" else { return nil }
            if request.formBody["grant_type"] == "refresh_token" { return tokens }
            return remaining.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
        }
    }

    @Test func quietStillShowsTheNumberAndTheLoginIsStored() async throws {
        let environment = CLI.isolatedEnvironment()
        let server = Self.server([
            "POST \(Self.base)/primary-authenticate": .json(
                200,
                #"{"oob_code":"ft1","expires_in":120,"interval":5,"channel":"push","binding_method":"transfer","binding_code":"37"}"#)
        ])
        let login = await CLI.run(
            ["--quiet", "login-direct", "--username", "jo@example.com", "--oob", "push"] + Self.configuration, transport: server,
            environment: environment)
        #expect(login.exitCode == 0, "\(login.stderr)")
        #expect(login.stderr.contains("Pick 37 on the phone"), "\(login.stderr)")
        #expect(!login.stderr.contains("Waiting for the push"), "\(login.stderr)")
        #expect(login.json?["access_token"] == "at1")
        #expect(login.json?["binding"] == ["method": "transfer", "number": "37"])
        let refresh = await CLI.run(["refresh"] + Self.configuration, transport: server, environment: environment)
        #expect(refresh.exitCode == 0, "stored like any login: \(refresh.stderr)")
    }

    @Test func atATerminalTheSecondFactorAndItsCodeAreAskedFor() async throws {
        let server = Self.server(
            ["POST \(Self.base)/challenge": .json(200, #"{"challenge_type":"http://auth0.com/oauth/grant-type/mfa-otp"}"#)],
            tokenAnswers: [Self.mfaRequired, Self.tokens])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("direct-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let passwordFile = directory.appendingPathComponent("pw")
        try "pw-1".write(to: passwordFile, atomically: true, encoding: .utf8)
        let login = await CLI.run(
            ["login-direct", "--username", "jo", "--password-file", passwordFile.path, "--no-store"] + Self.configuration,
            transport: server, terminalAnswers: ["otp", "654321"])
        #expect(login.exitCode == 0, "\(login.stderr)")
        let last = try #require(server.requests.last { $0.route == "POST \(Self.base)/token" })
        #expect(last.formBody["grant_type"] == DirectAuthGrant.mfaOTP.rawValue)
        #expect(last.formBody["otp"] == "654321" && last.formBody["mfa_token"] == "mfa1")
    }

    @Test func aSecondFactorNoScriptChoseIsExit3WithTheChoices() async throws {
        let server = Self.server([:], tokenAnswers: [Self.mfaRequired])
        let login = await CLI.run(
            ["login-direct", "--username", "jo", "--password-stdin"] + Self.configuration, transport: server, stdin: "pw-1")
        #expect(login.exitCode == 3, "\(login.stderr)")
        #expect(login.stdout.isEmpty)
        #expect(login.error?["hint"]?.stringValue?.contains("--mfa otp|push|sms|voice") == true, "\(login.stderr)")
    }

    @Test func aGrantTheAppMayNotUseIsExit4NamingItForTheConsole() async {
        let refusal = RoutedTransport.Reply.json(
            400,
            #"{"error":"unsupported_grant_type","error_description":"The authorization grant type is not supported by the authorization server. Configured grant types: [password]."}"#
        )
        let login = await CLI.run(
            ["login-direct", "--username", "jo", "--oob", "push"] + Self.configuration,
            transport: Self.server(["POST \(Self.base)/primary-authenticate": refusal]))
        #expect(login.exitCode == 4, "\(login.stderr)")
        #expect(login.error?["hint"]?.stringValue?.contains("\"OOB\"") == true, "\(login.stderr)")
        #expect(login.error?["hint"]?.stringValue?.contains("admin console") == true)
    }
}
