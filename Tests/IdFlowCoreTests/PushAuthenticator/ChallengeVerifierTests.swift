import Foundation
import IdFlowTestSupport
import JWTKit
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// A challenge is answered only if the org signed it: RS256/384/512 by a key of its JWKS, typ
/// okta-pushbind+jwt, not expired.
struct ChallengeVerifierTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_100)

    static func claims(exp: Int = 1_800_000_300) -> JSONValue {
        [
            "iss": "https://o.example.com", "aud": "0oaclient", "iat": 1_800_000_000, "exp": .number(Double(exp)), "nonce": "n",
            "transactionId": "tx-1", "orgId": "00o1",
            "verificationUri": "https://o.example.com/idp/myaccount/app-authenticators/challenge/tx-1/verify",
            "challengeContext": ["transactionType": "LOGIN"],
        ]
    }

    static func signed(_ claims: JSONValue, key: JWTKit.Insecure.RSA.PrivateKey, kid: String = "org-key", typ: String = "okta-pushbind+jwt")
        async throws -> PushChallenge
    {
        let collection = JWTKeyCollection()
        await collection.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
        var header = JWTHeader()
        header.kid = kid
        header.typ = typ
        return try PushChallenge(try await collection.sign(AnyClaims(claims), kid: JWKIdentifier(string: kid), header: header))
    }

    static func verifier() throws -> ChallengeVerifier {
        ChallengeVerifier(keys: StaticKeySet(jwks: Data(try TestKeys.jwks(try TestKeys.jwk(TestKeys.rsa, kid: "org-key")).utf8)))
    }

    func refusal(_ challenge: PushChallenge) async throws -> IdFlowError? {
        let verifier = try Self.verifier()
        do {
            try await verifier.verify(challenge, now: Self.now)
            return nil
        } catch {
            return error
        }
    }

    @Test func aChallengeSignedByTheOrgsKeyPasses() async throws {
        let challenge = try await Self.signed(Self.claims(), key: TestKeys.rsa)
        #expect(try await refusal(challenge) == nil)
    }

    @Test func aChallengeSignedByAKeyNotInTheJWKSIsASecurityFailure() async throws {
        let forged = try await Self.signed(Self.claims(), key: TestKeys.otherRSA)
        #expect(try await refusal(forged)?.exitStatus == .security)
        let unknownKid = try await Self.signed(Self.claims(), key: TestKeys.otherRSA, kid: "attacker")
        #expect(try await refusal(unknownKid)?.securityMessage?.contains("attacker") == true)
    }

    @Test func anExpiredChallengeIsRefusedWithoutTheNetwork() async throws {
        let expired = try await Self.signed(Self.claims(exp: 1_799_999_000), key: TestKeys.rsa)
        let error = try await refusal(expired)
        #expect(error?.exitStatus == .timedOut)
        // The check needs no keys at all.
        #expect(throws: IdFlowError.self) {
            try ChallengeVerifier(keys: StaticKeySet(jwks: Data())).checkNotExpired(expired, now: Self.now)
        }
    }

    @Test func unsignedAndHMACChallengesAreRefused() async throws {
        let none = try PushChallenge(
            try TestKeys.craft(header: ["alg": "none", "typ": "okta-pushbind+jwt", "kid": "org-key"], claims: Self.claims()))
        #expect(try await refusal(none)?.exitStatus == .security)
        let hmac = try PushChallenge(
            try TestKeys.craft(header: ["alg": "HS256", "typ": "okta-pushbind+jwt", "kid": "org-key"], claims: Self.claims()) { _ in
                Data(repeating: 1, count: 32)
            })
        #expect(try await refusal(hmac)?.securityMessage?.contains("HS256") == true)
        let es256 = try PushChallenge(try await TestKeys.sign(Self.claims(), with: TestKeys.ec, kid: "org-key"))
        #expect(try await refusal(es256)?.exitStatus == .security)
    }

    @Test func anotherTypIsRefusedAndCaseDoesNotMatter() async throws {
        let other = try await Self.signed(Self.claims(), key: TestKeys.rsa, typ: "okta-enrollmentupdate+jwt")
        #expect(try await refusal(other)?.securityMessage?.contains("typ") == true)
        let upper = try await Self.signed(Self.claims(), key: TestKeys.rsa, typ: "OKTA-PUSHBIND+JWT")
        #expect(try await refusal(upper) == nil)
    }

    /// The enrollment the challenges below are checked against: org o.example.com, client 0oaclient, org 00o1.
    static let record = EnrollmentRecord(
        enrollmentId: "pfd1", authenticatorId: "aut1", orgUrl: "https://o.example.com", orgId: "00o1", oauthClientId: "0oaclient",
        userId: "00u1", username: nil, displayName: nil, deviceId: "guo1", clientInstanceId: "cli1", methodEnrollmentId: "opf1",
        pendingUrl: "https://o.example.com/p", selfUrl: nil, pushToken: "", proofOfPossessionKeyId: "K1", userVerificationKeyId: nil,
        createdAt: Date())

    static func binding(_ changes: [String: JSONValue]) async throws -> IdFlowError? {
        var claims = Self.claims().objectValue ?? [:]
        claims["authenticatorEnrollmentId"] = "pfd1"
        claims.merge(changes) { $1 }
        let challenge = try await Self.signed(.object(claims), key: TestKeys.rsa)
        do {
            try ChallengeVerifier.checkBinding(challenge, to: record, org: URL(string: "https://o.example.com")!)
            return nil
        } catch {
            return error
        }
    }

    @Test func aChallengeNamingThisEnrollmentItsOrgAndItsClientIsBound() async throws {
        #expect(try await Self.binding([:]) == nil)
        #expect(try await Self.binding(["iss": "https://O.example.com/"]) == nil, "the org, spelled another way")
        #expect(
            try await Self.binding(["authenticatorEnrollmentId": nil]) == nil, "no enrollment claim: the pending list it came from binds it"
        )
        #expect(
            try await Self.binding(["iss": "https://o.example.com/oauth2/aus1", "authorizationServerId": "aus1"]) == nil,
            "the org's own authorization server")
    }

    @Test(arguments: [
        ("iss", JSONValue.string("https://attacker.example.net")), ("iss", "https://o.example.com.attacker.example.net"),
        ("iss", "https://o.example.com/oauth2/aus1"), ("aud", "0oaAnotherClient"), ("orgId", "00oAnotherOrg"),
        ("authenticatorEnrollmentId", "pfdSomeoneElse"),
    ])
    func aSignedChallengeNamingAnythingElseIsRefused(claim: String, value: JSONValue) async throws {
        let error = try await Self.binding([claim: value])
        #expect(error?.exitStatus == .security, "\(claim)=\(value)")
        #expect(error?.message.contains(claim) == true)
    }
}
