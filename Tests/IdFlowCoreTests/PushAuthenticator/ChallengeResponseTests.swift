import Crypto
import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// The JWT that answers a challenge (devices.md §6b, §6c): which key, keyType, amr, consent, claims.
struct ChallengeResponseTests {
    static func challenge(userVerification: String? = nil, signals: [String] = [], transactionType: String = "LOGIN") throws
        -> PushChallenge
    {
        var claims: [String: JSONValue] = [
            "iss": "https://o.example.com", "aud": "0oaclient", "iat": 1_800_000_000, "exp": 1_800_000_300, "nonce": "n-1",
            "transactionId": "tx-1", "orgId": "00o1", "method": "push", "authenticatorEnrollmentId": "pfd1",
            "verificationUri": "https://o.example.com/idp/myaccount/app-authenticators/challenge/tx-1/verify",
            "challengeContext": ["clientOS": "Linux", "clientLocation": "Berlin", "transactionType": .string(transactionType)],
            "signals": .array(signals.map(JSONValue.string)),
        ]
        claims["userVerification"] = userVerification.map(JSONValue.string)
        return try PushChallenge(
            try TestKeys.craft(header: ["alg": "RS256", "typ": "okta-pushbind+jwt", "kid": "k1"], claims: .object(claims)))
    }

    static let record = EnrollmentRecord(
        enrollmentId: "pfd1", authenticatorId: "aut1", orgUrl: "https://o.example.com", orgId: "00o1", oauthClientId: "0oa1",
        userId: "00u1", username: nil, displayName: "ci-runner-7", deviceId: "guo1", clientInstanceId: "cli1", methodEnrollmentId: "opf1",
        pendingUrl: "https://o.example.com/p", selfUrl: nil, pushToken: "", proofOfPossessionKeyId: "K1", userVerificationKeyId: nil,
        createdAt: Date())

    static let signals = DeviceSignals(
        displayName: "ci-runner-7", platform: "LINUX", manufacturer: nil, model: "x86_64", osVersion: "6.1.0")

    @Test func theKeyAndConsentFollowTheChallengeAndTheUsersAnswer() throws {
        let none = try Self.challenge()
        let required = try Self.challenge(userVerification: "REQUIRED")
        let preferred = try Self.challenge(userVerification: "preferred")
        let uv = DeviceKey.generate(.userVerification)

        func check(
            _ plan: (role: DeviceKeyRole, consent: UserConsent, amr: [String]), _ role: DeviceKeyRole, _ consent: UserConsent,
            _ amr: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
        ) {
            #expect(plan.role == role, sourceLocation: sourceLocation)
            #expect(plan.consent == consent, sourceLocation: sourceLocation)
            #expect(plan.amr == amr, sourceLocation: sourceLocation)
        }
        check(
            ChallengeResponse.plan(approve: false, challenge: required, userVerification: .notAsked), .proofOfPossession,
            .deniedConsentPrompt)
        check(
            ChallengeResponse.plan(approve: true, challenge: none, userVerification: .notAsked), .proofOfPossession, .approvedConsentPrompt)
        check(
            ChallengeResponse.plan(approve: true, challenge: required, userVerification: .unlocked(uv)), .userVerification,
            .approvedUserVerification, ["pin"])
        check(
            ChallengeResponse.plan(approve: true, challenge: required, userVerification: .wrongPIN), .proofOfPossession,
            .uvTemporarilyUnavailable)
        check(
            ChallengeResponse.plan(approve: true, challenge: required, userVerification: .unavailable), .proofOfPossession,
            .uvPermanentlyUnavailable)
        check(
            ChallengeResponse.plan(approve: true, challenge: required, userVerification: .notEnrolled), .proofOfPossession,
            .uvPermanentlyUnavailable)
        check(ChallengeResponse.plan(approve: true, challenge: preferred, userVerification: .notEnrolled), .proofOfPossession, .none)

        #expect(!ChallengeResponse.wantsUserVerification(none, forced: false))
        #expect(ChallengeResponse.wantsUserVerification(none, forced: true))
        #expect(ChallengeResponse.wantsUserVerification(required, forced: false))
        #expect(ChallengeResponse.wantsUserVerification(preferred, forced: false))
        #expect(!ChallengeResponse.wantsUserVerification(try Self.challenge(userVerification: "DISCOURAGED"), forced: false))
    }

