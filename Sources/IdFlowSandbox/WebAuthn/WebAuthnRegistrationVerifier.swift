import Foundation

/// Checks a passkey registration (the `enroll-authenticator` answer: `clientData` and `attestation`) as W3C WebAuthn
/// §7.1 describes, and turns it into the credential the sandbox keeps.
///
/// Real orgs verify these bytes; a sandbox that took any answer would let a client that signs for the wrong origin,
/// answers an old challenge or sends a broken key pass its tests and fail against Okta.
struct WebAuthnRegistrationVerifier: Sendable {
    let ceremony: WebAuthnCeremony
    /// The AAGUIDs the org allows; empty allows any (Okta's default; an admin may list custom FIDO2 AAGUIDs).
    var allowedAAGUIDs: [UUID] = []

    /// The verified credential for `userId`, created at `now` (the sandbox clock), from the two fields as posted
    /// (standard base64 or base64url).
    func verify(clientData: String, attestation: String, userId: String, now: Date) throws(WebAuthnFailure) -> WebAuthnCredential {
        let clientDataBytes = try WebAuthnBase64.decode(clientData, field: "clientData")
        let attestationBytes = try WebAuthnBase64.decode(attestation, field: "attestation")
        let client = try WebAuthnClientData(bytes: clientDataBytes)
        try client.check(type: "webauthn.create", against: ceremony)
        let attestationObject = try WebAuthnAttestation(bytes: attestationBytes)
        let authData = attestationObject.authenticatorData
        try authData.check(against: ceremony)
        guard let attested = authData.attestedCredential else { throw .attestedCredentialMissing }
        let key = try WebAuthnPublicKey(cose: attested.publicKey)
        try attestationObject.verify(credentialKey: key, clientDataHash: client.hash)
        guard allowedAAGUIDs.isEmpty || allowedAAGUIDs.contains(attested.aaguid) else {
            throw .aaguidNotAllowed(attested.aaguid)
        }
        return WebAuthnCredential(
            credentialId: attested.credentialId, publicKey: key, signCount: authData.signCount, aaguid: attested.aaguid,
            userId: userId, created: now, backupEligible: authData.flags.backupEligible, backedUp: authData.flags.backedUp,
            attestationFormat: attestationObject.format)
    }
}
