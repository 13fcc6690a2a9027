import Foundation

/// Why the sandbox refused a passkey registration or assertion: one case per check, so a test can say which check
/// failed, with the values a person needs to see what went wrong (`reason`).
///
/// What a client is shown is Okta's wording, not the reason: `idxMessage` and `directAuthError` render it as the
/// recordings do.
enum WebAuthnFailure: Error, Sendable, Equatable {
    /// A field was neither standard base64 nor base64url.
    case notBase64(field: String)
    /// clientDataJSON is not a JSON object, or has no challenge in base64url.
    case clientDataUnreadable
    /// `clientDataJSON.type` was not `webauthn.create`/`webauthn.get` as the ceremony requires.
    case wrongType(expected: String, received: String?)
    /// `clientDataJSON.challenge` was not the challenge the sandbox issued.
    case challengeMismatch
    /// `clientDataJSON.origin` was not the sandbox's origin: the passkey signed for another site.
    case originMismatch(expected: String, received: String?)
    case crossOrigin
    case attestationMalformed(String)
    case unsupportedAttestationFormat(String)
    /// A `packed` attestation with a certificate chain (`x5c`), which the sandbox does not validate.
    case attestationCertificatesUnsupported
    case attestationAlgorithmMismatch(expected: Int, received: Int?)
    case attestationSignatureInvalid
    case authenticatorDataMalformed(String)
    /// The authenticator data was made for another RP ID.
    case rpIdHashMismatch(rpId: String)
    /// UP was not set.
    case userNotPresent
    /// UV was not set and the policy requires user verification.
    case userNotVerified
    /// BS without BE (W3C §6.1.3).
    case backupStateWithoutEligibility
    /// BE differs from the credential's registration.
    case backupEligibilityChanged
    /// A registration's authenticator data had no attested credential data (AT unset).
    case attestedCredentialMissing
    /// The COSE key is neither ES256 nor RS256, or not a valid key.
    case unsupportedPublicKey(String)
    /// The authenticator's AAGUID is not on the org's allow list.
    case aaguidNotAllowed(UUID)
    /// The credential id is registered already (W3C §7.1).
    case credentialAlreadyRegistered
    /// The user has no passkey to check the assertion with.
    case noCredentials
    /// The credential the client named is not one of the user's.
    case unknownCredential
    /// No credential of the user verifies the signature.
    case signatureInvalid
    /// The signature counter did not go up: a cloned credential (W3C §6.1.1, §7.2).
    case signCountNotIncreased(stored: UInt32, received: UInt32)

    /// Which ceremony the failure belongs to, for the message a client is shown.
    enum Ceremony: Sendable {
        case registration, assertion
    }

