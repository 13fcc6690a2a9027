import Foundation

/// A passkey the sandbox registered for a user: what it needs to check the user's later assertions.
///
/// The sandbox's own record (the client keeps its own, private-key side, in its state directory); kept per user with
/// the user's other Identity Engine enrollments (`IDXUserEnrollments.webAuthn`).
struct WebAuthnCredential: Sendable, Equatable {
    /// The raw credential id; Okta lists it as unpadded base64url (`credentialIdText`).
    let credentialId: [UInt8]
    let publicKey: WebAuthnPublicKey
    /// The last signature counter seen; a later assertion must carry a larger one unless both are 0 (W3C §6.1.1).
    var signCount: UInt32
    /// The authenticator model (all zero for software and most platform passkeys); Okta shows it as
    /// `profile.aaguid`, and an org's allow list is judged on it.
    let aaguid: UUID
    /// The Okta user id (`00u…`) it belongs to, which is also the user handle the client stores.
    let userId: String
    let created: Date
    /// BE at registration: whether it may be synced. It must never change (W3C §6.1.3).
    let backupEligible: Bool
    /// BS at the last ceremony: whether it is synced now.
    var backedUp: Bool
    /// `none` or `packed`, the attestation it was registered with.
    let attestationFormat: String

    /// The credential id as Okta's `authenticatorEnrollments` lists it.
    var credentialIdText: String { WebAuthnBase64.encodeURL(credentialId) }

    /// The AAGUID in the lowercase form Okta's `profile.aaguid` shows.
    var aaguidText: String { aaguid.uuidString.lowercased() }
}
