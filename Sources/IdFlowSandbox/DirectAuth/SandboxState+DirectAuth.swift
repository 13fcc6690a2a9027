import Foundation

/// Okta Direct Authentication's transactions (direct-auth.md §§3–5): an OOB started by `/primary-authenticate`
/// (`/oob-authenticate`) or by `/challenge` after `mfa_required`. A push goes to every push enrollment of the user as
/// the push authenticator's own challenge (`createPushChallenge`), so `idflow challenges` lists it and `idflow resolve`
/// answers it; SMS and voice codes go to the outbox. The grants that finish them are `SandboxState+DirectAuthGrants`.
extension SandboxState {
    /// What `/challenge` started.
    enum DirectAuthChallenge: Sendable {
        /// `mfa-otp`: the client sends the code to `/token`.
        case otp
        case oob(DirectAuthOOBRecord)
        /// `mfa-webauthn`: the options the client's passkey answers at `/token`.
        case webAuthn(DirectAuthWebAuthnOptions)
    }

    /// The subject of a texted or spoken Direct Authentication code.
    static let directAuthCodeSubject = "Your sign-in verification code"

    /// `/primary-authenticate` (`/oob-authenticate`) with `challenge_hint` OOB: the ACTIVE user `loginHint` names.
    func startPrimaryOOB(
        loginHint: String, channel: DirectAuthChannel, clientId: String, server: HostedAuthorizationServer
    ) throws -> DirectAuthOOBRecord {
        guard let user = findUser(login: loginHint), user.status == .active else { throw DirectAuthError.invalidLoginHint }
        return try startOOB(userId: user.id, channel: channel, clientId: clientId, server: server, mfaToken: nil)
    }

    /// An OOB on `channel`: a push to each of the user's push enrollments (with the number of `directAuth.numberChallenge`),
    /// or a code to the user's phone; 403 when the user has no such authenticator.
    func startOOB(
        userId: String, channel: DirectAuthChannel, clientId: String, server: HostedAuthorizationServer, mfaToken: String?
    ) throws -> DirectAuthOOBRecord {
        let settings = configuration.directAuth
        let now = clock.now
        var record = DirectAuthOOBRecord(
            oobCode: "ft" + RandomToken.string(count: 32, alphabet: RandomToken.urlSafeAlphabet), userId: userId, clientId: clientId,
            server: server, channel: channel, expiresAt: now + TimeInterval(settings.expiresInSeconds),
            interval: TimeInterval(settings.intervalSeconds), mfaToken: mfaToken)
        switch channel {
        case .push:
            let enrollments = activeEnrollments(userId: userId)
            guard !enrollments.isEmpty else { throw DirectAuthError.enrollmentRequired }
            let number = settings.numberChallenge ? NumberChallenge.random() : nil
            record.transferCode = number?.correctAnswer
            let request = PushRequest(userVerification: configuration.pushUserVerification, numberChallenge: number)
            record.pushTransactionIds = enrollments.map { createPushChallenge(enrollmentId: $0.id, request: request).transactionId }
        case .sms, .voice:
            guard let phone = idx.enrollments[userId]?.phone else { throw DirectAuthError.enrollmentRequired }
            record.promptCode = sendCode(to: phone.phoneNumber, subject: Self.directAuthCodeSubject, channel: channel.rawValue)
        }
        noteRecordActivity()
        directAuth.oobTransactions[record.oobCode] = record
        return record
    }

    /// `/challenge`: of the `types` the client lists, the first the user can answer, the OOB one when a `channel` is
    /// hinted; an OOB without a hint goes to push when the user has an enrollment, else to the phone by SMS.
    func startDirectAuthChallenge(
        mfaToken: String, types: [DirectAuthGrant], channel: DirectAuthChannel?, clientId: String, server: HostedAuthorizationServer
    ) throws -> DirectAuthChallenge {
        let mfa = try liveDirectAuthMFA(mfaToken, clientId: clientId, server: server)
        let candidates = types.filter(mfa.challengeTypes.contains)
        let chosen = channel != nil && candidates.contains(.mfaOOB) ? .mfaOOB : candidates.first
        switch chosen {
        case .mfaOTP?:
            return .otp
        case .mfaWebAuthn?:
            return .webAuthn(startWebAuthnChallenge(userId: mfa.userId, clientId: clientId, server: server, mfaToken: mfaToken))
        case .mfaOOB?:
            let fallback: DirectAuthChannel = activeEnrollments(userId: mfa.userId).isEmpty ? .sms : .push
            return .oob(
                try startOOB(userId: mfa.userId, channel: channel ?? fallback, clientId: clientId, server: server, mfaToken: mfaToken))
        default:
            throw DirectAuthError.enrollmentRequired
        }
    }

    /// The MFA transaction of an `mfa_token`, still live and asked for by the client and authorization server that
    /// started it; an unknown token reads as an expired one (a purged token is one).
    func liveDirectAuthMFA(_ mfaToken: String, clientId: String, server: HostedAuthorizationServer) throws -> DirectAuthMFARecord {
        guard let mfa = directAuth.mfaTransactions[mfaToken], mfa.expiresAt > clock.now else {
            throw DirectAuthError.expired("mfa_token")
        }
        guard mfa.clientId == clientId else { throw DirectAuthError.clientChanged(clientId, original: mfa.clientId) }
        guard mfa.server == server else {
            throw DirectAuthError.serverChanged(server.directAuthId, original: mfa.server.directAuthId)
        }
        return mfa
    }

    /// The second factors a user can answer: an OTP (a TOTP app or Okta Verify's TOTP), an OOB (a push enrollment
    /// or a phone), in the order of the recorded `supported_challenge_types`, then a passkey.
    func directAuthSecondFactors(userId: String) -> [DirectAuthGrant] {
        let pushEnrolled = !activeEnrollments(userId: userId).isEmpty
        let enrollments = idx.enrollments[userId]
        var types: [DirectAuthGrant] = []
        if pushEnrolled || enrollments?.googleOTP != nil { types.append(.mfaOTP) }
        if pushEnrolled || enrollments?.phone != nil { types.append(.mfaOOB) }
        if !(enrollments?.webAuthn ?? []).isEmpty { types.append(.mfaWebAuthn) }
        return types
    }
}