    /// The reason in plain words, for logs and tests.
    var reason: String {
        switch self {
        case .notBase64(let field): return "`\(field)` is not base64 or base64url"
        case .clientDataUnreadable: return "clientDataJSON is not a JSON object with a base64url challenge"
        case .wrongType(let expected, let received):
            return "clientDataJSON.type is \(received.map { "`\($0)`" } ?? "missing"), not `\(expected)`"
        case .challengeMismatch: return "clientDataJSON.challenge is not the challenge issued"
        case .originMismatch(let expected, let received):
            return "clientDataJSON.origin is \(received.map { "`\($0)`" } ?? "missing"), not `\(expected)`"
        case .crossOrigin: return "clientDataJSON.crossOrigin is true; cross-origin ceremonies are refused"
        case .attestationMalformed(let detail): return "the attestation object is malformed: \(detail)"
        case .unsupportedAttestationFormat(let format): return "attestation format `\(format)` is not supported (none, packed)"
        case .attestationCertificatesUnsupported:
            return "packed attestation with a certificate chain (x5c) is not supported; use self attestation or none"
        case .attestationAlgorithmMismatch(let expected, let received):
            return "the packed attestation's alg is \(received.map(String.init) ?? "missing"), not the credential key's \(expected)"
        case .attestationSignatureInvalid: return "the packed attestation signature does not verify with the credential's key"
        case .authenticatorDataMalformed(let detail): return "authenticatorData is malformed: \(detail)"
        case .rpIdHashMismatch(let rpId): return "authenticatorData's rpIdHash is not SHA-256 of `\(rpId)`"
        case .userNotPresent: return "the user-present (UP) flag is not set"
        case .userNotVerified: return "user verification is required and the UV flag is not set"
        case .backupStateWithoutEligibility: return "the backed-up (BS) flag is set without backup eligibility (BE)"
        case .backupEligibilityChanged: return "the backup-eligible (BE) flag differs from the credential's registration"
        case .attestedCredentialMissing: return "authenticatorData has no attested credential data (AT unset)"
        case .unsupportedPublicKey(let detail): return "unsupported credential public key: \(detail)"
        case .aaguidNotAllowed(let aaguid): return "AAGUID \(aaguid.uuidString.lowercased()) is not on the org's allow list"
        case .credentialAlreadyRegistered: return "the credential id is registered already"
        case .noCredentials: return "the user has no WebAuthn credential"
        case .unknownCredential: return "the credential id is not one of the user's"
        case .signatureInvalid: return "the signature does not verify with any of the user's credentials"
        case .signCountNotIncreased(let stored, let received):
            return "the sign count \(received) is not above the stored \(stored): the credential may be cloned"
        }
    }
}

/// An IDX message for a refused passkey (the sandbox's `IDXMessage` is built from it when the remediations are
/// wired): the i18n key, when Okta's recordings show one, and the text.
struct WebAuthnOktaMessage: Sendable, Equatable {
    /// nil: no recording shows the key Okta uses, and the message is sent without `i18n`.
    let i18nKey: String?
    let message: String

    /// What Okta answers any failed assertion with (`widget-error-authenticator-webauthn-failure.json`); it does not
    /// say which check failed.
    static let assertionValidationFailure = WebAuthnOktaMessage(
        i18nKey: "authfactor.webauthn.error.assertion_validation_failure",
        message: "None of the WebAuthn authenticators the user has enrolled for was able to validate the assertion")
}

extension WebAuthnFailure {
    /// The message an Identity Engine document carries. Every assertion failure is the one recorded message. No
    /// recording shows a refused registration, so the sandbox says what failed, shaped like the recorded messages
    /// (text, `i18n.key`, `class`) under keys of its own (`idflow.sandbox.webauthn.*`, as its other own messages are
    /// named); an AAGUID off the allow list is named, since a client's advice (choose another AAGUID) depends on it.
    func idxMessage(for ceremony: Ceremony) -> WebAuthnOktaMessage {
        switch ceremony {
        case .assertion:
            return .assertionValidationFailure
        case .registration:
            if case .aaguidNotAllowed(let aaguid) = self {
                return WebAuthnOktaMessage(
                    i18nKey: "idflow.sandbox.webauthn.aaguidNotAllowed",
                    message: "The authenticator's AAGUID \(aaguid.uuidString.lowercased()) is not allowed by this org's policy.")
            }
            return WebAuthnOktaMessage(
                i18nKey: "idflow.sandbox.webauthn.registrationRefused", message: "The passkey could not be registered: \(reason).")
        }
    }

    /// The token endpoint's error for a refused WebAuthn grant (direct-auth.md §6.3): an unreadable
    /// `clientDataJSON` is `invalid_request`, every other failure the recorded `invalid_grant`.
    var directAuthError: (error: String, description: String) {
        switch self {
        case .notBase64(field: "clientData"), .clientDataUnreadable:
            return ("invalid_request", "'clientDataJSON' is not a Base64 encoded JSON string containing a 'challenge'.")
        default:
            return ("invalid_grant", WebAuthnOktaMessage.assertionValidationFailure.message)
        }
    }
}
