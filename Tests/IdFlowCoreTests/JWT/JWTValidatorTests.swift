import Crypto
import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import JWTKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct JWTValidatorTests {
    static let issuer = "https://example.okta.com/oauth2/default"
    static let clientID = "0oaclient"
    static let jwksURI = URL(string: "https://example.okta.com/oauth2/default/v1/keys")!
    /// 2027-01-15T08:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let accessToken = "eyJraWQiOiJrMSJ9.an-access-token.signature"
    static let nonce = "n-0S6_WzA2Mj"

    /// The ID token Okta would issue for this login, before any test alters it.
    static func claims(_ changes: [String: JSONValue?] = [:]) -> JSONValue {
        let t = now.timeIntervalSince1970
        var members: [String: JSONValue] = [
            "iss": .string(issuer), "aud": .string(clientID), "sub": "00u2q5p3acVOXoSc04w5", "ver": 1,
            "iat": .number(t - 10), "exp": .number(t + 3590), "auth_time": .number(t - 12), "amr": ["pwd"],
            "nonce": .string(nonce), "at_hash": .string(JWTValidator.leftHalfHash(of: accessToken, algorithm: "RS256")!),
        ]
        // A nil change removes the claim.
        for (name, value) in changes {
            if let value { members[name] = value } else { members.removeValue(forKey: name) }
        }
        return .object(members)
    }

    static func policy(
        audience: String? = clientID, nonce: NonceRequirement = .mustEqual(nonce), accessToken: String? = accessToken,
        allowedAlgorithms: Set<String> = TokenValidationPolicy.defaultAllowedAlgorithms
    ) -> TokenValidationPolicy {
        TokenValidationPolicy(
            issuer: issuer, audience: audience, nonce: nonce, accessToken: accessToken, allowedAlgorithms: allowedAlgorithms, now: now)
    }

    /// A validator whose keys come from `jwks` answers served by a scripted `jwks_uri`, uncached, so every fetch is visible.
    static func validator(serving answers: [String]) -> (JWTValidator, ScriptedTransport) {
        let transport = ScriptedTransport(answers.map { .json(200, $0) })
        let cache = JWKSCache(http: TestKeys.client(transport), jwksURI: jwksURI, cacheDirectory: nil)
        return (JWTValidator(keys: cache), transport)
    }

    static func standardJWKS() throws -> String {
        try TestKeys.jwks(TestKeys.jwk(TestKeys.rsa, kid: "k1"))
    }

    /// Runs the validation and returns the `.security` message it failed with (a test failure if it passed or failed otherwise).
    static func rejection(_ token: String, by validator: JWTValidator, policy: TokenValidationPolicy = policy()) async -> String? {
        do {
            _ = try await validator.validate(token, policy: policy)
            Issue.record("the token was accepted")
            return nil
        } catch {
            #expect(error.exitStatus == .security)
            #expect(error.exitStatus.rawValue == 13)
            #expect(error.hint != nil)
            return error.securityMessage
        }
    }

    // MARK: - Accepted tokens

    @Test func aValidRS256IDTokenPassesAndReturnsItsClaims() async throws {
        let (validator, transport) = Self.validator(serving: [try Self.standardJWKS()])
        let token = try await TestKeys.sign(Self.claims(), with: TestKeys.rsa, kid: "k1")
        let claims = try await validator.validate(token, policy: Self.policy())
        #expect(claims == Self.claims())
        #expect(claims["sub"] == "00u2q5p3acVOXoSc04w5")
        #expect(transport.requests.count == 1)
        #expect(transport.requests.first?.url == Self.jwksURI)
    }

    @Test func audienceAsAnArrayContainingTheClientPasses() async throws {
        let (validator, _) = Self.validator(serving: [try Self.standardJWKS()])
        let claims = Self.claims(["aud": ["api://default", .string(Self.clientID)]])
        let token = try await TestKeys.sign(claims, with: TestKeys.rsa, kid: "k1")
        #expect(try await validator.validate(token, policy: Self.policy())["aud"] == ["api://default", .string(Self.clientID)])
    }

    /// Found by fuzzing: JSON allows 1e308 seconds, which `token inspect` trapped on turning into whole seconds.
    @Test(arguments: [1e308, -1e308, 253_402_300_800])
    func anExpiryPastTheYear9999IsNoDate(seconds: Double) async throws {
        let (validator, _) = Self.validator(serving: [try Self.standardJWKS()])
        let token = try await TestKeys.sign(Self.claims(["exp": .number(seconds)]), with: TestKeys.rsa, kid: "k1")
        #expect(await Self.rejection(token, by: validator) == "exp is not a date before the year 10000")
        let decoded = try DecodedJWT(token)
        #expect(decoded.expiresAt == nil, "token inspect shows the claim as sent, and no expiry")
        #expect(decoded.claims["exp"] == .number(seconds))
    }

    @Test func aTokenExpiredWithinTheClockSkewPasses() async throws {
        let (validator, _) = Self.validator(serving: [try Self.standardJWKS()])
        let claims = Self.claims(["exp": .number(Self.now.timeIntervalSince1970 - 119)])
        let token = try await TestKeys.sign(claims, with: TestKeys.rsa, kid: "k1")
        _ = try await validator.validate(token, policy: Self.policy())
    }

    @Test func anUnknownKidThatAppearsAfterOneRefetchPasses() async throws {
        let rotated = try TestKeys.jwks(TestKeys.jwk(TestKeys.rsa, kid: "k1"), TestKeys.jwk(TestKeys.otherRSA, kid: "k2"))
        let (validator, transport) = Self.validator(serving: [try Self.standardJWKS(), rotated])
        let token = try await TestKeys.sign(Self.claims(), with: TestKeys.otherRSA, kid: "k2")
        _ = try await validator.validate(token, policy: Self.policy())
        #expect(transport.requests.count == 2)
    }

    @Test func ps256AndES256TokensPassWithKeysPublishedForThem() async throws {
        let jwks = try TestKeys.jwks(TestKeys.jwk(TestKeys.rsa, kid: "ps", alg: "PS256"), TestKeys.jwk(TestKeys.ec, kid: "ec"))
        let (validator, _) = Self.validator(serving: [jwks, jwks])
        let claims = Self.claims(["at_hash": nil])
        _ = try await validator.validate(
            try await TestKeys.sign(claims, with: TestKeys.rsa, kid: "ps", alg: "PS256"), policy: Self.policy())
        _ = try await validator.validate(try await TestKeys.sign(claims, with: TestKeys.ec, kid: "ec"), policy: Self.policy())
    }

    @Test func aTokenWithoutKidPassesOnlyWhenOneKeyFits() async throws {
        let single = try TestKeys.jwks(TestKeys.jwk(TestKeys.rsa, kid: "k1"), TestKeys.jwk(TestKeys.ec, kid: "ec"))
        let (validator, _) = Self.validator(serving: [single])
        let token = try await TestKeys.sign(Self.claims(), with: TestKeys.rsa, kid: nil)
        #expect(try DecodedJWT(token).keyID == nil)
        _ = try await validator.validate(token, policy: Self.policy())

        let two = try TestKeys.jwks(TestKeys.jwk(TestKeys.rsa, kid: "k1"), TestKeys.jwk(TestKeys.otherRSA, kid: "k2"))
        let (ambiguous, _) = Self.validator(serving: [two])
        let message = await Self.rejection(token, by: ambiguous)
        #expect(message == "the token has no kid and the issuer's JWKS has 2 keys for alg RS256; cannot tell which signed it")
    }

    @Test func atHashIsTheOIDCLeftHalfHashOfTheAlgorithm() {
        // OpenID Connect Core 1.0, Appendix A.3.
        #expect(
            JWTValidator.leftHalfHash(of: "jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y", algorithm: "RS256") == "77QmUPtjPfzWtF2AnpK9RQ")
        let sha384 = Data(SHA384.hash(data: Data("token".utf8)))
        #expect(JWTValidator.leftHalfHash(of: "token", algorithm: "PS384") == TestKeys.base64URL(sha384.prefix(24)))
        let sha512 = Data(SHA512.hash(data: Data("token".utf8)))
        #expect(JWTValidator.leftHalfHash(of: "token", algorithm: "ES512") == TestKeys.base64URL(sha512.prefix(32)))
        #expect(JWTValidator.leftHalfHash(of: "token", algorithm: "HS256") == nil)
    }

    // MARK: - Rejected algorithms (decided before any key is fetched)

    @Test(arguments: ["none", "None", "NONE"])
    func algNoneIsNeverAccepted(alg: String) async throws {
        let (validator, transport) = Self.validator(serving: [try Self.standardJWKS()])
        let token = try TestKeys.craft(header: ["alg": .string(alg), "kid": "k1"], claims: Self.claims())
        #expect(token.hasSuffix("."))
        let message = await Self.rejection(token, by: validator, policy: Self.policy(allowedAlgorithms: [alg, "RS256"]))
        #expect(message == "alg none is never accepted")
        #expect(transport.requests.isEmpty)
    }

    @Test(arguments: ["pem", "der"])
    func hs256SignedWithTheRSAPublicKeyAsHMACSecretIsRejected(encoding: String) async throws {
        // The key confusion attack: a verifier that lets the token pick HS256 would use the public key bytes as the secret.
        let publicKey = TestKeys.rsa.publicKey
        let secret = SymmetricKey(data: encoding == "pem" ? Data(publicKey.pemRepresentation.utf8) : publicKey.derRepresentation)
        let token = try TestKeys.craft(header: ["alg": "HS256", "typ": "JWT", "kid": "k1"], claims: Self.claims()) { input in
            Data(HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: secret))
        }
        let (validator, transport) = Self.validator(serving: [try Self.standardJWKS()])
        #expect(await Self.rejection(token, by: validator) == "alg HS256 is not allowed")
        // Even a caller who lists HS256 cannot open the door.
        #expect(
            await Self.rejection(token, by: validator, policy: Self.policy(allowedAlgorithms: ["HS256", "RS256"]))
                == "alg HS256 is not allowed")
        #expect(transport.requests.isEmpty)
    }

    @Test func anAlgorithmOutsideThePolicyIsRejected() async throws {
        let (validator, transport) = Self.validator(serving: [try TestKeys.jwks(TestKeys.jwk(TestKeys.rsa, kid: "k1", alg: nil))])
        let token = try await TestKeys.sign(Self.claims(), with: TestKeys.rsa, kid: "k1", alg: "PS256")
        #expect(await Self.rejection(token, by: validator, policy: Self.policy(allowedAlgorithms: ["RS256"])) == "alg PS256 is not allowed")
        #expect(transport.requests.isEmpty)
    }

    @Test func anRS256KeyCannotVerifyPS256() async throws {
        let (validator, _) = Self.validator(serving: [try Self.standardJWKS()])
        let token = try await TestKeys.sign(Self.claims(), with: TestKeys.rsa, kid: "k1", alg: "PS256")
        #expect(await Self.rejection(token, by: validator) == "the key kid k1 is published for alg RS256, not PS256")
    }

    @Test func anES256TokenNamingAnRSAKeyIsRejected() async throws {
        let (validator, _) = Self.validator(serving: [try Self.standardJWKS()])
        let token = try await TestKeys.sign(Self.claims(), with: TestKeys.ec, kid: "k1")
        #expect(await Self.rejection(token, by: validator) == "the key kid k1 is kty RSA, but alg ES256 needs kty EC")
    }

    @Test func anEncryptionKeyIsNotUsedForSignatures() async throws {
        let (validator, _) = Self.validator(serving: [try TestKeys.jwks(TestKeys.jwk(TestKeys.rsa, kid: "k1", use: "enc"))])
        let token = try await TestKeys.sign(Self.claims(), with: TestKeys.rsa, kid: "k1")
        #expect(await Self.rejection(token, by: validator) == "the key kid k1 is published for use enc, not for signatures")
    }

    // MARK: - Rejected keys and signatures

    @Test func anUnknownKidIsRejectedAfterExactlyOneRefetch() async throws {
        let (validator, transport) = Self.validator(serving: [try Self.standardJWKS(), try Self.standardJWKS()])
        let token = try await TestKeys.sign(Self.claims(), with: TestKeys.otherRSA, kid: "k9")
        #expect(await Self.rejection(token, by: validator) == "no key with kid k9 in the issuer's JWKS (after refetch)")
        #expect(transport.requests.count == 2)
        #expect(transport.requests.allSatisfy { $0.url == Self.jwksURI && $0.method == "GET" })
        #expect(transport.remaining == 0)
    }

    @Test func aTamperedPayloadFailsTheSignature() async throws {
        let (validator, _) = Self.validator(serving: [try Self.standardJWKS()])
        let token = try await TestKeys.sign(Self.claims(), with: TestKeys.rsa, kid: "k1")
        let parts = token.split(separator: ".")
        let forged = try TestKeys.craft(header: ["alg": "RS256", "kid": "k1"], claims: Self.claims(["sub": "00uADMIN"]))
        let tampered = "\(parts[0]).\(forged.split(separator: ".")[1]).\(parts[2])"
        #expect(await Self.rejection(tampered, by: validator) == "signature does not verify with the issuer's key kid k1 (alg RS256)")
    }

    @Test func aTokenSignedByAnotherKeyWithTheSameKidFails() async throws {
        let (validator, transport) = Self.validator(serving: [try Self.standardJWKS()])
        let token = try await TestKeys.sign(Self.claims(), with: TestKeys.otherRSA, kid: "k1")
        #expect(await Self.rejection(token, by: validator) == "signature does not verify with the issuer's key kid k1 (alg RS256)")
        #expect(transport.requests.count == 1)
    }

    @Test func aMalformedTokenIsASecurityFailure() async throws {
        let (validator, transport) = Self.validator(serving: [])
        let message = await Self.rejection("not-a-jwt", by: validator)
        #expect(message?.hasPrefix("the token is not a well-formed JWT: the token has 1 part") == true)
        #expect(transport.requests.isEmpty)
    }

    // MARK: - Rejected claims

    @Test func aWrongIssuerIsRejected() async throws {
        let (validator, _) = Self.validator(serving: [try Self.standardJWKS()])
        let token = try await TestKeys.sign(Self.claims(["iss": "https://evil.example.com/oauth2/default"]), with: TestKeys.rsa, kid: "k1")
        #expect(await Self.rejection(token, by: validator) == "iss is https://evil.example.com/oauth2/default, expected \(Self.issuer)")
    }

    @Test func aWrongAudienceIsRejected() async throws {
        let (validator, _) = Self.validator(serving: [try Self.standardJWKS(), try Self.standardJWKS()])
        let single = try await TestKeys.sign(Self.claims(["aud": "0oaother"]), with: TestKeys.rsa, kid: "k1")
        #expect(await Self.rejection(single, by: validator) == "aud [0oaother] does not contain 0oaclient")
        let array = try await TestKeys.sign(Self.claims(["aud": ["0oaother", "api://default"]]), with: TestKeys.rsa, kid: "k1")
        #expect(await Self.rejection(array, by: validator) == "aud [0oaother, api://default] does not contain 0oaclient")
    }

    @Test func anAuthorizedPartyOtherThanTheClientIsRejected() async throws {
        let (validator, _) = Self.validator(serving: [try Self.standardJWKS()])
        let claims = Self.claims(["aud": [.string(Self.clientID), "0oaother"], "azp": "0oaother"])
        let token = try await TestKeys.sign(claims, with: TestKeys.rsa, kid: "k1")
        #expect(await Self.rejection(token, by: validator) == "azp is 0oaother, expected 0oaclient")
    }

    @Test func aWrongNonceIsRejected() async throws {
        let (validator, _) = Self.validator(serving: [try Self.standardJWKS()])
        let token = try await TestKeys.sign(Self.claims(["nonce": "another-login"]), with: TestKeys.rsa, kid: "k1")
        #expect(await Self.rejection(token, by: validator) == "nonce does not match the one sent with the authorization request")
    }

    @Test func aMissingNonceIsRejectedWhenOneWasSent() async throws {
        let (validator, _) = Self.validator(serving: [try Self.standardJWKS(), try Self.standardJWKS()])
        let token = try await TestKeys.sign(Self.claims(["nonce": nil]), with: TestKeys.rsa, kid: "k1")
        #expect(await Self.rejection(token, by: validator) == "nonce is missing, expected the one sent with the authorization request")
        // A grant that carries no nonce (refresh, device) accepts the same token.
        _ = try await validator.validate(token, policy: Self.policy(nonce: .notInThisGrant(.refreshToken)))
    }

    /// The device grant has no authorization request to carry a nonce: the claim is not compared, whether the
    /// server leaves it out or adds one, while every other check still runs.
    @Test func theDeviceGrantPolicyComparesNoNonceButEverythingElse() async throws {
        let (validator, _) = Self.validator(serving: Array(repeating: try Self.standardJWKS(), count: 3))
        let policy = Self.policy(nonce: .notInThisGrant(.deviceAuthorization))
        _ = try await validator.validate(
            try await TestKeys.sign(Self.claims(["nonce": nil]), with: TestKeys.rsa, kid: "k1"), policy: policy)
        _ = try await validator.validate(
            try await TestKeys.sign(Self.claims(["nonce": "its-own"]), with: TestKeys.rsa, kid: "k1"), policy: policy)
        let foreign = try await TestKeys.sign(Self.claims(["aud": "0oaother"]), with: TestKeys.rsa, kid: "k1")
        #expect(await Self.rejection(foreign, by: validator, policy: policy)?.hasPrefix("aud") == true)
    }

    @Test func aTokenExpiredBeyondTheClockSkewIsRejected() async throws {
        let (validator, _) = Self.validator(serving: [try Self.standardJWKS()])
        let token = try await TestKeys.sign(
            Self.claims(["exp": .number(Self.now.timeIntervalSince1970 - 121)]), with: TestKeys.rsa, kid: "k1")
        #expect(
            await Self.rejection(token, by: validator)
                == "token expired at 2027-01-15T07:57:59Z (now 2027-01-15T08:00:00Z, 120 s skew allowed)")
    }

    @Test func aTokenWithoutExpiryIsRejected() async throws {
        let (validator, _) = Self.validator(serving: [try Self.standardJWKS()])
        let token = try await TestKeys.sign(Self.claims(["exp": nil]), with: TestKeys.rsa, kid: "k1")
        #expect(await Self.rejection(token, by: validator) == "exp is missing")
    }

    @Test func anIssuedAtInTheFutureIsRejected() async throws {
        let (validator, _) = Self.validator(serving: [try Self.standardJWKS()])
        let t = Self.now.timeIntervalSince1970
        let token = try await TestKeys.sign(
            Self.claims(["iat": .number(t + 121), "exp": .number(t + 3721)]), with: TestKeys.rsa, kid: "k1")
        #expect(
            await Self.rejection(token, by: validator)
                == "iat is in the future: 2027-01-15T08:02:01Z (now 2027-01-15T08:00:00Z, 120 s skew allowed)")
    }

    @Test func aNotBeforeInTheFutureIsRejected() async throws {
        let (validator, _) = Self.validator(serving: [try Self.standardJWKS()])
        let token = try await TestKeys.sign(
            Self.claims(["nbf": .number(Self.now.timeIntervalSince1970 + 600)]), with: TestKeys.rsa, kid: "k1")
        #expect(
            await Self.rejection(token, by: validator)
                == "token is not valid before 2027-01-15T08:10:00Z (now 2027-01-15T08:00:00Z, 120 s skew allowed)")
    }

    @Test func anAtHashOfAnotherAccessTokenIsRejected() async throws {
        let (validator, _) = Self.validator(serving: [try Self.standardJWKS(), try Self.standardJWKS()])
        let claims = Self.claims(["at_hash": .string(JWTValidator.leftHalfHash(of: "a-different-access-token", algorithm: "RS256")!)])
        let token = try await TestKeys.sign(claims, with: TestKeys.rsa, kid: "k1")
        #expect(await Self.rejection(token, by: validator) == "at_hash does not match the access token")
        // With no access token to compare (a refresh without one), at_hash is not checked.
        _ = try await validator.validate(token, policy: Self.policy(accessToken: nil))
    }

    /// Native SSO: a device secret issued beside an ID token with `ds_hash` must be the one the hash names, or the login
    /// keeps nothing (native-sso.md §1.2).
    @Test func aDSHashOfAnotherDeviceSecretIsRejected() async throws {
        let (validator, _) = Self.validator(serving: [try Self.standardJWKS(), try Self.standardJWKS(), try Self.standardJWKS()])
        let claims = Self.claims(["ds_hash": .string(JWTValidator.leftHalfHash(of: "the-device-secret", algorithm: "RS256")!)])
        let token = try await TestKeys.sign(claims, with: TestKeys.rsa, kid: "k1")
        var policy = Self.policy()
        policy.deviceSecret = "the-device-secret"
        _ = try await validator.validate(token, policy: policy)
        policy.deviceSecret = "another-device-secret"
        #expect(await Self.rejection(token, by: validator, policy: policy) == "ds_hash in the ID token does not match the device secret")
    }

    // MARK: - Recorded fixtures

    @Test
    func theRecordedHS256TokensAreRejected() async throws {
        let response = try JSONValue(data: Fixtures.data("okta-core/oauth-token-response-default-as.json"))
        let keys = StaticKeySet(jwks: try Fixtures.data("okta-core/oauth-keys-jwks.json"))
        let validator = JWTValidator(keys: keys)
        let policy = TokenValidationPolicy(
            issuer: "https://example.com/oauth2/default", audience: "0oa3en4fIMQ3ddc204w5",
            nonce: .notInThisGrant(.standaloneVerification), now: Date(timeIntervalSince1970: 1_642_532_600))
        for name in ["id_token", "access_token"] {
            let token = try #require(response[name]?.stringValue)
            #expect(await Self.rejection(token, by: validator, policy: policy) == "alg HS256 is not allowed")
        }
    }

    @Test
    func theRecordedJWKSLoadsAndItsRSAKeyIsUsable() async throws {
        let jwks = try Fixtures.data("okta-core/oauth-keys-jwks.json")
        let transport = ScriptedTransport([.json(200, data: jwks)])
        let cache = JWKSCache(http: TestKeys.client(transport), jwksURI: Self.jwksURI, cacheDirectory: nil)
        #expect(try await cache.keySet(refresh: false) == jwks)
        // A token naming the recorded key gets as far as the RSA signature check: the key (2048 bits, with the
        // leading zero byte in `n`) was imported; only the made-up signature fails.
        let kid = "k6HN2DKok-kExjJGBLqgzByMCnN1RvzEOA-1ukTjexA"
        let token = try TestKeys.craft(header: ["alg": "RS256", "kid": .string(kid)], claims: Self.claims()) { _ in
            Data(repeating: 7, count: 256)
        }
        let message = await Self.rejection(token, by: JWTValidator(keys: StaticKeySet(jwks: jwks)))
        #expect(message == "signature does not verify with the issuer's key kid \(kid) (alg RS256)")
        // jwt-kit itself accepts the whole set too.
        let collection = JWTKeyCollection()
        try await collection.add(jwksJSON: String(decoding: jwks, as: UTF8.self))
        #expect(try await collection.getKey(for: JWKIdentifier(string: kid)).name == "RS256")
    }
}
