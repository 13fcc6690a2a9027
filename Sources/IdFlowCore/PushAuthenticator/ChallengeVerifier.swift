import Foundation
import IdFlowFoundation

/// Checks a push challenge before it is answered (devices.md §5c): the org's signing key by `kid`
/// (discovery → `jwks_uri`), RS256/384/512 only, `typ` okta-pushbind+jwt (or absent), and `exp`/`iat`
/// within the leeway. The key choice and signature maths are ``JWTValidator``'s, the ones ID tokens get.
public struct ChallengeVerifier: Sendable {
    public let keys: any SigningKeySource
    /// The SDK's default `allowedClockSkewInSeconds`.
    public var leeway: Duration = .seconds(300)

    public static let allowedAlgorithms: Set<String> = ["RS256", "RS384", "RS512"]
    public static let type = "okta-pushbind+jwt"

    public init(keys: any SigningKeySource, leeway: Duration = .seconds(300)) {
        self.keys = keys
        self.leeway = leeway
    }

    /// The verifier for challenges of the org at `orgURL`: its issuer is the org itself, or
    /// `{org}/oauth2/{authorizationServerId}` when the challenge names one; keys through the state dir's caches.
    public static func discover(_ context: IdFlowContext, orgURL: URL, authorizationServerId: String?) async throws(IdFlowError)
        -> ChallengeVerifier
    {
        var issuer = orgURL
        if let authorizationServerId {
            issuer = OrgEndpoint(orgURL: orgURL).url([
                "oauth2", try OrgDeviceFolder.safeName(authorizationServerId, what: "authorization server id"),
            ])
        }
        let discovered = try await DiscoveredIssuer.discover(context, issuer: issuer)
        return ChallengeVerifier(keys: discovered.validator.keys)
    }

    /// Refuses an expired challenge without touching the network (§5c.4).
    public func checkNotExpired(_ challenge: PushChallenge, now: Date) throws(IdFlowError) {
        if challenge.expiresAt.addingTimeInterval(leeway.inSeconds) < now {
            throw .timedOut(
                "the push challenge \(challenge.transactionId) expired at \(ISO8601.string(challenge.expiresAt)); it can no longer be answered",
                hint: "start the sign-in again; if it is fresh, check this machine's clock")
        }
    }

    /// Verifies the challenge's header, signature and times; every failure is `.security` (exit 13), an
    /// expired challenge `.timedOut` (exit 9).
    public func verify(_ challenge: PushChallenge, now: Date) async throws(IdFlowError) {
        try checkNotExpired(challenge, now: now)
        let decoded = challenge.decoded
        if let type = decoded.type, type.lowercased() != Self.type {
            throw .security("the push challenge's typ is \(type), not \(Self.type)", hint: Self.hint)
        }
        let policy = TokenValidationPolicy(
            issuer: challenge.issuer, nonce: .notInThisGrant(.pushChallenge), allowedAlgorithms: Self.allowedAlgorithms, now: now)
        let algorithm = try JWTValidator.checkHeader(decoded, policy: policy)
        guard let keyID = decoded.keyID else {
            throw .security("the push challenge names no kid", hint: Self.hint)
        }
        let validator = JWTValidator(keys: keys)
        let key = try await validator.selectKey(keyID: keyID, algorithm: algorithm)
        try await JWTValidator.verifySignature(decoded, key: key, algorithm: algorithm)
        if challenge.issuedAt.addingTimeInterval(-leeway.inSeconds) > now {
            throw .security(
                "the push challenge was issued in the future (\(ISO8601.string(challenge.issuedAt)))", hint: "check this machine's clock")
        }
    }

    /// Refuses a challenge whose claims name anything but `record`: the org's key signs challenges for every
    /// enrollment, user and client of the org, so a valid signature alone does not make a challenge this one's
    /// (devices.md §5b). `iss` must be the enrollment's org (or its authorization server), `aud` the OAuth client
    /// that enrolled, `orgId` and `authenticatorEnrollmentId` (when present) the stored ones.
    public static func checkBinding(_ challenge: PushChallenge, to record: EnrollmentRecord, org: URL) throws(IdFlowError) {
        func refuse(_ claim: String, _ value: String, expected: String) -> IdFlowError {
            .security(
                "the push challenge \(challenge.transactionId) names \(claim) \(value), not this enrollment's \(expected); it was not answered",
                hint: "a challenge for another enrollment, org or client is never answered here")
        }
        let orgText = org.absoluteString
        var issuers = [orgText]
        if let server = challenge.authorizationServerId {
            issuers.append(OrgEndpoint(orgURL: org).url(["oauth2", server]).absoluteString)
        }
        let issuer = challenge.issuer.hasSuffix("/") ? String(challenge.issuer.dropLast()) : challenge.issuer
        guard issuers.contains(where: { $0.caseInsensitiveCompare(issuer) == .orderedSame }) else {
            throw refuse("iss", challenge.issuer, expected: "org \(orgText)")
        }
        guard challenge.audience == record.oauthClientId else {
            throw refuse("aud", challenge.audience, expected: "client \(record.oauthClientId)")
        }
        guard challenge.orgId == record.orgId else {
            throw refuse("orgId", challenge.orgId, expected: record.orgId)
        }
        if let enrollment = challenge.authenticatorEnrollmentId, enrollment != record.enrollmentId {
            throw refuse("authenticatorEnrollmentId", enrollment, expected: record.enrollmentId)
        }
    }

    static let hint = "the challenge did not come from the org as sent; it was not answered"
}
