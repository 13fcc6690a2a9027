import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import JWTKit
import Testing

/// The device authorization grant: `/v1/device/authorize`, `{org}/activate`, `POST /sandbox/device`, and the
/// token endpoint's `urn:ietf:params:oauth:grant-type:device_code` grant.
@Suite("device authorization grant")
struct DeviceControllerTests {
    static let clientID = "0oaidflowsandbox0000"
    static var userCodePattern: Regex<Substring> { /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/ }

    @Test("device/authorize answers Okta's shape on both authorization servers, never cached")
    func authorizationShape() async throws {
        try await withSandbox { api in
            let orgURL = await api.state.orgURL
            for base in ["/oauth2/default/v1", "/oauth2/v1"] {
                let reply = try await api.deviceAuthorize(base: base)
                #expect(reply.status == .ok, "\(reply.text)")
                #expect(reply.header("Cache-Control") == "no-store")
                #expect(
                    reply.keysAppearInOrder([
                        "device_code", "user_code", "verification_uri", "verification_uri_complete", "expires_in", "interval",
                    ]))
                let body = try reply.object()
                let userCode = try #require(body["user_code"] as? String)
                #expect(userCode.wholeMatch(of: Self.userCodePattern) != nil, "\(userCode)")
                #expect((body["device_code"] as? String)?.count == 43)
                #expect(body["verification_uri"] as? String == "\(orgURL)/activate")
                #expect(body["verification_uri_complete"] as? String == "\(orgURL)/activate?user_code=\(userCode)")
                #expect(body["expires_in"] as? Int == 600)
                #expect(body["interval"] as? Int == 5)
            }
        }
    }

    @Test("deviceIntervalSeconds sets the interval; below 1 is refused")
    func configuredInterval() async throws {
        try await withSandbox(configure: { $0.deviceIntervalSeconds = 1 }) { api in
            let body = try await api.deviceAuthorize().object()
            #expect(body["interval"] as? Int == 1)
        }
        var configuration = SandboxConfiguration()
        configuration.deviceIntervalSeconds = 0
        #expect(throws: SandboxConfigurationError.self) { try configuration.validate() }
    }

    @Test("device/authorize refuses a missing or unknown client, the confidential client, and bad scopes")
    func authorizationErrors() async throws {
        try await withSandbox(configure: {
            $0.confidentialClientId = "0oaconfidential00000"
            $0.confidentialClientSecret = "s3cret"
        }) { api in
            let path = "/oauth2/default/v1/device/authorize"
            let noClient = try await api.postForm(path, [("scope", "openid")])
            #expect(noClient.status == .unauthorized)
            #expect(try noClient.object()["error"] as? String == "invalid_client")
            let unknown = try await api.postForm(path, [("client_id", "0oanobody"), ("scope", "openid")])
            #expect(try unknown.object()["error"] as? String == "invalid_client")

            let basic = "Basic " + Data("0oaconfidential00000:s3cret".utf8).base64EncodedString()
            let web = try await api.postForm(path, [("scope", "openid")], headers: [.authorization: basic])
            #expect(web.status == .badRequest)
            #expect(try web.object()["error"] as? String == "unauthorized_client")

            for scope in ["", "profile", "openid launch_missiles"] {
                let reply = try await api.deviceAuthorize(scope: scope)
                #expect(reply.status == .badRequest, "scope '\(scope)'")
                #expect(try reply.object()["error"] as? String == "invalid_scope", "scope '\(scope)'")
            }

            let otherServer = try await api.postForm(
                "/oauth2/nope/v1/device/authorize", [("client_id", Self.clientID), ("scope", "openid")])
            #expect(otherServer.status == .notFound)
            #expect(try otherServer.oktaError().code == "E0000007")
            let get = try await api.send(.get, path, auth: .none)
            #expect(get.status == .methodNotAllowed)
        }
    }

    @Test("polling: pending, slow_down when sooner than the interval (which grows by 5 s), then the tokens exactly once")
    func pollingToTokens() async throws {
        // A clock that moves only when told, so "too soon" stays too soon however slowly a loaded machine answers.
        try await withSandbox(configure: {
            $0.deviceIntervalSeconds = 60
            $0.freezeClock = true
        }) { api in
            let (userId, _) = try await api.registerActiveUser(email: "tv@example.com")
            let started = try await api.deviceAuthorize(scope: "openid profile offline_access").object()
            let deviceCode = try #require(started["device_code"] as? String)
            let userCode = try #require(started["user_code"] as? String)

            #expect(try await api.pollDevice(deviceCode).oauthError == "authorization_pending")
            let tooSoon = try await api.pollDevice(deviceCode)
            #expect(tooSoon.reply.status == .badRequest)
            #expect(tooSoon.oauthError == "slow_down")
            try await api.advanceClock(seconds: 61)
            #expect(try await api.pollDevice(deviceCode).oauthError == "slow_down", "the interval is 65 s now")
            try await api.advanceClock(seconds: 70)
            #expect(try await api.pollDevice(deviceCode).oauthError == "authorization_pending")

            let decided = try await api.send(
                .post, "/sandbox/device", json: ["userCode": userCode.lowercased(), "login": "tv@example.com", "decision": "approve"])
            #expect(decided.status == .ok, "\(decided.text)")
            let decision = try decided.object()
            #expect(decision["status"] as? String == "APPROVED")
            #expect(decision["userCode"] as? String == userCode)
            #expect(decision["userId"] as? String == userId)

            try await api.advanceClock(seconds: 70)
            let tokens = try await api.pollDevice(deviceCode)
            #expect(tokens.reply.status == .ok, "\(tokens.reply.text)")
            #expect(tokens.reply.header("Cache-Control") == "no-store")
            let body = try tokens.reply.object()
            #expect(body["token_type"] as? String == "Bearer")
            #expect(body["scope"] as? String == "openid profile offline_access")
            #expect(body["refresh_token"] is String)
            let keys = try await api.servedKeys()
            let idToken = try await keys.verify(try #require(body["id_token"] as? String), as: TestIDClaims.self)
            #expect(idToken.sub == userId)
            #expect(idToken.aud == Self.clientID)
            #expect(idToken.nonce == nil, "the device grant carries no nonce")
            #expect(idToken.at_hash != nil)

            try await api.advanceClock(seconds: 70)
            let again = try await api.pollDevice(deviceCode)
            #expect(again.oauthError == "invalid_grant", "tokens are issued once per device code")

            // The refresh token of a device login works like any other.
            let refreshed = try await api.refresh(try #require(body["refresh_token"] as? String))
            #expect(refreshed.status == .ok, "\(refreshed.text)")
        }
    }

    @Test("a denied code answers access_denied to every later poll")
    func denied() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "no@example.com")
            let started = try await api.deviceAuthorize().object()
            let deviceCode = try #require(started["device_code"] as? String)
            let reply = try await api.send(
                .post, "/sandbox/device",
                json: ["userCode": try #require(started["user_code"] as? String), "login": "no@example.com", "decision": "deny"])
            #expect(try reply.object()["status"] as? String == "DENIED")
            #expect(try await api.pollDevice(deviceCode).oauthError == "access_denied")
            try await api.advanceClock(seconds: 10)
            #expect(try await api.pollDevice(deviceCode).oauthError == "access_denied")
        }
    }

    @Test("after 600 s on the sandbox clock the code is expired_token, even if approved, and can no longer be answered")
    func expiry() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "late@example.com")
            let started = try await api.deviceAuthorize().object()
            let deviceCode = try #require(started["device_code"] as? String)
            let userCode = try #require(started["user_code"] as? String)
            // The sandbox clock also runs in real time: a minute's margin keeps a loaded machine from expiring the code early.
            try await api.advanceClock(seconds: 540)
            #expect(try await api.pollDevice(deviceCode).oauthError == "authorization_pending")
            let approved = try await api.send(
                .post, "/sandbox/device", json: ["userCode": userCode, "login": "late@example.com", "decision": "approve"])
            #expect(approved.status == .ok)
            try await api.advanceClock(seconds: 61)
            let expired = try await api.pollDevice(deviceCode)
            #expect(expired.reply.status == .badRequest)
            #expect(expired.oauthError == "expired_token")

            let late = try await api.send(
                .post, "/sandbox/device", json: ["userCode": userCode, "login": "late@example.com", "decision": "deny"])
            #expect(late.status == .notFound)
            #expect(try late.oktaError().code == "E0000007")
            let page = try await api.send(.get, "/activate?user_code=\(userCode)", auth: .none)
            #expect(page.status == .badRequest)
            #expect(page.text.contains("invalid, has expired"))
        }
    }

    @Test("the token endpoint refuses a device code of another client or server, a missing one, and the confidential client")
    func pollErrors() async throws {
        try await withSandbox(configure: {
            $0.confidentialClientId = "0oaconfidential00000"
            $0.confidentialClientSecret = "s3cret"
        }) { api in
            let deviceCode = try #require(try await api.deviceAuthorize().object()["device_code"] as? String)
            #expect(try await api.pollDevice(deviceCode, base: "/oauth2/v1").oauthError == "invalid_grant")
            #expect(try await api.pollDevice("not-a-device-code").oauthError == "invalid_grant")
            let missing = try await api.postForm(
                "/oauth2/default/v1/token", [("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("client_id", Self.clientID)])
            #expect(try missing.object()["error"] as? String == "invalid_request")
            let basic = "Basic " + Data("0oaconfidential00000:s3cret".utf8).base64EncodedString()
            let web = try await api.postForm(
                "/oauth2/default/v1/token", [("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("device_code", deviceCode)],
                headers: [.authorization: basic])
            #expect(try web.object()["error"] as? String == "unauthorized_client")
        }
    }

    @Test("POST /sandbox/device needs the API token and a known code, user and decision; a code is answered once")
    func adminDecisionErrors() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "ok@example.com")
            _ = try await api.createUser(email: "staged@example.com")
            let userCode = try #require(try await api.deviceAuthorize().object()["user_code"] as? String)
            let good: [String: Any] = ["userCode": userCode, "login": "ok@example.com", "decision": "approve"]

            let anonymous = try await api.send(.post, "/sandbox/device", json: good, auth: .none)
            #expect(anonymous.status == .unauthorized)
            #expect(try anonymous.oktaError().code == "E0000011")
            let unknownCode = try await api.send(.post, "/sandbox/device", json: good.merging(["userCode": "BBBB-BBBB"]) { $1 })
            #expect(unknownCode.status == .notFound)
            let badDecision = try await api.send(.post, "/sandbox/device", json: good.merging(["decision": "maybe"]) { $1 })
            #expect(badDecision.status == .badRequest)
            #expect(try badDecision.oktaError().code == "E0000001")
            let noLogin = try await api.send(.post, "/sandbox/device", json: ["userCode": userCode, "decision": "approve"])
            #expect(try noLogin.oktaError().code == "E0000001")
            let nobody = try await api.send(.post, "/sandbox/device", json: good.merging(["login": "nobody@example.com"]) { $1 })
            #expect(nobody.status == .notFound)
            let staged = try await api.send(.post, "/sandbox/device", json: good.merging(["login": "staged@example.com"]) { $1 })
            #expect(staged.status == .forbidden)
            #expect(try staged.oktaError().code == "E0000038")

            #expect(try await api.send(.post, "/sandbox/device", json: good).status == .ok)
            let twice = try await api.send(.post, "/sandbox/device", json: good.merging(["decision": "deny"]) { $1 })
            #expect(twice.status == .badRequest)
            #expect(try twice.oktaError().causes == ["userCode: this code was already approved"])
        }
    }

    @Test("/activate: the code entry, then the /authorize sign-in form; a wrong password shows it again, a right one approves")
    func activatePageApproves() async throws {
        try await withSandbox { api in
            let (userId, _) = try await api.registerActiveUser(email: "web@example.com")
            let started = try await api.deviceAuthorize().object()
            let deviceCode = try #require(started["device_code"] as? String)
            let userCode = try #require(started["user_code"] as? String)
            let orgURL = await api.state.orgURL

            let entry = try await api.send(.get, "/activate", auth: .none)
            #expect(entry.status == .ok)
            #expect(entry.text.contains(#"name="user_code""#))
            let typed = userCode.lowercased().replacingOccurrences(of: "-", with: " ")
            let page = try await api.send(.get, "/activate?user_code=\(formEscape(typed))", auth: .none)
            #expect(page.status == .ok)
            #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(page.text.contains(#"name="txn" value="\#(userCode)""#), "the code is normalized")
            #expect(page.text.contains(#"action="\#(orgURL)/activate/signin""#))
            #expect(page.text.contains(#"name="decision" value="approve""#) && page.text.contains(#"name="decision" value="deny""#))

            let wrong = try await api.postForm(
                "/activate/signin", [("txn", userCode), ("username", "web@example.com"), ("password", "nope")])
            #expect(wrong.status == .ok)
            #expect(wrong.text.contains("Sign-in failed"))
            #expect(try await api.pollDevice(deviceCode).oauthError == "authorization_pending")

            let right = try await api.postForm(
                "/activate/signin", [("txn", userCode), ("username", "web@example.com"), ("password", "Correct-Horse-7")])
            #expect(right.status == .ok)
            #expect(right.text.contains(#"<h1 id="result">approved</h1>"#))
            try await api.advanceClock(seconds: 5)
            let tokens = try await api.pollDevice(deviceCode)
            #expect(tokens.reply.status == .ok, "\(tokens.reply.text)")
            let idToken = try await api.servedKeys().verify(
                try #require(try tokens.reply.object()["id_token"] as? String), as: TestIDClaims.self)
            #expect(idToken.sub == userId)

            let reused = try await api.postForm(
                "/activate/signin", [("txn", userCode), ("username", "web@example.com"), ("password", "Correct-Horse-7")])
            #expect(reused.status == .badRequest, "an answered code cannot be answered again")
        }
    }

    @Test("/activate: the deny button denies")
    func activatePageDenies() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "deny@example.com")
            let started = try await api.deviceAuthorize().object()
            let deviceCode = try #require(started["device_code"] as? String)
            let reply = try await api.postForm(
                "/activate/signin",
                [
                    ("txn", try #require(started["user_code"] as? String)), ("username", "deny@example.com"),
                    ("password", "Correct-Horse-7"), ("decision", "deny"),
                ])
            #expect(reply.text.contains(#"<h1 id="result">denied</h1>"#))
            #expect(try await api.pollDevice(deviceCode).oauthError == "access_denied")
        }
    }

    @Test("an expired device code is kept for an hour (expired_token), then purged by the next sweep (invalid_grant)")
    func purge() async throws {
        try await withSandbox { api in
            let deviceCode = try #require(try await api.deviceAuthorize().object()["device_code"] as? String)
            #expect(await api.state.recordCounts()["deviceAuthorizations"] == 1)
            try await api.advanceClock(seconds: 600 + 3500)
            #expect(try await api.pollDevice(deviceCode).oauthError == "expired_token")
            #expect(await api.state.recordCounts()["deviceAuthorizations"] == 1)
            try await api.advanceClock(seconds: 200)
            _ = try await api.deviceAuthorize()
            #expect(await api.state.recordCounts()["deviceAuthorizations"] == 1, "only the new one is left")
            #expect(try await api.pollDevice(deviceCode).oauthError == "invalid_grant")
        }
    }
}

/// One answer of the token endpoint to a device-code poll.
struct DevicePoll {
    let reply: Reply
    var oauthError: String? { (try? reply.object())?["error"] as? String }
}

extension SandboxClient {
    func deviceAuthorize(base: String = "/oauth2/default/v1", scope: String = "openid profile email offline_access") async throws
        -> Reply
    {
        try await postForm("\(base)/device/authorize", [("client_id", DeviceControllerTests.clientID), ("scope", scope)])
    }

    func pollDevice(_ deviceCode: String, base: String = "/oauth2/default/v1") async throws -> DevicePoll {
        DevicePoll(
            reply: try await postForm(
                "\(base)/token",
                [
                    ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("device_code", deviceCode),
                    ("client_id", DeviceControllerTests.clientID),
                ]))
    }
}
