import Foundation
import IdFlowFoundation

/// One passkey as this machine keeps it, one file under `{state-dir}/passkeys/`: what signs (the private key, in
/// clear or sealed under a PIN), what it signs for (RP ID and origin), and what the server knows it by.
public struct StoredPasskey: Codable, Sendable, Equatable {
    /// The credential id, base64url unpadded, as Okta echoes it in `credentialId`; also the file's name.
    public var id: String
    public var rpId: String
    /// The origin it was made on; it signs for no other (`clientDataJSON.origin`).
    public var origin: String
    /// `user.id` of the enrolment, base64url: the user handle of the assertions.
    public var userHandle: String
    /// The AAGUID it was registered with, as a UUID.
    public var aaguid: String
    /// The last sign count used; the next assertion signs with one more.
    public var signCount: UInt32
    public var created: Date
    /// The raw P-256 scalar, base64url; only when not sealed.
    var privateKey: String?
    /// The key sealed under a PIN (scrypt and AES-GCM, as the push user-verification key).
    var sealedKey: SealedKey?

    /// Whether a PIN seals the key: only such a passkey sets the UV flag.
    public var sealed: Bool { sealedKey != nil }

    /// What `passkey list` and `passkey show` print: everything but the key.
    public var summary: PasskeySummary {
        PasskeySummary(
            id: id, rpId: rpId, origin: origin, userHandle: userHandle, aaguid: aaguid, signCount: signCount,
            sealed: sealed, userVerification: sealed, created: ISO8601.string(created), createdAt: ISO8601.string(created))
    }
}

/// A stored passkey without its key (docs/contract.md, `idflow passkey`). The contract promised `userVerification`
/// and `createdAt` before the first build printed `sealed` and `created`; both names stay, with the same values.
public struct PasskeySummary: Codable, Sendable, Equatable {
    public var id: String
    public var rpId: String
    public var origin: String
    public var userHandle: String
    public var aaguid: String
    public var signCount: UInt32
    public var sealed: Bool
    /// Whether its assertions may say the user was verified: the same as `sealed`.
    public var userVerification: Bool
    /// ISO 8601, as every date idflow prints.
    public var created: String
    /// The same as `created`.
    public var createdAt: String
}
