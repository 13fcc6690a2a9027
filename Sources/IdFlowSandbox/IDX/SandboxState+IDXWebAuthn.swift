import Foundation

/// Passkeys in the Identity Engine (`webauthn`, "Passkeys"): enrollment (`enroll-authenticator` with
/// `activationData`), the factor (`challenge-authenticator` with `challengeData`), the usernameless sign-in of
/// `identify` (`challenge-webauthn-autofillui-authenticator`) and passkey promotion (`enroll-authenticator-promotion`).
/// The bytes are checked by the WebAuthn verifiers against the challenge this transaction issued, the sandbox's own
/// origin and the policy's RP ID and user verification (`idx.webauthn`), never against values the request brings.
extension SandboxState {
    /// A new challenge: 24 random bytes as 32 base64url characters, so the text a client decodes and re-encodes in
    /// `clientDataJSON` comes back exactly.
    static func newWebAuthnChallenge() -> String {
        RandomToken.string(count: 32, alphabet: RandomToken.urlSafeAlphabet)
    }

    /// The RP ID passkeys are made for: the policy's custom one, or the host of the org URL, which is what a client
    /// derives when the documents name none.
    var webAuthnRPID: String {
        configuration.idx.webAuthn.rpId ?? URLComponents(string: orgURL)?.host ?? "localhost"
    }

    /// What a registration or assertion for `challenge` must repeat: the sandbox's origin (`scheme://host[:port]` of
    /// the org URL), its RP ID, and the policy's user verification.
    func webAuthnCeremony(challenge: String) -> WebAuthnCeremony {
        WebAuthnCeremony(
            challenge: challenge, origin: orgURL, rpId: webAuthnRPID, userVerification: configuration.idx.webAuthn.userVerification)
    }

    /// `credential/enroll` naming passkeys: the `enroll-authenticator` step with a fresh challenge. A sign-up's user id
    /// is chosen now (the passkey's user handle), and the user is created with it.
    func beginWebAuthnEnrollment(_ transaction: IDXTransaction, _ enrollee: IDXEnrollee) -> IDXTransaction {
        var enrollee = enrollee
        if case .signUp(var signUp) = enrollee, signUp.userId == nil {
            signUp.userId = RandomToken.oktaID(prefix: "00u")
            enrollee = .signUp(signUp)
        }
        return updateStep(transaction, to: .enrollWebAuthn(enrollee, challenge: Self.newWebAuthnChallenge()))
    }

    /// The user id a passkey enrolled by `enrollee` belongs to.
    func webAuthnUserId(_ enrollee: IDXEnrollee) -> String {
        switch enrollee {
        case .signUp(let signUp): return signUp.userId ?? ""
        case .signIn(let progress): return progress.userId
        }
    }

    /// The passkeys already registered to the enrollee (`excludeCredentials`, `authenticatorEnrollments`).
    func webAuthnCredentials(_ enrollee: IDXEnrollee) -> [WebAuthnCredential] {
        switch enrollee {
        case .signUp(let signUp): return signUp.enrollments.webAuthn
        case .signIn(let progress): return webAuthnCredentials(userId: progress.userId)
        }
    }

    /// The message of a refused registration, as the recorded IDX errors carry theirs.
    static func webAuthnMessage(_ failure: WebAuthnFailure, _ ceremony: WebAuthnFailure.Ceremony) -> IDXMessage {
        let shown = failure.idxMessage(for: ceremony)
        var message = IDXMessage(text: shown.message, key: shown.i18nKey)
        if case .aaguidNotAllowed(let aaguid) = failure, ceremony == .registration {
            message.params = [.string(aaguid.uuidString.lowercased())]
        }
        return message
    }

    /// Verifies `clientData` and `attestation` for the challenge of `challenge`, for the passkey's owner `userId`.
    private func verifyRegistration(_ credentials: OrderedJSON?, challenge: String, userId: String) throws(WebAuthnFailure)
        -> WebAuthnCredential
    {
        let verifier = WebAuthnRegistrationVerifier(
            ceremony: webAuthnCeremony(challenge: challenge), allowedAAGUIDs: configuration.idx.webAuthn.allowedAAGUIDs)
        let credential = try verifier.verify(
            clientData: credentials?["clientData"]?.stringValue ?? "", attestation: credentials?["attestation"]?.stringValue ?? "",
            userId: userId, now: clock.now)
        guard webAuthnCredential(id: credential.credentialId) == nil else { throw .credentialAlreadyRegistered }
        return credential
    }

