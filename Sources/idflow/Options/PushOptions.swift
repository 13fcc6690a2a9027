import ArgumentParser
import IdFlowCore
import IdFlowFoundation

/// Where the PIN of a push enrollment's user-verification key comes from: stdin, a file or `IDFLOW_PIN`,
/// never the command line.
struct PINOptions: ParsableArguments {
    @Flag(
        name: .customLong("pin-stdin"),
        help: "Read the user-verification PIN from stdin (or env IDFLOW_PIN).")
    var pinStdin = false

    @Option(name: .customLong("pin-file"), help: ArgumentHelp("Read the PIN from a file.", valueName: "path"), completion: .file())
    var pinFile: String?

    /// The PIN's source, nil when none was given at all (the flow says when one is needed).
    func source(_ context: IdFlowContext) throws(IdFlowError) -> SecretSource? {
        let environment = context.secrets.environment
        guard pinStdin || pinFile != nil || !(environment["IDFLOW_PIN"] ?? "").isEmpty else { return nil }
        return try SecretSource.choose(
            what: "PIN", stdin: pinStdin, file: pinFile, argument: nil, environmentVariable: "IDFLOW_PIN", environment: environment)
    }
}

/// `--access-token-stdin`: the user's access token (with the manage scope) instead of the profile's stored one.
struct AccessTokenOption: ParsableArguments {
    @Flag(
        name: .customLong("access-token-stdin"),
        help:
            "Read the user's access token from stdin instead of the profile's."
    )
    var accessTokenStdin = false
}

/// A push token as the SDK sends it: lowercase hex.
enum PushToken {
    static func validate(_ value: String?) throws -> String? {
        guard let value else { return nil }
        guard !value.isEmpty, value.allSatisfy(\.isHexDigit) else {
            throw ValidationError("--push-token must be hexadecimal (an APNs device token)")
        }
        return value.lowercased()
    }
}

/// `on` or `off`, for settings that are switched.
enum Switch: String, CaseIterable, ExpressibleByArgument {
    case on
    case off
}
