import ArgumentParser
import IdFlowCore
import IdFlowFoundation

/// `--device-sso` (Native SSO), the same flag on every login: the sign-in also asks for a device secret and keeps it,
/// so `login-sso` can sign other apps in from it.
struct DeviceSSOOption: ParsableArguments {
    @Flag(name: .customLong("device-sso"), help: "Also get and keep a device secret (Native SSO), for login-sso.")
    var deviceSSO = false

    /// Runs `signIn` as `--device-sso` says: as it is, or through `DeviceSSO.signIn`.
    func run<Output>(
        _ context: IdFlowContext, tokens: (Output) -> TokenOutput, _ signIn: (IdFlowContext) async throws(IdFlowError) -> Output
    ) async throws(IdFlowError) -> Output {
        guard deviceSSO else { return try await signIn(context) }
        return try await DeviceSSO.signIn(context, tokens: tokens, signIn)
    }
}
