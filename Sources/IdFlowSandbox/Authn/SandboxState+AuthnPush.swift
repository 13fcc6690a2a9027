import Crypto
import Foundation

/// A push factor as Authn lists it: an enrollment with its device and proof-of-possession key.
struct PushFactor: Sendable {
    let enrollment: RegisteredEnrollment
    let device: DeviceRecord
    let proofOfPossessionKey: P256.Signing.PublicKey
    let login: String
}

/// Push MFA in Authn (okta-core.md §C4): MFA_REQUIRED after a good password, a verify that sends a push
/// challenge of the push authenticator, and polls that report how it was answered.
extension SandboxState {
    /// The push factors of a user, oldest enrollment first.
    func pushFactors(userId: String) -> [PushFactor] {
        activeEnrollments(userId: userId).compactMap { enrollment in
            guard let device = push.devices[enrollment.deviceId], let key = push.deviceKeys[enrollment.proofOfPossessionKid],
                let user = directory.users[userId]
            else { return nil }
            return PushFactor(enrollment: enrollment, device: device, proofOfPossessionKey: key.publicKey, login: user.login)
        }
    }

    /// After a good password: MFA_REQUIRED (or MFA_ENROLL) when `mfaPolicy` asks for a second factor. The
    /// transaction keeps the password's `passwordStep` for after the push (okta-core.md §F1: MFA comes first).
    func secondFactorStep(for user: UserRecord, passwordStep: PasswordStep? = nil, relayState: String? = nil) -> AuthnOutcome? {
        let factors = pushFactors(userId: user.id)
        switch configuration.mfaPolicy {
        case .never: return nil
        case .whenEnrolled where factors.isEmpty: return nil
        case .whenEnrolled, .always: break
        }
        noteRecordActivity()
        let transaction = AuthnTransactionRecord(
            stateToken: RandomToken.stateToken(), userId: user.id, status: factors.isEmpty ? .mfaEnroll : .mfaRequired,
            recoveryType: nil, expiresAt: clock.now + Self.stateTokenLifetime, relayState: relayState, passwordStep: passwordStep)
        authn.transactions[transaction.stateToken] = transaction
        return factors.isEmpty ? .mfaEnroll(transaction, user) : .mfaRequired(transaction, user, factors)
    }

    /// `POST /api/v1/authn/factors/{id}/verify` (and its `resend`): the first call sends a push
    /// (MFA_CHALLENGE, WAITING); polling the same link answers WAITING, then SUCCESS with a session
    /// token, or REJECTED / TIMEOUT, after which the next call sends a new push.
    func verifyPushFactor(stateToken: String, factorId: String, resend: Bool, clientOS: String) throws -> AuthnOutcome {
        var transaction = try liveTransaction(stateToken)
        guard transaction.status == .mfaRequired || transaction.status == .mfaChallenge, let user = directory.users[transaction.userId]
        else { throw OktaErrorResponse.wrongAuthnState }
        guard let factor = pushFactors(userId: user.id).first(where: { $0.enrollment.pushMethodId == factorId }) else {
            throw OktaErrorResponse.notFound(factorId, type: "Factor")
        }
        let now = clock.now
        transaction.expiresAt = now + Self.stateTokenLifetime
        if !resend, transaction.factorId == factorId, let tx = transaction.pushTransactionId, let challenge = push.challenges[tx] {
            let result: String
            switch challenge.currentStatus(at: now) {
            case .waiting: result = "WAITING"
            case .approved:
                transaction.pushTransactionId = nil
                return finishPrimaryAuthentication(&transaction)
            case .denied: result = "REJECTED"
            case .expired: result = "TIMEOUT"
            }
            if result != "WAITING" { transaction.pushTransactionId = nil }
            authn.transactions[stateToken] = transaction
            return .mfaChallenge(transaction, user, factor, factorResult: result)
        }
        if let tx = transaction.pushTransactionId { closeWaitingChallenge(tx) }
        let challenge = createPushChallenge(
            enrollmentId: factor.enrollment.id,
            request: PushRequest(userVerification: configuration.pushUserVerification, clientOS: clientOS))
        transaction.status = .mfaChallenge
        transaction.factorId = factorId
        transaction.pushTransactionId = challenge.transactionId
        authn.transactions[stateToken] = transaction
        return .mfaChallenge(transaction, user, factor, factorResult: "WAITING")
    }

    /// `POST /api/v1/authn/previous`: from MFA_CHALLENGE back to MFA_REQUIRED (the push is withdrawn).
    func previousAuthnStep(stateToken: String) throws -> AuthnOutcome {
        var transaction = try liveTransaction(stateToken)
        guard transaction.status == .mfaChallenge, let user = directory.users[transaction.userId] else {
            throw OktaErrorResponse.wrongAuthnState
        }
        if let tx = transaction.pushTransactionId { closeWaitingChallenge(tx) }
        transaction.status = .mfaRequired
        transaction.factorId = nil
        transaction.pushTransactionId = nil
        transaction.expiresAt = clock.now + Self.stateTokenLifetime
        authn.transactions[stateToken] = transaction
        return .mfaRequired(transaction, user, pushFactors(userId: user.id))
    }
}
