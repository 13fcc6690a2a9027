import Foundation

/// What the relying party expects of one registration or assertion: the values it issued or is bound to, which the
/// client's signed bytes must repeat (W3C WebAuthn §7.1, §7.2).
///
/// The sandbox fills it from the transaction that issued the challenge and from its own base URL; the verifiers never
/// take these values from the request itself, so an answer made for another challenge or another origin is refused.
struct WebAuthnCeremony: Sendable {
    /// The challenge as issued (base64url in `activationData`/`challengeData`); compared as bytes, since a client
    /// re-encodes the bytes it decoded.
    let challenge: String
    /// `scheme://host[:port]` the client must say it talked to (`clientDataJSON.origin`).
    let origin: String
    /// The RP ID whose SHA-256 the authenticator data must start with.
    let rpId: String
    /// The policy's user-verification requirement; only `required` makes the UV flag mandatory.
    let userVerification: WebAuthnUserVerification

    init(challenge: String, origin: String, rpId: String, userVerification: WebAuthnUserVerification = .preferred) {
        self.challenge = challenge
        self.origin = origin
        self.rpId = rpId
        self.userVerification = userVerification
    }
}

/// A WebAuthn `userVerification` value, as the policy sets it and `activationData`/`challengeData` carry it.
public enum WebAuthnUserVerification: String, Sendable, CaseIterable, Codable {
    case required, preferred, discouraged
}
