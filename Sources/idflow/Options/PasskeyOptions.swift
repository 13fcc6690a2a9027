import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation

/// How a passkey is made and opened (`PasskeyAuthenticator.Settings`), shared by the commands that answer WebAuthn
/// steps. The PIN comes from a file or a terminal prompt, never the command line; `IDFLOW_PIN` stays the push
/// key's, so that a PIN exported for one authenticator never seals or opens the other.
struct PasskeyOptions: ParsableArguments {
    @Option(
        name: .customLong("passkey-pin-file"), help: ArgumentHelp("Read the passkey PIN from a file.", valueName: "path"),
        completion: .file())
    var passkeyPinFile: String?

    @Option(help: ArgumentHelp("A new passkey's attestation.", valueName: "format"))
    var attestation: AttestationObject.Format = .none

    @Option(help: ArgumentHelp("The AAGUID a new passkey reports.", valueName: "uuid"))
    var aaguid: String?

    mutating func validate() throws {
        if let aaguid, UUID(uuidString: aaguid) == nil {
            throw ValidationError("--aaguid must be a UUID, such as 08987058-cadc-4b81-b6e1-30de50dcbe96")
        }
    }

    /// Whether any of these options was given (they apply only where passkeys are answered).
    var given: Bool { passkeyPinFile != nil || attestation != .none || aaguid != nil }

    /// The authenticator's settings.
    var settings: PasskeyAuthenticator.Settings {
        PasskeyAuthenticator.Settings(
            pin: passkeyPinFile.map(SecretSource.file), attestation: attestation,
            aaguid: aaguid.flatMap(UUID.init(uuidString:)) ?? PasskeyAuthenticator.zeroAAGUID)
    }
}

extension AttestationObject.Format: ExpressibleByArgument {}
