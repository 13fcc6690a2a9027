import Foundation
import IdFlowFoundation
import OneTimePasscode

/// `idflow totp`: the code an authenticator app would show now for a kept seed, read from the seed file an
/// enrollment wrote (`--secret-file`, refused when others can read it) or from stdin.
public struct CurrentTOTPCode: Sendable {
    public enum Seed: Sendable, Equatable {
        case file(TOTPSeedFile)
        case standardInput
    }

    public var seed: Seed

    public init(seed: Seed) { self.seed = seed }

    public func run(_ context: IdFlowContext) throws(IdFlowError) -> TOTPCodeOutput {
        let secret: TOTPSecret
        switch seed {
        case .file(let file): secret = try file.read()
        case .standardInput:
            let text = try context.secrets.read("TOTP seed", from: .standardInput)
            guard let parsed = TOTPSecret(base32: text.value) else {
                throw .invalidInput("the TOTP seed on standard input is not Base32", hint: "pipe the secret only, e.g. JBSWY3DPEHPK3PXP")
            }
            secret = parsed
        }
        return TOTPCodeOutput(secret: secret, now: context.now())
    }
}
