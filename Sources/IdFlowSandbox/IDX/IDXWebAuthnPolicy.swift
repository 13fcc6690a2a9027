import Foundation

/// How the Identity Engine's passkey authenticator (`webauthn`, shown as "Passkeys") behaves (`--config` key
/// `idx.webauthn`): the user verification it asks for, the authenticator models it accepts, whether it nudges users
/// without a passkey to enroll one after signing in, and the RP ID it names.
///
/// `{"userVerification": "required", "allowedAAGUIDs": ["…"], "promotion": true, "rpId": "example.com"}`; every key
/// may be left out. Whether passkeys are enrolled, and whether they are a sign-in factor, is said where the other
/// authenticators are: `idx.enroll.required` or `idx.enroll.optional` naming `webauthn`.
public struct WebAuthnPolicy: Codable, Sendable, Equatable {
    /// `authenticatorSelection.userVerification` and `challengeData.userVerification`; only `required` makes the
    /// sandbox refuse a ceremony without the UV flag, as Okta does.
    public var userVerification = WebAuthnUserVerification.preferred
    /// The AAGUIDs (authenticator models) a registration may come from; empty allows any, Okta's default.
    public var allowedAAGUIDs: [UUID] = []
    /// Passkey promotion: after a sign-in, a user with no passkey is offered `enroll-authenticator-promotion` (with
    /// `skip`) before the success document.
    public var promotion = false
    /// A custom RP ID (`rp.id` in `activationData`, `rpId` in `challengeData`). Okta's documents carry none unless the
    /// org sets one, and a client then derives it from the host; nil, the default, does the same.
    public var rpId: String?

    public init(
        userVerification: WebAuthnUserVerification = .preferred, allowedAAGUIDs: [UUID] = [], promotion: Bool = false,
        rpId: String? = nil
    ) {
        self.userVerification = userVerification
        self.allowedAAGUIDs = allowedAAGUIDs
        self.promotion = promotion
        self.rpId = rpId
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case userVerification, allowedAAGUIDs, promotion, rpId
    }

    /// Missing keys keep their defaults; unknown keys, user verification values and malformed AAGUIDs are refused
    /// with a message that says what is allowed.
    public init(from decoder: any Decoder) throws {
        try ConfigurationKeys.refuseUnknown(decoder, known: CodingKeys.allCases.map(\.rawValue), key: "idx.webauthn")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let text = try container.decodeIfPresent(String.self, forKey: .userVerification) {
            guard let value = WebAuthnUserVerification(rawValue: text) else {
                throw SandboxConfigurationError.invalidValue(
                    key: "idx.webauthn.userVerification", reason: "\"\(text)\" is not required, preferred or discouraged")
            }
            userVerification = value
        }
        allowedAAGUIDs = try (container.decodeIfPresent([String].self, forKey: .allowedAAGUIDs) ?? []).map { text in
            guard let aaguid = UUID(uuidString: text) else {
                throw SandboxConfigurationError.invalidValue(
                    key: "idx.webauthn.allowedAAGUIDs", reason: "\"\(text)\" is not a UUID (8-4-4-4-12 hexadecimal digits)")
            }
            return aaguid
        }
        promotion = try container.decodeIfPresent(Bool.self, forKey: .promotion) ?? false
        rpId = try container.decodeIfPresent(String.self, forKey: .rpId)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(userVerification.rawValue, forKey: .userVerification)
        try container.encode(allowedAAGUIDs.map { $0.uuidString.lowercased() }, forKey: .allowedAAGUIDs)
        try container.encode(promotion, forKey: .promotion)
        try container.encodeIfPresent(rpId, forKey: .rpId)
    }

    /// A custom RP ID is a bare host name (no scheme, port or path); whether it suits the org's host is the
    /// client's judgement (WebAuthn's registrable-suffix rule), as it would be against Okta.
    func validate() throws {
        guard let rpId else { return }
        let allowed = CharacterSet.lowercaseLetters.union(.decimalDigits).union(CharacterSet(charactersIn: ".-"))
        guard !rpId.isEmpty, rpId.unicodeScalars.allSatisfy({ $0.isASCII && allowed.contains($0) }), !rpId.hasPrefix("."),
            !rpId.hasSuffix(".")
        else {
            throw SandboxConfigurationError.invalidValue(
                key: "idx.webauthn.rpId", reason: "\"\(rpId)\" is not a lowercase host name such as example.com")
        }
    }
}

extension SandboxState {
    /// The passkey settings of the Identity Engine policy (`idx.webauthn`): user verification, the AAGUID allow list,
    /// promotion and the custom RP ID, for any part of the sandbox that verifies passkeys (Direct Authentication's
    /// WebAuthn grant too).
    public nonisolated var webAuthnPolicy: WebAuthnPolicy { configuration.idx.webAuthn }
}
