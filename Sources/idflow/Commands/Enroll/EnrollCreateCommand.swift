import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation

struct EnrollCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Enroll this machine as a push authenticator (the default of `enroll`).",
        usage: "idflow enroll create [<options>]",
        discussion: """
            Needs the user's access token with okta.myAccount.appAuthenticator.manage: the profile's login or \
            --access-token-stdin. This machine keeps one device identity per org.

              $ idflow enroll --name ci-runner-7 --user-verification \\
                  --pin-stdin <<<"$PIN" | jq -r .enrollmentId

            \(GlobalOptions.helpNote)
            """)

    @OptionGroup var accessToken: AccessTokenOption

    @Option(
        name: .customLong("push-token"),
        help: ArgumentHelp("The push (APNs) device token as hex; default none (challenges are fetched).", valueName: "hex"))
    var pushToken: String?

    @Flag(
        name: .customLong("user-verification"),
        help: "Also enroll a user-verification key, sealed under a PIN (6 characters or more).")
    var userVerification = false

    @Option(help: ArgumentHelp("The device's display name; default: the host name.", valueName: "name"))
    var name: String?

    @Option(
        name: .customLong("totp-secret-file"),
        help: ArgumentHelp(
            "Keep the seed of its TOTP method (Okta Verify's code) in this new 0600 file.",
            valueName: "file"),
        completion: .file())
    var totpSecretFile: String?

    @OptionGroup var pin: PINOptions
    @OptionGroup(title: GlobalOptions.title, visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        _ = try PushToken.validate(pushToken)
        if accessToken.accessTokenStdin && pin.pinStdin {
            throw ValidationError("--access-token-stdin and --pin-stdin cannot both read standard input")
        }
        if (pin.pinStdin || pin.pinFile != nil) && !userVerification {
            throw ValidationError("a PIN is only used with --user-verification")
        }
    }

    func run() async throws {
        try await CommandRunner.run(global) { context throws(IdFlowError) in
            try await EnrollDevice(
                accessTokenFromStandardInput: accessToken.accessTokenStdin, pushToken: try? PushToken.validate(pushToken),
                userVerification: userVerification, pin: try pin.source(context), name: name,
                totpSecretFile: totpSecretFile.map { TOTPSeedFile(URL(fileURLWithPath: $0)) }
            ).run(context)
        }
    }
}
