import Foundation

/// Checks a passkey assertion (`challenge-authenticator`'s `authenticatorData`, `clientData`, `signatureData`, or
/// Direct Authentication's `authenticatorData`, `clientDataJSON`, `signature`) as W3C WebAuthn §7.2 describes.
///
/// Okta's Identity Engine assertions carry no credential id, so without one every credential of the user is tried
/// and the one whose key verifies the signature is the one used; that is why Okta's failure reads "None of the
/// WebAuthn authenticators the user has enrolled for was able to validate the assertion".
struct WebAuthnAssertionVerifier: Sendable {
    let ceremony: WebAuthnCeremony

    /// Which credential signed, with its signature counter and backup state brought up to date; the caller stores it.
    struct Verified: Sendable, Equatable {
        let credential: WebAuthnCredential
        var newSignCount: UInt32 { credential.signCount }
    }

    /// Verifies the three fields as posted (standard base64 or base64url) against `credentials`, the user's
    /// registered passkeys; `credentialId`, when the client names one (Direct Authentication may), limits the search
    /// to it.
    func verify(
        clientData: String, authenticatorData: String, signature: String, credentialId: String? = nil,
        credentials: [WebAuthnCredential]
    ) throws(WebAuthnFailure) -> Verified {
        let clientDataBytes = try WebAuthnBase64.decode(clientData, field: "clientData")
        let authDataBytes = try WebAuthnBase64.decode(authenticatorData, field: "authenticatorData")
        let signatureBytes = try WebAuthnBase64.decode(signature, field: "signatureData")
        var candidates = credentials
        if let credentialId {
            let id = try WebAuthnBase64.decode(credentialId, field: "credentialId")
            candidates = credentials.filter { $0.credentialId == id }
            guard !candidates.isEmpty else { throw .unknownCredential }
        }
        guard !candidates.isEmpty else { throw .noCredentials }
        let client = try WebAuthnClientData(bytes: clientDataBytes)
        try client.check(type: "webauthn.get", against: ceremony)
        let authData = try WebAuthnAuthenticatorData(bytes: authDataBytes)
        try authData.check(against: ceremony)
        let signed = authDataBytes + client.hash
        guard var credential = candidates.first(where: { $0.publicKey.isValidSignature(signatureBytes, for: signed) }) else {
            throw .signatureInvalid
        }
        // §7.2: BE is fixed when the credential is made.
        guard authData.flags.backupEligible == credential.backupEligible else { throw .backupEligibilityChanged }
        // §7.2 (§6.1.1): 0 and 0 is an authenticator without a counter; otherwise it must go up, or the
        // credential has been copied and both copies are signing.
        if authData.signCount != 0 || credential.signCount != 0 {
            guard authData.signCount > credential.signCount else {
                throw .signCountNotIncreased(stored: credential.signCount, received: authData.signCount)
            }
        }
        credential.signCount = authData.signCount
        credential.backedUp = authData.flags.backedUp
        return Verified(credential: credential)
    }
}
