import Foundation

/// The passkeys the sandbox keeps for each user, beside the user's other Identity Engine enrollments.
///
/// Registration and assertion checks are the verifiers' (`WebAuthnRegistrationVerifier`,
/// `WebAuthnAssertionVerifier`); these functions store what they return, so a passkey registered once signs in through
/// any family (the Identity Engine, Direct Authentication) and its counter moves forward whichever one it used.
extension SandboxState {
    /// The user's passkeys, oldest first.
    func webAuthnCredentials(userId: String) -> [WebAuthnCredential] {
        idx.enrollments[userId]?.webAuthn ?? []
    }

    /// The passkey with `credentialId`, whoever it belongs to: a usernameless sign-in learns the user from it.
    func webAuthnCredential(id credentialId: [UInt8]) -> WebAuthnCredential? {
        for enrollments in idx.enrollments.values {
            if let credential = enrollments.webAuthn.first(where: { $0.credentialId == credentialId }) { return credential }
        }
        return nil
    }

    /// Keeps a verified registration. A credential id already registered (to this user or another) is refused, as
    /// W3C WebAuthn §7.1 asks, so one authenticator's key cannot be claimed by two accounts.
    func addWebAuthnCredential(_ credential: WebAuthnCredential) throws(WebAuthnFailure) {
        guard webAuthnCredential(id: credential.credentialId) == nil else { throw .credentialAlreadyRegistered }
        idx.enrollments[credential.userId, default: IDXUserEnrollments()].webAuthn.append(credential)
    }

    /// Stores the sign count and backup state a verified assertion brought; false when the credential is gone (deleted
    /// while the assertion was checked).
    @discardableResult
    func recordWebAuthnAssertion(_ verified: WebAuthnAssertionVerifier.Verified) -> Bool {
        let credential = verified.credential
        guard let index = idx.enrollments[credential.userId]?.webAuthn.firstIndex(where: { $0.credentialId == credential.credentialId })
        else { return false }
        idx.enrollments[credential.userId]?.webAuthn[index].signCount = credential.signCount
        idx.enrollments[credential.userId]?.webAuthn[index].backedUp = credential.backedUp
        return true
    }

    /// Removes one of the user's passkeys; false when the user has none with that id.
    @discardableResult
    func removeWebAuthnCredential(userId: String, credentialId: [UInt8]) -> Bool {
        guard let index = idx.enrollments[userId]?.webAuthn.firstIndex(where: { $0.credentialId == credentialId }) else { return false }
        idx.enrollments[userId]?.webAuthn.remove(at: index)
        return true
    }
}
