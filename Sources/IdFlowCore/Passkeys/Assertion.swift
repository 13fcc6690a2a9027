import Crypto
import Foundation
import IdFlowFoundation

/// One answer to a WebAuthn challenge (webauthn.md §7, W3C §6.3.3): the authenticator data, the client data it
/// was made for, and the signature over `authenticatorData ‖ SHA-256(clientDataJSON)`.
public struct Assertion: Sendable, Equatable {
    public let authenticatorData: [UInt8]
    public let clientDataJSON: [UInt8]
    /// DER ECDSA.
    public let signature: [UInt8]
    public let userHandle: [UInt8]

    public init(
        authenticatorData: AuthenticatorData, clientData: ClientData, userHandle: [UInt8],
        credentialKey: P256.Signing.PrivateKey
    ) throws(IdFlowError) {
        precondition(clientData.ceremony == .get, "an assertion answers webauthn.get")
        precondition(authenticatorData.attestedCredential == nil, "an assertion carries no attested credential")
        self.authenticatorData = authenticatorData.bytes
        self.clientDataJSON = clientData.json
        self.signature = try Signing.der(self.authenticatorData + clientData.hash, with: credentialKey)
        self.userHandle = userHandle
    }
}
