import Foundation
import IdFlowFoundation

/// The consent values of devices.md §6b.
public enum UserConsent: String, Sendable, Codable {
    case approvedConsentPrompt = "APPROVED_CONSENT_PROMPT"
    case deniedConsentPrompt = "DENIED_CONSENT_PROMPT"
    case approvedUserVerification = "APPROVED_USER_VERIFICATION"
    case cancelledUserVerification = "CANCELLED_USER_VERIFICATION"
    case uvTemporarilyUnavailable = "UV_TEMPORARILY_UNAVAILABLE"
    case uvPermanentlyUnavailable = "UV_PERMANENTLY_UNAVAILABLE"
    case none = "NONE"

    public var isApproval: Bool { self == .approvedConsentPrompt || self == .approvedUserVerification }
}

/// Builds the one JWT that answers a push challenge (devices.md §6b, §6c).
public enum ChallengeResponse {
    /// Whether the user-verification key is the first candidate: the challenge prefers or requires it (or
    /// the user asked for it with `resolve --user-verification`).
    public static func wantsUserVerification(_ challenge: PushChallenge, forced: Bool) -> Bool {
        forced || ["PREFERRED", "REQUIRED"].contains(challenge.userVerification?.uppercased() ?? "")
    }

    /// What became of the user-verification key when it was the first candidate.
    public enum UserVerification: Sendable {
        /// Not a candidate (the challenge does not ask, or the user denies).
        case notAsked
        /// No user-verification key is enrolled.
        case notEnrolled
        /// The PIN unlocked it.
        case unlocked(DeviceKey)
        /// The PIN did not unlock it ("authentication failed").
        case wrongPIN
        /// The key is gone or damaged ("key corrupted").
        case unavailable
    }

    /// Which key signs, with which consent and amr (§6b): deny is PoP-signed DENIED_CONSENT_PROMPT; an
    /// unlocked UV key signs APPROVED_USER_VERIFICATION with amr [pin]; every UV failure falls back to PoP
    /// with the consent of §6b's table.
    public static func plan(approve: Bool, challenge: PushChallenge, userVerification: UserVerification) -> (
        role: DeviceKeyRole, consent: UserConsent, amr: [String]
    ) {
        guard approve else { return (.proofOfPossession, .deniedConsentPrompt, []) }
        switch userVerification {
        case .notAsked: return (.proofOfPossession, .approvedConsentPrompt, [])
        case .unlocked: return (.userVerification, .approvedUserVerification, ["pin"])
        case .wrongPIN: return (.proofOfPossession, .uvTemporarilyUnavailable, [])
        case .unavailable: return (.proofOfPossession, .uvPermanentlyUnavailable, [])
        case .notEnrolled:
            // With PREFERRED the SDK's code path ends in NONE; kept as the server expects it.
            let required = challenge.userVerification?.uppercased() == "REQUIRED"
            return (.proofOfPossession, required ? .uvPermanentlyUnavailable : .none, [])
        }
    }

    /// The claims of §6c for `challenge`, answered by `enrollment` with `key`, addressed to the enrollment's own
    /// `org` (never to a URL the challenge names).
    public static func claims(
        challenge: PushChallenge, enrollment: EnrollmentRecord, org: URL, installationId: String, key: DeviceKey, consent: UserConsent,
        amr: [String], signals: DeviceSignals, now: Date, selectedNumber: String? = nil
    ) -> JSONValue {
        var deviceSignals = signals.requested(challenge.signals)
        deviceSignals["id"] = .string(enrollment.deviceId)
        deviceSignals["clientInstanceId"] = .string(enrollment.clientInstanceId)
        deviceSignals["authenticatorAppKey"] = .string(installationId)
        var claims = DeviceJWT.timeClaims(now: now)
        claims["iss"] = .string(enrollment.enrollmentId)
        claims["aud"] = .string(org.absoluteString)
        claims["sub"] = .string(enrollment.userId)
        claims["tx"] = .string(challenge.transactionId)
        claims["nonce"] = .string(challenge.nonce)
        claims["methodEnrollmentId"] = .string(enrollment.methodEnrollmentId)
        claims["keyType"] = .string(key.role.rawValue)
        claims["amr"] = .array(amr.map(JSONValue.string))
        claims["deviceSignals"] = .object(deviceSignals)
        var responseContext: [String: JSONValue] = [
            "userConsent": .string(consent.rawValue), "transactionType": .string(challenge.transactionType),
        ]
        // The number picked in a number challenge. Okta's public device SDKs name no claim for it; this is the one
        // the sandbox reads (docs/push-mfa.md).
        if let selectedNumber { responseContext["selectedChallengeTextItem"] = .string(selectedNumber) }
        claims["challengeResponseContext"] = .object(responseContext)
        claims["integrations"] = []
        claims["signalProviders"] = []
        return .object(claims)
    }

    /// The signed response: header `{alg ES256, typ <the challenge's typ>, kid <key's kid>}`.
    public static func sign(_ claims: JSONValue, challenge: PushChallenge, key: DeviceKey) throws(IdFlowError) -> String {
        try DeviceJWT.sign(type: challenge.decoded.type ?? ChallengeVerifier.type, claims: claims, key: key)
    }
}