    @Test func theResponseCarriesTheClaimsOfTheProtocolSignedByTheChosenKey() throws {
        let challenge = try Self.challenge(signals: ["displayName", "platform", "imei"], transactionType: "CIBA")
        let key = DeviceKey.generate(.proofOfPossession)
        let now = Date(timeIntervalSince1970: 1_800_000_010)
        let claims = ChallengeResponse.claims(
            challenge: challenge, enrollment: Self.record, org: URL(string: "https://o.example.com")!, installationId: "INSTALL-1",
            key: key, consent: .approvedConsentPrompt,
            amr: [], signals: Self.signals, now: now)
        let jwt = try ChallengeResponse.sign(claims, challenge: challenge, key: key)
        let decoded = try DecodedJWT(jwt)

        #expect(decoded.header == ["alg": "ES256", "typ": "okta-pushbind+jwt", "kid": .string(key.kid)])
        let payload = decoded.claims
        #expect(payload["iss"] == "pfd1")
        #expect(payload["aud"] == "https://o.example.com")
        #expect(payload["sub"] == "00u1")
        #expect(payload["tx"] == "tx-1")
        #expect(payload["nonce"] == "n-1")
        #expect(payload["methodEnrollmentId"] == "opf1")
        #expect(payload["keyType"] == "proofOfPossession")
        #expect(payload["amr"] == [])
        #expect(payload["iat"] == 1_800_000_010)
        #expect(payload["exp"] == 1_800_000_310)
        #expect(payload["nbf"] == 1_799_999_710)
        let jti = try #require(payload["jti"]?.stringValue)
        #expect(jti == jti.uppercased() && UUID(uuidString: jti) != nil)
        #expect(payload["challengeResponseContext"] == ["userConsent": "APPROVED_CONSENT_PROMPT", "transactionType": "CIBA"])
        #expect(
            payload["deviceSignals"] == [
                "id": "guo1", "clientInstanceId": "cli1", "authenticatorAppKey": "INSTALL-1", "displayName": "ci-runner-7",
                "platform": "LINUX",
            ])
        #expect(payload["integrations"] == [] && payload["signalProviders"] == [])

        // ES256 as raw R‖S over the signing input, verifiable with the JWK the server was given.
        #expect(decoded.signature.count == 64)
        let jwk = key.publicJWK
        let x = try #require(Base64URL.decode(jwk["x"]!.stringValue!))
        let y = try #require(Base64URL.decode(jwk["y"]!.stringValue!))
        let publicKey = try P256.Signing.PublicKey(rawRepresentation: x + y)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: decoded.signature)
        #expect(publicKey.isValidSignature(signature, for: Data(decoded.signingInput.utf8)))
    }

    @Test func aUserVerifiedAnswerNamesTheUserVerificationKey() throws {
        let challenge = try Self.challenge(userVerification: "REQUIRED")
        let key = DeviceKey.generate(.userVerification)
        let claims = ChallengeResponse.claims(
            challenge: challenge, enrollment: Self.record, org: URL(string: "https://o.example.com")!, installationId: "I", key: key,
            consent: .approvedUserVerification, amr: ["pin"],
            signals: Self.signals, now: Date())
        let decoded = try DecodedJWT(try ChallengeResponse.sign(claims, challenge: challenge, key: key))
        #expect(decoded.keyID == key.kid)
        #expect(decoded.claims["keyType"] == "userVerification")
        #expect(decoded.claims["amr"] == ["pin"])
        #expect(decoded.claims["challengeResponseContext"]?["userConsent"] == "APPROVED_USER_VERIFICATION")
    }
}
