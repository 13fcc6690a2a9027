import CBOR
import Crypto
import Foundation

/// `authenticatorData` (W3C WebAuthn §6.1): the bytes the authenticator signs, read field by field.
///
/// ```
/// 0   32  rpIdHash = SHA-256(RP ID)
/// 32  1   flags: UP 0x01, UV 0x04, BE 0x08, BS 0x10, AT 0x40, ED 0x80
/// 33  4   signCount, big-endian
/// 37  …   attested credential data (AT: registration), then an extensions map (ED)
/// ```
///
/// Every length is checked against the bytes left before it is used, and nothing may follow the last field, so a
/// truncated or padded answer is refused rather than half read.
struct WebAuthnAuthenticatorData: Sendable {
    let rpIdHash: [UInt8]
    let flags: Flags
    let signCount: UInt32
    /// Present when AT is set (registration).
    let attestedCredential: AttestedCredential?
    /// The exact bytes, which the signatures cover.
    let bytes: [UInt8]

    /// The flag bits the sandbox judges.
    struct Flags: Sendable, Equatable {
        let rawValue: UInt8
        /// User present: someone touched or unlocked the authenticator.
        var userPresent: Bool { rawValue & 0x01 != 0 }
        /// User verified: a PIN or biometric was checked.
        var userVerified: Bool { rawValue & 0x04 != 0 }
        /// Backup eligible: the credential may be synced (a multi-device passkey); fixed for the credential's life.
        var backupEligible: Bool { rawValue & 0x08 != 0 }
        /// Backed up: it is synced now.
        var backedUp: Bool { rawValue & 0x10 != 0 }
        var attestedCredentialData: Bool { rawValue & 0x40 != 0 }
        var extensionData: Bool { rawValue & 0x80 != 0 }
    }

    /// Attested credential data (W3C §6.5.1): the authenticator model, the credential id and its public key.
    struct AttestedCredential: Sendable {
        let aaguid: UUID
        let credentialId: [UInt8]
        /// The COSE_Key as decoded (W3C §6.5.1.1).
        let publicKey: CBOR
    }

    /// The longest credential id W3C allows (§5.8.3: at most 1023 bytes).
    static let maximumCredentialIdLength = 1023

    init(bytes: [UInt8]) throws(WebAuthnFailure) {
        guard bytes.count >= 37 else {
            throw .authenticatorDataMalformed("\(bytes.count) bytes, fewer than the 37 of the fixed fields")
        }
        self.bytes = bytes
        rpIdHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        var rest = bytes[37...]
        if flags.attestedCredentialData {
            guard rest.count >= 18 else { throw .authenticatorDataMalformed("the attested credential data is cut short") }
            let aaguid = Array(rest.prefix(16))
            let length = Int(rest[rest.startIndex + 16]) << 8 | Int(rest[rest.startIndex + 17])
            rest = rest.dropFirst(18)
            guard length <= Self.maximumCredentialIdLength else {
                throw .authenticatorDataMalformed("a credential id of \(length) bytes, more than 1023")
            }
            guard rest.count >= length else { throw .authenticatorDataMalformed("the credential id is cut short") }
            let credentialId = Array(rest.prefix(length))
            rest = rest.dropFirst(length)
            let key = try Self.item(&rest, else: "the credential public key is not CBOR")
            attestedCredential = AttestedCredential(aaguid: Self.uuid(aaguid), credentialId: credentialId, publicKey: key)
        } else {
            attestedCredential = nil
        }
        if flags.extensionData {
            let extensions = try Self.item(&rest, else: "the extensions are not CBOR")
            guard case .map = extensions else { throw .authenticatorDataMalformed("the extensions are not a CBOR map") }
        }
        guard rest.isEmpty else { throw .authenticatorDataMalformed("\(rest.count) bytes follow the last field") }
    }

    /// The CBOR item at the start of `rest` (the COSE key, the extensions), `rest` then what follows it.
    private static func item(_ rest: inout ArraySlice<UInt8>, else failure: String) throws(WebAuthnFailure) -> CBOR {
        do {
            let decoded = try CBOR.decodePrefix(rest)
            rest = decoded.rest
            return decoded.value
        } catch {
            throw .authenticatorDataMalformed("\(failure): \(error.reason)")
        }
    }

    /// W3C §7.1 and §7.2: made for this RP ID, with the user present, verified when the
    /// policy requires it, and BS only with BE (§6.1.3).
    func check(against ceremony: WebAuthnCeremony) throws(WebAuthnFailure) {
        guard rpIdHash == Array(SHA256.hash(data: Data(ceremony.rpId.utf8))) else { throw .rpIdHashMismatch(rpId: ceremony.rpId) }
        guard flags.userPresent else { throw .userNotPresent }
        if ceremony.userVerification == .required, !flags.userVerified { throw .userNotVerified }
        guard flags.backupEligible || !flags.backedUp else { throw .backupStateWithoutEligibility }
    }

    private static func uuid(_ bytes: [UInt8]) -> UUID {
        UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
