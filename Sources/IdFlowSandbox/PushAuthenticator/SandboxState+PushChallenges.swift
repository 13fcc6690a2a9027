import Crypto
import Foundation

/// Push challenges (devices.md §4–§6): minted for a sign-in or by `/sandbox/push`, listed on the
/// enrollment's pending link until answered or expired, answered by a signed response. The Authn side
/// that waits for them is `SandboxState+AuthnPush`.
extension SandboxState {
    /// Answered and expired challenges stay this long past their expiry, so `/sandbox/push/{tx}`
    /// can still report them and a late answer is "already answered" rather than unknown.
    static let pushChallengeRetention: TimeInterval = 3600
    /// The consent values a challenge response may carry (devices.md §6b).
    static let userConsentValues: Set<String> = [
        "APPROVED_CONSENT_PROMPT", "DENIED_CONSENT_PROMPT", "APPROVED_USER_VERIFICATION", "CANCELLED_USER_VERIFICATION",
        "UV_TEMPORARILY_UNAVAILABLE", "UV_PERMANENTLY_UNAVAILABLE", "NONE",
    ]

    // MARK: Challenges

    /// Mints a challenge for an enrollment; it expires after `pushChallengeSeconds` of sandbox clock.
    func createPushChallenge(enrollmentId: String, request: PushRequest) -> PushChallengeRecord {
        noteRecordActivity()
        let now = clock.now
        let record = PushChallengeRecord(
            transactionId: "ft" + RandomToken.string(count: 32, alphabet: RandomToken.urlSafeAlphabet),
            enrollmentId: enrollmentId, userId: push.enrollments[enrollmentId]?.userId ?? "",
            nonce: RandomToken.string(count: 20, alphabet: RandomToken.urlSafeAlphabet),
            jti: "ft" + RandomToken.string(count: 32, alphabet: RandomToken.urlSafeAlphabet),
            issuedAt: now, expiresAt: now + TimeInterval(configuration.pushChallengeSeconds), request: request)
        push.challenges[record.transactionId] = record
        return record
    }

    /// `POST /sandbox/push`: a challenge for the user's enrollment (the given one, else the newest).
    func startPush(login: String, enrollmentId: String?, request: PushRequest) throws -> PushChallengeRecord {
        guard let user = findUser(login: login) else { throw OktaErrorResponse.notFound(login, type: "User") }
        let candidates = activeEnrollments(userId: user.id)
        guard let enrollment = enrollmentId.map({ id in candidates.first { $0.id == id } }) ?? candidates.last else {
            throw OktaErrorResponse.notFound(enrollmentId ?? login, type: "AppAuthenticatorEnrollment")
        }
        return createPushChallenge(enrollmentId: enrollment.id, request: request)
    }

    /// `GET /sandbox/push/{tx}`: the challenge and its status with expiry applied.
    func pushChallenge(transactionId: String) throws -> (PushChallengeRecord, PushStatus) {
        guard let challenge = push.challenges[transactionId] else {
            throw OktaErrorResponse.notFound(transactionId, type: "PushTransaction")
        }
        return (challenge, challenge.currentStatus(at: clock.now))
    }

    /// The enrollments of a user, oldest first.
    func activeEnrollments(userId: String) -> [RegisteredEnrollment] {
        push.enrollments.values.filter { $0.userId == userId }.sorted { ($0.created, $0.id) < ($1.created, $1.id) }
    }

    /// The claims of every challenge still waiting for this enrollment, oldest first.
    func pendingChallengeClaims(enrollmentId: String, userId: String) throws -> [PushChallengeClaims] {
        let enrollment = try ownedEnrollment(enrollmentId, userId: userId)
        let now = clock.now
        return push.challenges.values
            .filter { $0.enrollmentId == enrollment.id && $0.currentStatus(at: now) == .waiting }
            .sorted { ($0.issuedAt, $0.transactionId) < ($1.issuedAt, $1.transactionId) }
            .compactMap(challengeClaims)
    }