    /// `challenge/answer` at `enroll-authenticator` for a passkey: verified, the passkey is the enrollee's and the
    /// enrollment (or the sign-in) goes on; refused, the same step with the reason at the top, a new challenge not
    /// needed since nothing was registered.
    func answerWebAuthnEnrollment(_ transaction: IDXTransaction, credentials: OrderedJSON?) -> IDXOutcome {
        guard case .enrollWebAuthn(let enrollee, let challenge) = transaction.step else {
            return .invalid(transaction, IDXFieldErrors(messages: [:]))
        }
        let credential: WebAuthnCredential
        do {
            credential = try verifyRegistration(credentials, challenge: challenge, userId: webAuthnUserId(enrollee))
        } catch {
            return .refused(transaction, message: Self.webAuthnMessage(error, .registration))
        }
        return enrolled(.webAuthn, transaction, enrollee) { $0.enrollments.webAuthn.append(credential) }
    }

    /// `select-authenticator-authenticate` choosing passkeys: `challenge-authenticator` with a fresh challenge.
    func challengeWebAuthn(_ transaction: IDXTransaction, _ progress: IDXSignIn) -> IDXTransaction {
        updateStep(transaction, to: .challengeWebAuthn(progress, challenge: Self.newWebAuthnChallenge()))
    }

    /// Verifies an assertion (`authenticatorData`, `clientData`, `signatureData`) against `candidates`, trying each
    /// (Okta's assertions name no credential), and stores the new sign count.
    private func verifyAssertion(_ credentials: OrderedJSON?, challenge: String, candidates: [WebAuthnCredential])
        throws(WebAuthnFailure) -> WebAuthnAssertionVerifier.Verified
    {
        let verified = try WebAuthnAssertionVerifier(ceremony: webAuthnCeremony(challenge: challenge)).verify(
            clientData: credentials?["clientData"]?.stringValue ?? "",
            authenticatorData: credentials?["authenticatorData"]?.stringValue ?? "",
            signature: credentials?["signatureData"]?.stringValue ?? "", credentials: candidates)
        recordWebAuthnAssertion(verified)
        return verified
    }

    /// Whether an assertion's authenticator data carried UV (it verified, so the bytes are well formed).
    private static func userVerified(_ credentials: OrderedJSON?) -> Bool {
        guard let text = credentials?["authenticatorData"]?.stringValue, let bytes = WebAuthnBase64.decode(text), bytes.count > 32 else {
            return false
        }
        return bytes[32] & 0x04 != 0
    }

    /// `challenge/answer` at a passkey's `challenge-authenticator`: a verified assertion counts the factor (twice with
    /// UV) and the sign-in goes on; anything else is Okta's one message (`authfactor.webauthn.error.assertion_validation_failure`)
    /// on the same step.
    func answerWebAuthnChallenge(_ transaction: IDXTransaction, credentials: OrderedJSON?) -> IDXOutcome {
        guard case .challengeWebAuthn(var progress, let challenge) = transaction.step else {
            return .invalid(transaction, IDXFieldErrors(messages: [:]))
        }
        do {
            _ = try verifyAssertion(credentials, challenge: challenge, candidates: webAuthnCredentials(userId: progress.userId))
        } catch {
            return .refused(transaction, message: Self.webAuthnMessage(error, .assertion))
        }
        progress.passed.append(.webAuthn)
        if Self.userVerified(credentials) { progress.passkeyVerifiedUser = true }
        return .next(continueSignIn(transaction, progress))
    }

    /// The user a usernameless assertion's `userHandle` names: the user id as text, or its base64 (the handle's bytes
    /// as a browser returns them); nil for no handle or an unknown one.
    func webAuthnUser(handle: String?) -> String? {
        guard let handle, !handle.isEmpty else { return nil }
        if directory.users[handle] != nil { return handle }
        if let bytes = WebAuthnBase64.decode(handle), let text = String(bytes: bytes, encoding: .utf8), directory.users[text] != nil {
            return text
        }
        return nil
    }

