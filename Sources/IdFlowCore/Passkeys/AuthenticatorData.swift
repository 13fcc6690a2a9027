import CBOR
import Crypto

/// Authenticator data (webauthn.md §5, W3C §6.1): the RP ID hash, the flags, the sign count and, at enrolment,
/// the new credential. The signature covers these exact bytes, so they are built once here.
public struct AuthenticatorData: Sendable, Equatable {
    /// The flags byte (W3C §6.1).
    public struct Flags: OptionSet, Sendable, Equatable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// User present: every idflow ceremony is started by its user.
        public static let userPresent = Flags(rawValue: 1 << 0)
        /// User verified: only a credential sealed under a PIN that was just entered.
        public static let userVerified = Flags(rawValue: 1 << 2)
        /// Backup eligible; must never change for a credential.
        public static let backupEligible = Flags(rawValue: 1 << 3)
        /// Backed up; invalid without backup eligible.
        public static let backedUp = Flags(rawValue: 1 << 4)
        /// Attested credential data follows the sign count.
        public static let attestedCredentialData = Flags(rawValue: 1 << 6)
        /// Extensions follow.
        public static let extensionData = Flags(rawValue: 1 << 7)
    }

    /// The credential made at enrolment (W3C §6.5.1).
    public struct AttestedCredential: Sendable, Equatable {
        /// 16 bytes; all zero is what a `none` attestation usually says.
        public var aaguid: [UInt8]
        /// At most 1023 bytes (W3C §6.5.1).
        public var credentialId: [UInt8]
        public var publicKey: P256.Signing.PublicKey

        public init(aaguid: [UInt8], credentialId: [UInt8], publicKey: P256.Signing.PublicKey) {
            precondition(aaguid.count == 16, "an AAGUID is 16 bytes")
            precondition((1...1023).contains(credentialId.count), "a credential id is 1 to 1023 bytes")
            self.aaguid = aaguid
            self.credentialId = credentialId
            self.publicKey = publicKey
        }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.aaguid == rhs.aaguid && lhs.credentialId == rhs.credentialId
                && lhs.publicKey.rawRepresentation == rhs.publicKey.rawRepresentation
        }
    }

    public var rpIdHash: [UInt8]
    /// Set by the caller for UP, UV, BE and BS; AT follows from `attestedCredential`.
    public var flags: Flags
    public var signCount: UInt32
    public var attestedCredential: AttestedCredential?

    public init(relyingParty: RelyingParty, flags: Flags, signCount: UInt32, attestedCredential: AttestedCredential? = nil) {
        precondition(
            !flags.contains(.backedUp) || flags.contains(.backupEligible), "backed up without backup eligible (W3C §6.1.3)")
        self.rpIdHash = relyingParty.idHash
        self.flags = flags
        self.signCount = signCount
        self.attestedCredential = attestedCredential
    }

    /// The bytes: 37 for an assertion; 37 + 18 + the credential id + 77 at an ES256 enrolment.
    public var bytes: [UInt8] {
        var flags = self.flags.subtracting([.attestedCredentialData, .extensionData])
        if attestedCredential != nil { flags.insert(.attestedCredentialData) }
        var output = rpIdHash + [flags.rawValue]
        output += (0..<4).reversed().map { UInt8(truncatingIfNeeded: signCount >> ($0 * 8)) }
        if let credential = attestedCredential {
            let length = UInt16(credential.credentialId.count)
            output += credential.aaguid + [UInt8(length >> 8), UInt8(length & 0xFF)] + credential.credentialId
            output += COSEKey.es256(credential.publicKey).encoded()
        }
        return output
    }
}