    /// The claims a challenge is signed with (devices.md §5b): the key types follow its
    /// `userVerification` and the keys the enrollment has; `aud` is the enrolling OAuth client.
    func challengeClaims(_ challenge: PushChallengeRecord) -> PushChallengeClaims? {
        guard let enrollment = push.enrollments[challenge.enrollmentId], let device = push.devices[enrollment.deviceId] else {
            return nil
        }
        let level = challenge.request.userVerification
        let keyTypes: [RegisteredKeyRole]
        switch level {
        case .none: keyTypes = [.proofOfPossession]
        case .preferred:
            keyTypes = enrollment.userVerificationKid == nil ? [.proofOfPossession] : [.userVerification, .proofOfPossession]
        case .required: keyTypes = [.userVerification]
        }
        let kid = keyTypes[0] == .userVerification ? enrollment.userVerificationKid : nil
        return PushChallengeClaims(
            iss: orgURL, aud: enrollment.clientId, exp: Int(challenge.expiresAt.timeIntervalSince1970),
            iat: Int(challenge.issuedAt.timeIntervalSince1970), jti: challenge.jti, nonce: challenge.nonce,
            transactionId: challenge.transactionId,
            verificationUri: "\(orgURL)/idp/myaccount/app-authenticators/challenge/\(challenge.transactionId)/verify",
            keyType: keyTypes[0].rawValue, keyTypes: keyTypes.map(\.rawValue),
            appInstanceName: device.profile.displayName ?? "idflow", orgId: orgId,
            kid: kid ?? enrollment.proofOfPossessionKid, methodEnrollmentId: enrollment.pushMethodId,
            authenticatorEnrollmentId: enrollment.id,
            challengeContext: .init(
                clientOS: challenge.request.clientOS, clientLocation: challenge.request.clientLocation,
                transactionTime: Timestamps.iso8601(challenge.issuedAt), transactionType: challenge.request.transactionType,
                challengeTextItems: challenge.request.numberChallenge?.choices),
            userId: enrollment.userId, userVerification: level == .none ? nil : level.rawValue)
    }

    // MARK: Answers

    /// The waiting challenge `transactionId` and the key `kid` of its enrollment that signed the
    /// answer; the caller verifies the signature with it, then calls `answerPushChallenge`.
    func challengeForVerification(transactionId: String, kid: String) throws -> (PushChallengeRecord, RegisteredKey) {
        guard let challenge = push.challenges[transactionId], push.enrollments[challenge.enrollmentId] != nil else {
            throw OktaErrorResponse.notFound(transactionId, type: "PushTransaction")
        }
        switch challenge.currentStatus(at: clock.now) {
        case .waiting: break
        case .expired: throw OktaErrorResponse.transactionClosed(transactionId, reason: "the challenge has expired")
        case .approved, .denied: throw OktaErrorResponse.transactionClosed(transactionId, reason: "the challenge was already answered")
        }
        guard let key = push.deviceKeys[kid], key.enrollmentId == challenge.enrollmentId, key.role != .clientInstance else {
            throw OktaErrorResponse.invalidDeviceToken("no proof-of-possession or user-verification key of this enrollment has kid \(kid)")
        }
        return (challenge, key)
    }