    /// `challenge/answer/webauthn-autofillui` at `identify`: a passkey sign-in without a username. The user comes from
    /// `userHandle` (or, without one, from whichever registered passkey verifies); the user must be ACTIVE. A passkey
    /// with UV is two factors and may finish the sign-in alone; without UV it is one, and when the policy asks for more
    /// the password is asked next (the passkey still counting). Refused, `identify` again with Okta's assertion
    /// message and a new challenge.
    func answerWebAuthnAutofill(_ transaction: IDXTransaction, credentials: OrderedJSON?) -> IDXOutcome? {
        guard case .identify = transaction.step, let challenge = transaction.autofillChallenge else { return nil }
        var retry = transaction
        retry.autofillChallenge = Self.newWebAuthnChallenge()
        idx.transactions[transaction.stateHandle] = retry
        let handle = credentials?["userHandle"]?.stringValue
        let candidates: [WebAuthnCredential]
        if let handle, !handle.isEmpty {
            candidates = webAuthnUser(handle: handle).map { webAuthnCredentials(userId: $0) } ?? []
        } else {
            candidates = idx.enrollments.values.flatMap(\.webAuthn)
        }
        let verified: WebAuthnAssertionVerifier.Verified
        do {
            verified = try verifyAssertion(credentials, challenge: challenge, candidates: candidates)
        } catch {
            return .refused(retry, message: Self.webAuthnMessage(error, .assertion))
        }
        let userId = verified.credential.userId
        guard let user = directory.users[userId], user.status == .active else {
            return .refused(retry, message: Self.webAuthnMessage(.signatureInvalid, .assertion))
        }
        var progress = IDXSignIn(userId: userId, passed: [.webAuthn])
        progress.passkeyVerifiedUser = Self.userVerified(credentials)
        if progress.factorCount < configuration.idx.factors {
            var next = retry
            next.passkeyFirst = progress
            idx.transactions[transaction.stateHandle] = next
            return .next(updateStep(next, to: .challengePassword(login: user.login)))
        }
        return .next(continueSignIn(retry, progress))
    }

    /// The sign-in has its factors: passkey promotion first when the policy asks and the user has no passkey
    /// (`enroll-authenticator-promotion`), otherwise the success document.
    func finishSignIn(_ transaction: IDXTransaction, _ progress: IDXSignIn) -> IDXTransaction {
        let policy = configuration.idx
        if policy.webAuthn.promotion, policy.authenticators.contains(.webAuthn), !userHas(.webAuthn, userId: progress.userId) {
            return updateStep(transaction, to: .promoteWebAuthn(progress, challenge: Self.newWebAuthnChallenge()))
        }
        return signIn(transaction, userId: progress.userId)
    }

    /// `credential/enroll {"credentials": {"clientData", "attestation", …}}` at `enroll-authenticator-promotion`: the
    /// registration verified as at enrollment, the passkey kept, and the sign-in finished; refused, the promotion again
    /// with the reason (the user may still `skip`).
    func answerWebAuthnPromotion(_ transaction: IDXTransaction, credentials: OrderedJSON?) -> IDXOutcome? {
        guard case .promoteWebAuthn(let progress, let challenge) = transaction.step else { return nil }
        let credential: WebAuthnCredential
        do {
            credential = try verifyRegistration(credentials, challenge: challenge, userId: progress.userId)
            try addWebAuthnCredential(credential)
        } catch {
            return .refused(transaction, message: Self.webAuthnMessage(error, .registration))
        }
        return .next(signIn(transaction, userId: progress.userId))
    }

    /// `skip` at `enroll-authenticator-promotion`: signed in without a passkey.
    func skipWebAuthnPromotion(_ transaction: IDXTransaction) -> IDXTransaction? {
        guard case .promoteWebAuthn(let progress, _) = transaction.step else { return nil }
        return signIn(transaction, userId: progress.userId)
    }
}
