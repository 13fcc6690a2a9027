import Foundation
import IdFlowFoundation

/// One secret of a `--curl` script: the shell variable that carries it and where its value comes from.
///
/// A value the run was given (the API token, a password, the PKCE verifier idflow made) is declared once at
/// the top, read from the environment; a value first met in an answer (a state token, a session token, an
/// access token) is set from that answer's saved copy right after it, so a replay carries it forward itself.
public struct ReplayVariable: Equatable, Sendable {
    public enum Source: Equatable, Sendable {
        /// Exported by whoever runs the script; `origin` says where the value came from in the run.
        case environment
        /// Read from the saved answer of request `step` by `extraction` (a shell command printing the value).
        case answer(step: Int, extraction: String)
    }

    public var name: String
    public var origin: String
    public var source: Source

    /// `export NAME="${NAME:?origin}"`: the declaration that stops a replay early, saying what is missing.
    var declaration: String {
        "export \(name)=\"${\(name):?\(ShellWord.commentText(origin))}\""
    }

    /// The comment and assignment written after the answer the value comes from.
    var assignment: String? {
        guard case .answer(_, let extraction) = source else { return nil }
        return "# \(name): \(ShellWord.commentText(origin))\nexport \(name)=\"$(\(extraction))\""
    }

    /// The shell name for a secret sent or met under `key` (a JSON member, form field, query parameter, header):
    /// `stateToken` is `STATE_TOKEN`, `code_verifier` the `PKCE_VERIFIER` the issue speaks of.
    static func name(forKey key: String) -> String {
        switch key.lowercased() {
        case "code_verifier": return "PKCE_VERIFIER"
        case "code": return "AUTHORIZATION_CODE"
        default: break
        }
        var result = ""
        var previousWasLower = false
        for character in key {
            if character.isLetter || character.isNumber, character.isASCII {
                if character.isUppercase, previousWasLower { result += "_" }
                result += character.uppercased()
                previousWasLower = character.isLowercase || character.isNumber
            } else {
                if !result.hasSuffix("_") { result += "_" }
                previousWasLower = false
            }
        }
        result = result.trimmingCharacters(in: CharacterSet(charactersIn: "_"))
        if result.isEmpty { return "SECRET" }
        if result.first?.isNumber == true { return "SECRET_" + result }
        return result
    }

    /// Where a value the run was given comes from, for the variables a person knows by name.
    static func origin(forKey key: String, url: String) -> String {
        switch key.lowercased() {
        case "password": return "the password of the user (--password-stdin, --password-file or the prompt)"
        case "newpassword": return "the new password (--new-password-stdin, --new-password-file or the prompt)"
        case "oldpassword": return "the old password"
        case "passcode": return "what the user answered an authenticator with (the password, or a one-time code)"
        case "code_verifier": return "the PKCE code verifier idflow made for this run (its challenge is in the authorize URL above)"
        case "client_secret", "clientsecret":
            return "the client secret (--client-secret-file, IDFLOW_CLIENT_SECRET_FILE or the profile's clientSecretFile)"
        case "token" where url.contains("/authn"):
            return "the activation or recovery token (--activation-token, its URL, or env IDFLOW_ACTIVATION_TOKEN)"
        case "refresh_token": return "the stored refresh token (idflow keeps it in the profile's state directory)"
        case "token" where url.hasSuffix("/introspect") || url.hasSuffix("/revoke"):
            return "the token the command was given (its argument, stdin, or the stored one: idflow token get)"
        case "token": return "the token the command was given"
        case "data" where url.contains("/custom-registration/") && url.hasSuffix("/init"):
            return "the identity provider's init data (--init-data or the prompt)"
        case "data" where url.contains("/custom-registration/"):
            return
                "the data for the identity provider (--data, --data-stdin or the prompt); a code it sent is good for one transaction only"
        default: return "the \(key) idflow sent"
        }
    }
}