    /// Checks a verified response's claims against the challenge (devices.md §6c "Emulator
    /// verification") and records the decision (§6b): approved answers 200, anything else 204.
    func answerPushChallenge(transactionId: String, claims: ChallengeResponseClaims, kid: String) throws -> PushStatus {
        // Checked again here: another answer may have landed while the signature was verified.
        let (found, key) = try challengeForVerification(transactionId: transactionId, kid: kid)
        var challenge = found
        let enrollment = push.enrollments[challenge.enrollmentId]!
        let consent = claims.challengeResponseContext?.userConsent ?? "NONE"
        guard Self.userConsentValues.contains(consent) else {
            throw OktaErrorResponse.validation(
                "challengeResponse", causes: ["challengeResponseContext.userConsent: \(consent) is not a consent value"])
        }
        do throws(DeviceJWTVerifier.Rejected) {
            guard claims.keyType == key.role.rawValue else {
                throw DeviceJWTVerifier.Rejected("keyType must be \(key.role.rawValue), the role of key \(kid)")
            }
            guard claims.iss == enrollment.id else { throw DeviceJWTVerifier.Rejected("iss must be the enrollment id") }
            guard claims.sub == enrollment.userId else { throw DeviceJWTVerifier.Rejected("sub must be the user id") }
            guard claims.aud == orgURL else { throw DeviceJWTVerifier.Rejected("aud must be the org URL \(orgURL)") }
            guard claims.tx == challenge.transactionId else { throw DeviceJWTVerifier.Rejected("tx must be the transaction id") }
            guard claims.nonce == challenge.nonce else { throw DeviceJWTVerifier.Rejected("nonce does not match the challenge") }
            guard claims.methodEnrollmentId == enrollment.pushMethodId else {
                throw DeviceJWTVerifier.Rejected("methodEnrollmentId must be the push method id")
            }
            if consent == "APPROVED_USER_VERIFICATION", key.role != .userVerification {
                throw DeviceJWTVerifier.Rejected("APPROVED_USER_VERIFICATION must be signed by the user-verification key")
            }
            try consumeDeviceTokenID(claims.jti, nbf: claims.nbf, exp: claims.exp, iat: claims.iat)
        } catch {
            throw OktaErrorResponse.invalidDeviceToken(error.reason)
        }
        if consent.hasPrefix("APPROVED_"), let number = challenge.request.numberChallenge {
            try checkNumber(claims.challengeResponseContext?.selectedChallengeTextItem, of: number, challenge: &challenge)
        }
        let level = challenge.request.userVerification
        let approved: Bool
        switch consent {
        case "APPROVED_USER_VERIFICATION": approved = true
        case "APPROVED_CONSENT_PROMPT": approved = level != .required
        // The SDK's answer to PREFERRED from a device without a user-verification key (devices.md §6b).
        case "NONE": approved = level == .preferred && enrollment.userVerificationKid == nil
        // A denial, or user verification that failed: the sign-in does not go ahead.
        default: approved = false
        }
        challenge.status = approved ? .approved : .denied
        challenge.userConsent = consent
        challenge.keyType = key.role.rawValue
        push.challenges[transactionId] = challenge
        return challenge.status
    }

    /// The number challenge of an approval (`idx.numberChallenge`). The public device SDKs carry the numbers to the
    /// device (`challengeContext.challengeTextItems`) but no claim for the one the user picked, so the sandbox reads
    /// it from `challengeResponseContext.selectedChallengeTextItem`. Without it the answer is refused (400, E0000001)
    /// and the challenge keeps waiting; with another number the sign-in is refused: the challenge is denied (the
    /// sign-in's poll shows the rejection) and the answer gets the same 400.
    private func checkNumber(_ selected: String?, of number: NumberChallenge, challenge: inout PushChallengeRecord) throws {
        guard let selected else {
            throw OktaErrorResponse.validation(
                "challengeResponse",
                causes: [
                    "challengeResponseContext.selectedChallengeTextItem: required for this number challenge: "
                        + "one of challengeContext.challengeTextItems, the number the sign-in page shows"
                ])
        }
        guard selected == number.correctAnswer else {
            challenge.status = .denied
            challenge.userConsent = "DENIED_CONSENT_PROMPT"
            push.challenges[challenge.transactionId] = challenge
            throw OktaErrorResponse.validation(
                "challengeResponse",
                causes: [
                    "challengeResponseContext.selectedChallengeTextItem: \(selected) is not the number the sign-in page shows; the sign-in is refused"
                ])
        }
    }

    /// Withdraws a challenge nobody answered (a cancelled or superseded sign-in): it stops being
    /// listed, and answering it is "already answered".
    func closeWaitingChallenge(_ transactionId: String) {
        guard var challenge = push.challenges[transactionId], challenge.currentStatus(at: clock.now) == .waiting else { return }
        challenge.status = .denied
        push.challenges[transactionId] = challenge
    }
}

extension OktaErrorResponse {
    /// E0000007 for a push transaction that can no longer be answered; the cause says why.
    static func transactionClosed(_ transactionId: String, reason: String) -> Self {
        Self(.notFound, "E0000007", "Not found: Resource not found: \(transactionId) (PushTransaction)", causes: [reason])
    }
}
