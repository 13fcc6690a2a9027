import Foundation
import IdFlowFoundation

/// `--device-sso` on a login (native-sso.md §1.2): the scope must hold `openid device_sso offline_access`, all
/// three, for the server to issue a `device_secret`, which is then stored with the profile's tokens.
public enum DeviceSSO {
    public static let scopes = ["openid", "device_sso", "offline_access"]

    /// `scope` with whichever of the three it lacks appended.
    public static func scope(adding scope: String) -> String {
        var parts = scope.split(separator: " ").map(String.init)
        for needed in scopes where !parts.contains(needed) { parts.append(needed) }
        return parts.joined(separator: " ")
    }

    /// `--device-sso` on any login (`login-pkce` in every mode, `login-direct`, `login-device`), each of which takes its
    /// scope from the configuration: `signIn` runs with the three scopes added, and a sign-in that brought no device
    /// secret is said on stderr. The secret itself is kept with the tokens, and checked against the ID token's
    /// `ds_hash`, by the login every grant ends in.
    public static func signIn<Output>(
        _ context: IdFlowContext, tokens: (Output) -> TokenOutput,
        _ signIn: (IdFlowContext) async throws(IdFlowError) -> Output
    ) async throws(IdFlowError) -> Output {
        var asking = context
        asking.configuration.scope = scope(adding: context.configuration.scope)
        let output = try await signIn(asking)
        checkIssued(tokens(output), clientID: context.configuration.clientID, context)
        return output
    }

    /// Says so when the server signed in without issuing a device secret (the app is not allowed Native SSO).
    static func checkIssued(_ output: TokenOutput, clientID: String?, _ context: IdFlowContext) {
        guard output.response.deviceSecret == nil else { return }
        context.notice(
            "the server issued no device_secret: allow Native SSO (the device_sso scope and the Token Exchange grant) for app \(clientID ?? "")"
        )
    }
}
