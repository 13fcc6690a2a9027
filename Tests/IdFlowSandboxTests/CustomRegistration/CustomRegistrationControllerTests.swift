import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JWTKit
import Testing

@testable import IdFlowSandbox

/// The Token Server's custom registration (custom-registration.md §3, §4, §6) as a client sees it on the wire.
@Suite struct CustomRegistrationControllerTests {
    static let secret = "cr-s3cret"

    static func configure(_ configuration: inout SandboxConfiguration) {
        configuration.customRegistration.clientSecret = secret
    }

    @Test func oneStepInviteCodeIssuesRealTokensOfTheDefaultServerForTheRegisteringClient() async throws {
        try await withSandbox(configure: Self.configure) { client in
            let reply = try await client.complete(
                "invite-code", ["data": #"{"code":"K7Q2","email":"ada@example.com"}"#, "profile_id": "W8DUJ2"])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.header("Cache-Control") == "no-store")
            #expect(reply.header("Content-Type") == "application/json;charset=UTF-8")
            let body = try reply.object()
            #expect(body["status"] as? Int == 2000)
            let tokens = try #require(body["oauth_token"] as? [String: Any])
            #expect(tokens["token_type"] as? String == "bearer")
            #expect(tokens["expires_in"] as? Int == 3600)
            let accessToken = try #require(tokens["access_token"] as? String)
            let idToken = try #require(tokens["id_token"] as? String)
            let refreshToken = try #require(tokens["refresh_token"] as? String)

            let keys = try await client.servedKeys()
            let access = try await keys.verify(accessToken, as: TestAccessClaims.self)
            #expect(access.cid == "0oaidflowcustomreg00")
            #expect(access.sub == "ada@example.com")
            let id = try await keys.verify(idToken, as: TestIDClaims.self)
            #expect(id.aud == "0oaidflowcustomreg00")
            #expect(id.iss?.hasSuffix("/oauth2/default") == true)

            let basic = "Basic " + Data("0oaidflowcustomreg00:\(Self.secret)".utf8).base64EncodedString()
            let introspection = try await client.postForm(
                "/oauth2/default/v1/introspect", [("token", accessToken)], headers: [.authorization: basic])
            #expect(try introspection.object()["active"] as? Bool == true)
            #expect(try introspection.object()["client_id"] as? String == "0oaidflowcustomreg00")
            let refreshed = try await client.postForm(
                "/oauth2/default/v1/token", [("grant_type", "refresh_token"), ("refresh_token", refreshToken)],
                headers: [.authorization: basic])
            #expect(refreshed.status == .ok, "\(refreshed.text)")

            let user = try await client.send(.get, "/api/v1/users/ada@example.com")
            #expect(try user.object()["status"] as? String == "ACTIVE")
        }
    }

    @Test func aWrongInviteCodeIsRecoverableInTheSameTransactionAndARevokedOneIsNot() async throws {
        try await withSandbox(configure: Self.configure) { client in
            let wrong = try await client.complete("invite-code", ["data": "NOPE", "profile_id": "ABC123"])
            let retry = try wrong.object()
            #expect(retry["status"] as? Int == 4001)
            #expect(retry["data"] as? String == "invalid code")
            #expect(retry["oauth_token"] == nil)
            let transactionID = try #require(retry["transaction_id"] as? String)
            let right = try await client.complete("invite-code", ["transaction_id": transactionID, "data": "K7Q2", "profile_id": "ABC123"])
            #expect(try right.object()["status"] as? Int == 2000)
            #expect(await !client.state.hasCustomRegistration(transactionID))

            let revoked = try await client.complete("invite-code", ["data": "REVOKED", "profile_id": "ABC123"])
            #expect(try revoked.object()["status"] as? Int == 5001)
            #expect(try revoked.object()["transaction_id"] == nil)
        }
    }

    @Test func twoStepSmsTextsACodeAndTheThirdWrongCodeEndsTheTransaction() async throws {
        try await withSandbox(configure: Self.configure) { client in
            let started = try await client.initStep("sms-otp", ["data": #"{"phone":"+31600000042"}"#])
            #expect(started.status == .ok, "\(started.text)")
            #expect(started.keysAppearInOrder(["transaction_id", "data", "status"]))
            let body = try started.object()
            #expect(body["status"] as? Int == 2000)
            #expect(body["data"] as? String == #"{"hint":"code sent to …42"}"#)
            let transactionID = try #require(body["transaction_id"] as? String)
            let outbox = try await client.send(.get, "/sandbox/outbox").array()
            let text = try #require(outbox.last)
            #expect(text["to"] as? String == "+31600000042")
            let code = try #require(text["code"] as? String)
            #expect(code.count == 6 && code.allSatisfy(\.isNumber))
            #expect(text["activationUrl"] == nil && text["sentAt"] != nil && text["subject"] != nil)

            for attempt in 1...3 {
                let wrong = try await client.complete(
                    "sms-otp", ["transaction_id": transactionID, "data": "x\(attempt)", "profile_id": "ABC123"])
                #expect(try wrong.object()["status"] as? Int == (attempt < 3 ? 4002 : 5002))
            }
            #expect(await !client.state.hasCustomRegistration(transactionID))
            let gone = try await client.complete("sms-otp", ["transaction_id": transactionID, "data": code, "profile_id": "ABC123"])
            #expect(gone.status == .badRequest)
            #expect(try gone.object()["error"] as? String == "invalid_transaction")
        }
    }

    @Test func textedCodesAndMailsShareTheOutboxWhichKeepsOnlyTheNewestThousand() async throws {
        try await withSandbox(configure: Self.configure) { client in
            try await client.createUser(email: "mailed@example.com", activate: true)
            for index in 0..<SandboxState.outboxCapacity {
                let phone = "+316\(String(format: "%08d", index))"
                #expect(try await client.initStep("sms-otp", ["data": #"{"phone":"\#(phone)"}"#]).status == .ok)
            }
            let outbox = try await client.send(.get, "/sandbox/outbox").array()
            #expect(outbox.count == 1_000)
            #expect(outbox.first?["to"] as? String == "+31600000000", "the activation mail, the oldest, made room")
            #expect(outbox.last?["to"] as? String == "+31600000999")
        }
    }

    @Test func twoStepSmsWithTheTextedCodeRegisters() async throws {
        try await withSandbox(configure: Self.configure) { client in
            let started = try await client.initStep("sms-otp", ["data": #"{"phone":"+31600000000"}"#]).object()
            let transactionID = try #require(started["transaction_id"] as? String)
            let code = try #require(try await client.send(.get, "/sandbox/outbox").array().last?["code"] as? String)
            let done = try await client.complete(
                "sms-otp", ["transaction_id": transactionID, "data": code, "profile_id": "ABC123", "scope": ["openid", "profile"]])
            let body = try done.object()
            #expect(body["status"] as? Int == 2000)
            let tokens = try #require(body["oauth_token"] as? [String: Any])
            #expect(tokens["id_token"] != nil)
            #expect(tokens["refresh_token"] == nil)
        }
    }

    @Test func initWithoutAPhoneIsRecoverableAndOpensNoTransaction() async throws {
        try await withSandbox(configure: Self.configure) { client in
            let reply = try await client.initStep("sms-otp", [:]).object()
            #expect(reply["status"] as? Int == 4003)
            #expect(reply["transaction_id"] == nil)
        }
    }

    @Test func aTransactionExpiresOnTheSandboxClockAndBelongsToItsIdentityProvider() async throws {
        try await withSandbox(configure: Self.configure) { client in
            let first = try await client.initStep("sms-otp", ["data": #"{"phone":"+31600000000"}"#]).object()
            let transactionID = try #require(first["transaction_id"] as? String)
            let elsewhere = try await client.complete(
                "invite-code", ["transaction_id": transactionID, "data": "K7Q2", "profile_id": "ABC123"])
            #expect(try elsewhere.object()["error"] as? String == "invalid_transaction")

            try await client.advanceClock(seconds: 301)
            let late = try await client.complete("sms-otp", ["transaction_id": transactionID, "data": "123456", "profile_id": "ABC123"])
            #expect(late.status == .badRequest)
            #expect(try late.object()["error"] as? String == "invalid_transaction")
        }
    }

    @Test func theAccessServiceErrorsOfSection4() async throws {
        try await withSandbox(configure: Self.configure) { client in
            let cases: [(Reply, HTTPResponse.Status, String)] = [
                (try await client.complete("nobody", ["profile_id": "ABC123"]), .notFound, "invalid_idp_identifier"),
                (try await client.complete("legacy-partner", ["profile_id": "ABC123"]), .forbidden, "idp_disabled"),
                (try await client.initStep("invite-code", [:]), .badRequest, "invalid_request"),
                (try await client.complete("sms-otp", ["profile_id": "ABC123"]), .badRequest, "invalid_request"),
                (try await client.complete("invite-code", ["data": "K7Q2"]), .badRequest, "invalid_request"),
                (try await client.complete("invite-code", ["profile_id": "ABC123", "scope": "openid"]), .badRequest, "invalid_scope"),
                (try await client.complete("invite-code", ["profile_id": "ABC123", "scope": ["admin"]]), .badRequest, "invalid_scope"),
                (try await client.complete("invite-code", ["profile_id": "ABC123"], secret: "wrong"), .badRequest, "invalid_client"),
                (
                    try await client.send(
                        .post, "/oauth/custom-registration/invite-code/complete", json: ["profile_id": "ABC123"], auth: .none),
                    .badRequest, "invalid_client"
                ),
                (
                    try await client.send(
                        .post, "/oauth/custom-registration/invite-code/complete", json: ["profile_id": "ABC123"], auth: .ssws),
                    .badRequest, "invalid_client"
                ),
            ]
            for (reply, status, error) in cases {
                #expect(reply.status == status, "\(reply.text)")
                #expect(try reply.object()["error"] as? String == error)
                #expect(try reply.object()["error_description"] is String)
            }
        }
    }

    @Test func sandboxInfoNamesTheClientAndTheIdentityProvidersBehindSSWS() async throws {
        try await withSandbox(configure: Self.configure) { client in
            let info = try await client.send(.get, "/sandbox/info")
            #expect(info.keysAppearInOrder(["orgUrl", "issuer", "apiToken", "clientId", "redirectUri", "customRegistration"]))
            let registration = try #require(try info.object()["customRegistration"] as? [String: Any])
            #expect(registration["clientId"] as? String == "0oaidflowcustomreg00")
            #expect(registration["clientSecret"] as? String == Self.secret)
            let providers = try #require(registration["identityProviders"] as? [[String: Any]])
            #expect(providers.map { $0["id"] as? String } == ["invite-code", "sms-otp", "legacy-partner"])
            #expect(providers.map { $0["type"] as? String } == ["ONE_STEP", "TWO_STEP", "ONE_STEP"])
            #expect(providers.map { $0["enabled"] as? Bool } == [true, true, false])
            #expect(try await client.send(.get, "/sandbox/info", auth: .none).status == .unauthorized)
        }
    }

    @Test func theConfigurationFileReplacesTheClientAndScriptsAnIdentityProvider() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cr-\(UUID().uuidString).json")
        try Data(
            #"""
            {"customRegistration": {"clientId": "app1", "clientSecret": "s3cret", "transactionLifetimeSeconds": 60,
              "identityProviders": [{"id": "New2step", "type": "TWO_STEP",
                "init": [{"status": 2000, "data": "12345"}],
                "complete": [{"whenData": "12345", "status": 2000, "email": "new@example.com"}, {"status": 4001, "data": "wrong code"}]}]}}
            """#.utf8
        ).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var configuration = try SandboxConfiguration.load(from: file)
        #expect(configuration.customRegistration.clientId == "app1")
        // The 60 s transaction is judged on the sandbox clock, which stands still here: a loaded machine that takes a
        // minute between the steps (it has) does not end it.
        configuration.freezeClock = true
        let state = SandboxState(configuration: configuration)
        try await buildApplication(configuration: configuration, state: state).test(.router) { testClient in
            let client = SandboxClient(client: testClient, state: state)
            let started = try await client.initStep("New2step", [:], id: "app1", secret: "s3cret").object()
            #expect(started["data"] as? String == "12345")
            let transactionID = try #require(started["transaction_id"] as? String)
            let wrong = try await client.complete(
                "New2step", ["transaction_id": transactionID, "data": "1", "profile_id": "ABC123"], id: "app1", secret: "s3cret")
            #expect(try wrong.object()["data"] as? String == "wrong code")
            let right = try await client.complete(
                "New2step", ["transaction_id": transactionID, "data": "12345", "profile_id": "ABC123"], id: "app1", secret: "s3cret")
            #expect(try right.object()["status"] as? Int == 2000)
            #expect(try await client.complete("invite-code", ["profile_id": "ABC123"], id: "app1", secret: "s3cret").status == .notFound)
        }
    }
}

extension SandboxClient {
    fileprivate func initStep(
        _ idp: String, _ body: [String: Any], id: String = "0oaidflowcustomreg00", secret: String = CustomRegistrationControllerTests.secret
    ) async throws -> Reply {
        try await send(.post, "/oauth/custom-registration/\(idp)/init", json: body, auth: .header(Self.basic(id, secret)))
    }

    fileprivate func complete(
        _ idp: String, _ body: [String: Any], id: String = "0oaidflowcustomreg00", secret: String = CustomRegistrationControllerTests.secret
    ) async throws -> Reply {
        try await send(.post, "/oauth/custom-registration/\(idp)/complete", json: body, auth: .header(Self.basic(id, secret)))
    }

    private static func basic(_ id: String, _ secret: String) -> String {
        "Basic " + Data("\(id):\(secret)".utf8).base64EncodedString()
    }
}
