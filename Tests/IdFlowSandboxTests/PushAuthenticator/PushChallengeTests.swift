import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import JWTKit
import Testing

@Suite("Push challenges: minting, the pending list, /sandbox/push and the verify endpoint")
struct PushChallengeTests {
    @Test("a challenge is an RS256 okta-pushbind+jwt signed by the org key in its JWKS, with the claims of §5b")
    func challengeJWT() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "mint@example.com")
            let tx = try await api.push(device)
            let challenge = try #require(try await api.pendingChallenges(device).first)
            let header = try jwtHeader(challenge)
            #expect(header["alg"] as? String == "RS256")
            #expect(header["typ"] as? String == "okta-pushbind+jwt")
            let keys = try await api.servedKeys(base: "/oauth2/v1")
            let verified = try await keys.verify(challenge, as: TestChallengeClaims.self)
            #expect(verified.iss == (await api.state.orgURL))
            #expect(verified.aud == "0oaidflowsandbox0000")
            #expect(verified.transactionId == tx)
            #expect(verified.userVerification == nil, "NONE by default: no claim")

            let claims = try jwtClaims(challenge)
            #expect(
                claims["verificationUri"] as? String == (await api.state.orgURL)
                    + "/idp/myaccount/app-authenticators/challenge/\(tx)/verify")
            #expect(claims["authenticatorEnrollmentId"] as? String == device.enrollmentId)
            #expect(claims["methodEnrollmentId"] as? String == device.methodId)
            #expect(claims["userId"] as? String == device.userId)
            #expect(claims["orgId"] as? String == "00oidflowsandbox0000")
            #expect(claims["method"] as? String == "push")
            #expect(claims["kid"] as? String == device.proofOfPossession.kid)
            let exp = try #require(claims["exp"] as? Int)
            let iat = try #require(claims["iat"] as? Int)
            #expect(exp - iat == 300)
            let context = try #require(claims["challengeContext"] as? [String: Any])
            #expect(context["clientOS"] as? String == "Linux")
            #expect(context["clientLocation"] as? String == "Berlin, Germany")
            #expect(context["transactionType"] as? String == "LOGIN")
            #expect((context["transactionTime"] as? String)?.hasSuffix("Z") == true)

            let status = try await api.pushStatus(tx)
            #expect(status["status"] as? String == "WAITING" && status["userConsent"] is NSNull && status["keyType"] is NSNull)
        }
    }

    @Test("/sandbox/push needs SSWS, a known user with an enrollment and a known userVerification")
    func sandboxPushErrors() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "errs@example.com")
            let anonymous = try await api.send(.post, "/sandbox/push", json: ["login": device.login], auth: .none)
            #expect(anonymous.status == .unauthorized)
            let unknown = try await api.send(.post, "/sandbox/push", json: ["login": "nobody@example.com"])
            #expect(unknown.status == .notFound)
            _ = try await api.registerActiveUser(email: "unenrolled@example.com")
            let unenrolled = try await api.send(.post, "/sandbox/push", json: ["login": "unenrolled@example.com"])
            #expect(unenrolled.status == .notFound)
            let level = try await api.send(.post, "/sandbox/push", json: ["login": device.login, "userVerification": "MAYBE"])
            #expect(level.status == .badRequest)
            let noLogin = try await api.send(.post, "/sandbox/push", json: ["clientOS": "x"])
            #expect(noLogin.status == .badRequest)
            #expect(try await api.send(.get, "/sandbox/push/ftunknown").status == .notFound)
            #expect(try await api.send(.get, "/sandbox/push/ftunknown", auth: .none).status == .unauthorized)
        }
    }

    @Test("approve: 200, APPROVED with the consent and key type, no longer pending, not answerable twice")
    func approve() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "approve@example.com")
            let tx = try await api.push(device)
            let challenge = try #require(try await api.pendingChallenges(device).first)
            let reply = try await api.respond(to: challenge, device: device)
            #expect(reply.status == .ok, "\(reply.text)")
            let status = try await api.pushStatus(tx)
            #expect(status["status"] as? String == "APPROVED")
            #expect(status["userConsent"] as? String == "APPROVED_CONSENT_PROMPT")
            #expect(status["keyType"] as? String == "proofOfPossession")
            #expect(try await api.pendingChallenges(device).isEmpty)
            let again = try await api.respond(to: challenge, device: device)
            #expect(again.status == .notFound)
            #expect(try again.oktaError().code == "E0000007")
        }
    }

    @Test("deny: 204 and DENIED")
    func deny() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "deny@example.com")
            let tx = try await api.push(device)
            let challenge = try #require(try await api.pendingChallenges(device).first)
            let reply = try await api.respond(to: challenge, device: device, consent: "DENIED_CONSENT_PROMPT")
            #expect(reply.status == .noContent)
            let status = try await api.pushStatus(tx)
            #expect(status["status"] as? String == "DENIED" && status["userConsent"] as? String == "DENIED_CONSENT_PROMPT")
        }
    }

    @Test("responses that do not verify are 401 E0000011 and leave the challenge waiting")
    func rejectedResponses() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "strict@example.com", userVerification: true)
            let other = try await api.enrollDevice(email: "other@example.com")
            // A jti accepted once may not come back.
            _ = try await api.push(device)
            let first = try #require(try await api.pendingChallenges(device).first)
            let usedJTI = UUID().uuidString
            #expect(try await api.respond(to: first, device: device, overrides: ["jti": usedJTI]).status == .ok)

            let tx = try await api.push(device)
            let challenge = try #require(try await api.pendingChallenges(device).first)
            let now = Int(await api.state.now.timeIntervalSince1970)
            let pop = device.proofOfPossession
            let cases: [(String, Reply)] = [
                ("another enrollment's key", try await api.respond(to: challenge, device: device, key: other.proofOfPossession)),
                ("an unknown key", try await api.respond(to: challenge, device: device, key: DeviceKey())),
                ("a forged signature", try await api.respond(to: challenge, device: device, key: DeviceKey(), header: ["kid": pop.kid])),
                ("keyType of the other role", try await api.respond(to: challenge, device: device, keyType: "userVerification")),
                ("iss", try await api.respond(to: challenge, device: device, overrides: ["iss": other.enrollmentId])),
                ("sub", try await api.respond(to: challenge, device: device, overrides: ["sub": other.userId])),
                ("aud", try await api.respond(to: challenge, device: device, overrides: ["aud": "https://example.okta.com"])),
                ("tx", try await api.respond(to: challenge, device: device, overrides: ["tx": "ftother"])),
                ("nonce", try await api.respond(to: challenge, device: device, overrides: ["nonce": "other"])),
                (
                    "methodEnrollmentId",
                    try await api.respond(to: challenge, device: device, overrides: ["methodEnrollmentId": other.methodId])
                ),
                ("exp", try await api.respond(to: challenge, device: device, overrides: ["exp": now - 1])),
                ("nbf", try await api.respond(to: challenge, device: device, overrides: ["nbf": now + 60])),
                ("no jti", try await api.respond(to: challenge, device: device, overrides: ["jti": NSNull()])),
                ("a replayed jti", try await api.respond(to: challenge, device: device, overrides: ["jti": usedJTI])),
                ("typ", try await api.respond(to: challenge, device: device, header: ["typ": "JWT"])),
                ("alg", try await api.respond(to: challenge, device: device, header: ["alg": "ES512"])),
                (
                    "APPROVED_USER_VERIFICATION from the PoP key",
                    try await api.respond(to: challenge, device: device, consent: "APPROVED_USER_VERIFICATION")
                ),
            ]
            for (name, reply) in cases {
                #expect(reply.status == .unauthorized, "\(name): \(reply.status) \(reply.text)")
                #expect(try reply.oktaError().code == "E0000011", "\(name)")
            }
            let consent = try await api.respond(to: challenge, device: device, consent: "MAYBE")
            #expect(consent.status == .badRequest)
            let path = "/idp/myaccount/app-authenticators/challenge/\(tx)/verify"
            let wrongMethod = try await api.send(.post, path, json: ["method": "sms", "challengeResponse": "x"], auth: .none)
            #expect(wrongMethod.status == .badRequest)
            let noResponse = try await api.send(.post, path, json: ["method": "push"], auth: .none)
            #expect(noResponse.status == .badRequest)
            let unknown = try await api.send(
                .post, "/idp/myaccount/app-authenticators/challenge/ftunknown/verify",
                json: ["method": "push", "challengeResponse": try pop.sign(["tx": "ftunknown"], header: ["typ": "okta-pushbind+jwt"])],
                auth: .none)
            #expect(unknown.status == .notFound)

            #expect(try await api.pushStatus(tx)["status"] as? String == "WAITING")
            #expect(try await api.respond(to: challenge, device: device).status == .ok)
        }
    }

    @Test("REQUIRED user verification: only APPROVED_USER_VERIFICATION signed by the UV key approves")
    func requiredUserVerification() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "uv@example.com", userVerification: true)
            let uv = try #require(device.userVerification)

            let consentOnly = try await api.push(device, userVerification: "REQUIRED")
            let first = try #require(try await api.pendingChallenges(device).first)
            #expect(try jwtClaims(first)["userVerification"] as? String == "REQUIRED")
            #expect(try jwtClaims(first)["keyTypes"] as? [String] == ["userVerification"])
            #expect(try await api.respond(to: first, device: device).status == .noContent)
            #expect(try await api.pushStatus(consentOnly)["status"] as? String == "DENIED")

            let wrongPIN = try await api.push(device, userVerification: "REQUIRED")
            let second = try #require(try await api.pendingChallenges(device).first)
            #expect(try await api.respond(to: second, device: device, consent: "UV_TEMPORARILY_UNAVAILABLE").status == .noContent)
            let failed = try await api.pushStatus(wrongPIN)
            #expect(failed["status"] as? String == "DENIED" && failed["userConsent"] as? String == "UV_TEMPORARILY_UNAVAILABLE")

            let rightPIN = try await api.push(device, userVerification: "REQUIRED")
            let third = try #require(try await api.pendingChallenges(device).first)
            let approved = try await api.respond(to: third, device: device, consent: "APPROVED_USER_VERIFICATION", key: uv)
            #expect(approved.status == .ok, "\(approved.text)")
            let status = try await api.pushStatus(rightPIN)
            #expect(status["status"] as? String == "APPROVED" && status["keyType"] as? String == "userVerification")
        }
    }

    @Test("PREFERRED: the UV key approves; a device without one approves with the SDK's NONE consent")
    func preferredUserVerification() async throws {
        try await withSandbox(configure: { $0.pushUserVerification = .preferred }) { api in
            let withUV = try await api.enrollDevice(email: "pref@example.com", userVerification: true)
            _ = try await api.push(withUV)
            let challenge = try #require(try await api.pendingChallenges(withUV).first)
            #expect(try jwtClaims(challenge)["keyTypes"] as? [String] == ["userVerification", "proofOfPossession"])
            let uv = try #require(withUV.userVerification)
            #expect(try await api.respond(to: challenge, device: withUV, consent: "APPROVED_USER_VERIFICATION", key: uv).status == .ok)

            let withoutUV = try await api.enrollDevice(email: "nouv@example.com")
            _ = try await api.push(withoutUV)
            let plain = try #require(try await api.pendingChallenges(withoutUV).first)
            #expect(try jwtClaims(plain)["userVerification"] as? String == "PREFERRED")
            #expect(try await api.respond(to: plain, device: withoutUV, consent: "NONE").status == .ok)
        }
    }

    @Test("an unanswered challenge expires on the sandbox clock after pushChallengeSeconds")
    func expiry() async throws {
        try await withSandbox(configure: { $0.pushChallengeSeconds = 60 }) { api in
            let device = try await api.enrollDevice(email: "late@example.com")
            let tx = try await api.push(device)
            let challenge = try #require(try await api.pendingChallenges(device).first)
            #expect(try jwtClaims(challenge)["exp"] as? Int == (try jwtClaims(challenge)["iat"] as? Int).map { $0 + 60 })
            try await api.advanceClock(seconds: 61)
            #expect(try await api.pendingChallenges(device).isEmpty)
            #expect(try await api.pushStatus(tx)["status"] as? String == "EXPIRED")
            let late = try await api.respond(to: challenge, device: device)
            #expect(late.status == .notFound)
        }
    }
}
