import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

@testable import idflow

/// `api` and `token get` run in-process: what stdout, the error line and the exit code look like to a script.
@Suite struct ApiCommandTests {
    let server = FakeAuthorizationServer()
    let environment = CLI.isolatedEnvironment(["OKTA_CLIENT_ORGURL": "https://o.example.com", "OKTA_OAUTH2_CLIENTID": "0oaclient"])

    func storeLogin() throws {
        let directory = URL(fileURLWithPath: try #require(environment["IDFLOW_STATE_DIR"])).appendingPathComponent("profiles/default")
        try TokenStore(directory: directory).save(
            StoredTokens(
                issuer: server.issuer, clientId: "0oaclient",
                tokens: TokenResponse(
                    tokenType: "Bearer", accessToken: "at1", expiresIn: 3600, scope: "openid offline_access", refreshToken: "rt1",
                    idToken: server.idToken(nonce: nil)),
                expiresAt: Date().addingTimeInterval(3600), idTokenClaims: ["sub": "00u1"], savedAt: Date()))
    }

    @Test func theBodyIsPrintedAsSentAndAFailureIsTheErrorLineWithTheStatusCode() async throws {
        try storeLogin()
        let transport = server.transport { request in
            switch request.url.path {
            case "/ok": return .json(200, #"{"z":1,"a":[1.50]}"#)
            case "/gone": return .json(404, #"{"error":"not_found","error_description":"no such order"}"#)
            default: return nil
            }
        }
        let ok = await CLI.run(["api", "https://api.example.com/ok"], transport: transport, environment: environment)
        #expect(ok.exitCode == 0, "\(ok.stderr)")
        #expect(ok.stdout == "{\"z\":1,\"a\":[1.50]}\n", "key order and number spelling as the server sent them")

        let gone = await CLI.run(["api", "https://api.example.com/gone"], transport: transport, environment: environment)
        #expect(gone.exitCode == 5)
        #expect(gone.stdout.isEmpty)
        #expect(gone.error?["httpStatus"] == 404)
        #expect(gone.error?["errorCode"] == "not_found")
        #expect(gone.error?["kind"] == "resource_error")

        let included = await CLI.run(["api", "--include", "https://api.example.com/gone"], transport: transport, environment: environment)
        #expect(included.exitCode == 5)
        #expect(included.json?["status"] == 404)
        #expect(included.json?["body"]?["error"] == "not_found")
        #expect(included.error?["httpStatus"] == 404, "the error line follows the document")
    }

    @Test func tokenGetPrintsTheFourKeysAndExecCredential() async throws {
        try storeLogin()
        let result = await CLI.run(["token", "get"], transport: server.transport(), environment: environment)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.json?["access_token"] == "at1")
        #expect(result.json?["token_type"] == "Bearer")
        let credential = await CLI.run(
            ["token", "get", "--output", "exec-credential"], transport: server.transport(), environment: environment)
        #expect(credential.json?["kind"] == "ExecCredential")
        #expect(credential.json?["status"]?["token"]?.stringValue?.split(separator: ".").count == 3)
    }
}
