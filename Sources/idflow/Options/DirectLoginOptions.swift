import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation

extension OOBChannel: ExpressibleByArgument {}
extension LoginDirect.SecondFactor: ExpressibleByArgument {}

/// The ways into `login-direct` and their rules: one first factor (a code, an out-of-band channel, a passkey kept
/// here, or a password), the second factor after `mfa_required`, and where each secret comes from (stdin or a file,
/// never argv).
struct DirectLoginOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The user's login (login_hint).", valueName: "login"))
    var username: String?

    @Option(
        help: ArgumentHelp(
            "Finish an SMS or voice sign-in a script stopped (its \"transaction\").", valueName: "transaction"))
    var resume: String?

    @OptionGroup var factor: DirectFactorOptions

    @Flag(name: .customLong("password-stdin"), help: "Sign in with a password read from stdin.")
    var passwordStdin = false

    @Option(
        name: .customLong("password-file"), help: ArgumentHelp("Sign in with a password read from a file.", valueName: "path"),
        completion: .file())
    var passwordFile: String?

    @Option(help: ArgumentHelp("After a password: the second factor to answer.", valueName: "factor"))
    var mfa: LoginDirect.SecondFactor?

    /// `--passkey` too: the contract promised that name for login-direct before the issue chose `--webauthn`.
    @Flag(name: [.customLong("webauthn"), .customLong("passkey")], help: "Sign in with a passkey kept here.")
    var webauthn = false

    @OptionGroup var passkey: PasskeyOptions

    var password: Bool { passwordStdin || passwordFile != nil }
    var code: Bool { factor.givesCode }
    var oob: OOBChannel? { factor.oob }
    var usesPrompt: Bool { [.sms, .voice].contains(oob) || [.sms, .voice].contains(mfa) }

    func validate() throws {
        if passkey.attestation != .none || passkey.aaguid != nil {
            throw ValidationError("--attestation and --aaguid make a new passkey; login-direct signs with one kept here")
        }
        if passkey.given && !webauthn && mfa != .webauthn {
            throw ValidationError("--passkey-pin-file goes with --webauthn or --mfa webauthn")
        }
        if resume != nil {
            guard username == nil, !password, !code, oob == nil, mfa == nil, !webauthn else {
                throw ValidationError("--resume continues a kept sign-in: give only the code, with --binding-code-stdin")
            }
            return
        }
        guard username != nil || webauthn else {
            throw ValidationError("--username is required (or --resume a stopped sign-in); --webauthn alone uses a discoverable passkey")
        }
        let ways = [password, oob != nil, code && !password, webauthn].filter { $0 }.count
        guard ways == 1 else {
            throw ValidationError(
                "choose one way in: --otp-stdin, --totp-secret-file, --oob CHANNEL, or --password-stdin/--password-file "
                    + "(or --webauthn, a passkey)")
        }
        if passwordStdin && passwordFile != nil { throw ValidationError("give --password-stdin or --password-file, not both") }
        if factor.otpStdin && factor.totpSecretFile != nil { throw ValidationError("give --otp-stdin or --totp-secret-file, not both") }
        if mfa != nil && !password { throw ValidationError("--mfa follows a password (--password-stdin or --password-file)") }
        if password && code && mfa != .otp {
            throw ValidationError("with a password, --otp-stdin and --totp-secret-file go with --mfa otp")
        }
        if factor.bindingCodeStdin && !usesPrompt {
            throw ValidationError("--binding-code-stdin goes with --oob sms|voice or --mfa sms|voice")
        }
        if [passwordStdin, factor.otpStdin, factor.bindingCodeStdin].filter({ $0 }).count > 1 {
            throw ValidationError("only one secret can come from standard input; read the password from a file (--password-file)")
        }
    }

    /// The flow these flags choose.
    func login(acrValues: String?, clientSecret: Secret?, store: Bool) -> LoginDirect {
        let code = factor.code
        let primary: LoginDirect.Primary
        if let resume {
            primary = .resume(resume)
        } else if passwordStdin {
            primary = .password(.standardInput)
        } else if let passwordFile {
            primary = .password(.file(passwordFile))
        } else if let oob {
            primary = .oob(oob)
        } else if webauthn {
            primary = .webAuthn
        } else {
            primary = .otp(code ?? .given(.standardInput))
        }
        return LoginDirect(
            username: username ?? "", primary: primary, mfa: mfa, mfaCode: password ? code : nil,
            bindingCode: factor.bindingCode, acrValues: acrValues, clientSecret: clientSecret, store: store,
            passkey: passkey.settings)
    }
}
