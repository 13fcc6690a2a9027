import Foundation
import HTTPTypes
import IdFlowSandbox
import Testing

/// Direct Authentication's primary OOB: `/primary-authenticate` and `/oob-authenticate`, the push through the push
/// authenticator family, the number challenge, SMS and voice codes from the outbox, and polling by the sandbox clock.
@Suite("direct auth: OOB")
struct DirectAuthOOBTests {
    static let pendingText = "No user response received on the out-of-band authenticator yet. Continue polling to wait for a response."

    @Test("a push answers as recorded on the org and a custom server, and its challenge waits on the device")
    func pushShape() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "ada@example.com")
            for base in ["/oauth2/v1", "/oauth2/default/v1"] {
                let reply = try await api.primaryAuthenticate("ada@example.com", base: base)
                #expect(reply.status == .ok, "\(reply.text)")
                #expect(reply.header("Content-Type") == "application/json")
                try reply.expectKeys(ofRecording: "swift-directauth-primary-authenticate.json")
                #expect(reply.keysAppearInOrder(["oob_code", "expires_in", "interval", "channel", "binding_method"]))
                let body = try reply.object()
                #expect(body["expires_in"] as? Int == 300 && body["interval"] as? Int == 5)
                #expect(body["channel"] as? String == "push" && body["binding_method"] as? String == "none")
                let oobCode = try #require(body["oob_code"] as? String)
                #expect(oobCode.hasPrefix("ft") && oobCode.count == 34)
            }
            #expect(try await api.pendingChallenges(device).count == 2)
            let older = try await api.postForm(
                "/oauth2/default/v1/oob-authenticate",
                [("client_id", SandboxClient.directAuthClient), ("login_hint", "ada@example.com"), ("channel_hint", "push")])
            #expect(older.status == .ok, "\(older.text)")
            try older.expectKeys(ofRecording: "swift-directauth-primary-authenticate.json")
        }
    }

    @Test("polling: pending, slow_down only sooner than the interval by the sandbox clock (and counted), then the tokens")
    func pollingApproved() async throws {
        try await withSandbox(configure: { $0.freezeClock = true }) { api in
            let device = try await api.enrollDevice(email: "ada@example.com")
            let oobCode = try #require(try await api.primaryAuthenticate("ada@example.com").object()["oob_code"] as? String)
            let first = try await api.pollOOB(oobCode)
            try first.expectDirectAuthError(.badRequest, "authorization_pending", Self.pendingText)
            try first.expectKeys(ofRecording: "kotlin-authorization-pending.json")
            let tooSoon = try await api.pollOOB(oobCode)
            try tooSoon.expectDirectAuthError(.badRequest, "slow_down", "Slow down the polling frequency. Please try again later.")
            try tooSoon.expectKeys(ofRecording: "swift-oauth2auth-token-slow_down.json")
            #expect(try await api.records()["directAuthSlowDowns"] as? Int == 1)
            try await api.advanceClock(seconds: 5)
            try await api.pollOOB(oobCode).expectDirectAuthError(.badRequest, "authorization_pending", Self.pendingText)
            #expect(try await api.records()["directAuthSlowDowns"] as? Int == 1)

            #expect(try await api.answerPush(device).status == .ok)
            try await api.advanceClock(seconds: 5)
            let tokens = try await api.pollOOB(oobCode)
            #expect(tokens.status == .ok, "\(tokens.text)")
            #expect(tokens.header("Content-Type") == "application/json")
            try tokens.expectKeys(ofRecording: "swift-directauth-token.json")
            try tokens.expectKeys(ofRecording: "kotlin-token-response.json")
            #expect(try tokens.amr() == ["swk"])
            #expect(try tokens.object()["scope"] as? String == "openid profile offline_access")
            try await api.advanceClock(seconds: 5)
            try await api.pollOOB(oobCode).expectDirectAuthError(
                .forbidden, "access_denied", "'oob_code' has expired. Use a new 'oob_code' and try again.")
        }
    }

    @Test("a denied push is invalid_grant; an unanswered one expires after expires_in (configurable)")
    func deniedAndExpired() async throws {
        try await withSandbox(configure: {
            $0.freezeClock = true
            $0.directAuth.expiresInSeconds = 60
            $0.directAuth.intervalSeconds = 2
        }) { api in
            let device = try await api.enrollDevice(email: "ada@example.com")
            let denied = try await api.primaryAuthenticate("ada@example.com").object()
            #expect(denied["expires_in"] as? Int == 60 && denied["interval"] as? Int == 2)
            #expect(try await api.answerPush(device, consent: "DENIED_CONSENT_PROMPT").status == .noContent)
            try await api.pollOOB(try #require(denied["oob_code"] as? String)).expectDirectAuthError(
                .badRequest, "invalid_grant", "User rejected out-of-band authentication prompt.")

            let late = try #require(try await api.primaryAuthenticate("ada@example.com").object()["oob_code"] as? String)
            try await api.advanceClock(seconds: 61)
            try await api.pollOOB(late).expectDirectAuthError(
                .forbidden, "access_denied", "'oob_code' has expired. Use a new 'oob_code' and try again.")
            try await api.pollOOB("ftnever-issued").expectDirectAuthError(
                .forbidden, "access_denied", "'oob_code' has expired. Use a new 'oob_code' and try again.")
        }
    }

    @Test("numberChallenge: binding_method transfer, the number among the device's choices, approved with it")
    func numberChallenge() async throws {
        try await withSandbox(configure: {
            $0.freezeClock = true
            $0.directAuth.numberChallenge = true
        }) { api in
            let device = try await api.enrollDevice(email: "ada@example.com")
            let reply = try await api.primaryAuthenticate("ada@example.com")
            try reply.expectKeys(ofRecording: "swift-directauth-primary-authenticate-binding-transfer.json")
            let body = try reply.object()
            #expect(body["binding_method"] as? String == "transfer")
            let number = try #require(body["binding_code"] as? String)
            let challenge = try #require(try await api.pendingChallenges(device).first)
            let context = try #require(try jwtClaims(challenge)["challengeContext"] as? [String: Any])
            #expect((context["challengeTextItems"] as? [String])?.contains(number) == true)
            #expect(try await api.answerPush(device, number: number).status == .ok)
            let tokens = try await api.pollOOB(try #require(body["oob_code"] as? String))
            #expect(tokens.status == .ok, "\(tokens.text)")
        }
    }

    @Test("SMS and voice: binding_method prompt, the code in the outbox, a wrong code refused, the right one signs in")
    func phoneCodes() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "ada@example.com")
            try await api.giveRecoveryFactors("ada@example.com", phone: "+14155550100")
            let voice = try await api.primaryAuthenticate("ada@example.com", channel: "voice")
            try voice.expectKeys(ofRecording: "kotlin-oob-authenticate-voice-response.json")
            #expect(try await api.lastMessage(to: "+14155550100")["channel"] as? String == "voice")

            let reply = try await api.primaryAuthenticate("ada@example.com", channel: "sms")
            #expect(reply.status == .ok, "\(reply.text)")
            try reply.expectKeys(ofRecording: "kotlin-oob-authenticate-sms-response.json")
            let body = try reply.object()
            #expect(body["binding_method"] as? String == "prompt" && body["interval"] == nil)
            let oobCode = try #require(body["oob_code"] as? String)
            let message = try await api.lastMessage(to: "+14155550100")
            #expect(message["channel"] as? String == "sms")
            let code = try #require(message["code"] as? String)
            let scope = ("scope", "openid")
            let wrong = try await api.directToken(SandboxClient.oobGrant, [("oob_code", oobCode), ("binding_code", "000000"), scope])
            try wrong.expectDirectAuthError(
                .badRequest, "invalid_grant", "The 'otp' provided is either empty or incorrect. Use the correct OTP and try again.")
            let right = try await api.directToken(SandboxClient.oobGrant, [("oob_code", oobCode), ("binding_code", code), scope])
            #expect(right.status == .ok, "\(right.text)")
            #expect(try right.amr() == ["sms"])
            #expect(try right.object()["refresh_token"] == nil)
        }
    }

    @Test("primary-authenticate refuses bad hints, unknown users and users without the authenticator, as catalogued")
    func startErrors() async throws {
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "ada@example.com")
            try await api.primaryAuthenticate("ada@example.com", channel: "email").expectDirectAuthError(
                .badRequest, "invalid_request", "'email' is not supported as a 'channel_hint'. Try again with another value.")
            try await api.primaryAuthenticate("", channel: "push").expectDirectAuthError(
                .badRequest, "invalid_request", "A 'login_hint' is required for the request.")
            try await api.primaryAuthenticate("nobody@example.com").expectDirectAuthError(
                .badRequest, "invalid_grant", "The 'login_hint' does not uniquely identify a user.")
            try await api.primaryAuthenticate("ada@example.com").expectDirectAuthError(
                .forbidden, "access_denied",
                "The required authenticator cannot be used. Check if it is required by policy and the user is enrolled in the "
                    + "authenticator and try again.")
            let webauthn = try await api.postForm(
                "/oauth2/v1/primary-authenticate",
                [("client_id", SandboxClient.directAuthClient), ("login_hint", "ada@example.com"), ("challenge_hint", "password")])
            try webauthn.expectDirectAuthError(
                .badRequest, "invalid_request", "'password' is not supported as a 'challenge_hint'. Try again with another value.")
            let noClient = try await api.postForm("/oauth2/v1/primary-authenticate", [("login_hint", "ada@example.com")])
            #expect(noClient.status == .unauthorized && noClient.header("Content-Type") == "application/json")
            // The token endpoint refuses an unknown client before it reads the grant: still without a charset.
            let unknownClient = try await api.directToken(
                SandboxClient.otpGrant, [("login_hint", "ada@example.com"), ("otp", "123456")], client: "0oanobody")
            #expect(unknownClient.status == .unauthorized && unknownClient.header("Content-Type") == "application/json")
            let unknownServer = try await api.primaryAuthenticate("ada@example.com", base: "/oauth2/nope/v1")
            #expect(unknownServer.status == .notFound)
        }
    }

    @Test("an oob_code is bound to its authorization server")
    func boundToServer() async throws {
        try await withSandbox { api in
            _ = try await api.enrollDevice(email: "ada@example.com")
            let oobCode = try #require(try await api.primaryAuthenticate("ada@example.com").object()["oob_code"] as? String)
            try await api.pollOOB(oobCode, base: "/oauth2/v1").expectDirectAuthError(
                .badRequest, "invalid_request",
                "The authorization server id 'org' in the url_path parameter does not match the authorization server id in the "
                    + "original request 'default'. Use the original authorization server id and try again.")
        }
    }
}
