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

    /// The `ds_hash` check the SDKs make (native-sso.md §1.2): when the ID token carries one, it must be the left half
    /// of the SHA-256 of the device secret issued beside it, so a secret swapped in transit is never stored. Made on
    /// the token before its signature is checked, which the login then does before anything is stored.
    public static func checkHash(_ response: TokenResponse) throws(IdFlowError) {
        guard let secret = response.deviceSecret, let idToken = response.idToken else { return }
        let token = try DecodedJWT(idToken)
        guard let claimed = token.claims["ds_hash"]?.stringValue, let algorithm = token.algorithm else { return }
        guard let expected = JWTValidator.leftHalfHash(of: secret, algorithm: algorithm) else { return }
        guard claimed == expected else {
            throw .security(
                "ds_hash in the ID token does not match the device secret", hint: "the device secret was swapped or altered; sign in again")
        }
    }

    /// Says so when the server signed in without issuing a device secret (the app is not allowed Native SSO).
    public static func checkIssued(_ output: TokenOutput, clientID: String?, _ context: IdFlowContext) {
        guard output.response.deviceSecret == nil else { return }
        context.notice(
            "the server issued no device_secret: allow Native SSO (the device_sso scope and the Token Exchange grant) for app \(clientID ?? "")"
        )
    }
}
