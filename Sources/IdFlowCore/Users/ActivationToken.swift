import Foundation

/// The one-time token that lets a user without a password set one; it arrives alone or inside an
/// activation link (`{org}/welcome/{token}` on Classic orgs, `{org}/tokens/{token}/verify` on Identity Engine).
public struct ActivationToken: Sendable, Equatable {
    public let secret: Secret

    /// Accepts a bare token (letters, digits, `_` and `-`).
    public init(_ token: String) throws(IdFlowError) {
        let trimmed = token.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.unicodeScalars.allSatisfy(Self.allowed.contains) else {
            throw .invalidInput(
                "the activation token contains characters an activation token never has",
                hint: "pass the token printed by `idflow activate` (.activationToken), or the whole link with --activation-url")
        }
        secret = Secret(trimmed)
    }

    /// Extracts the token from an activation link, and the org it belongs to.
    public static func parse(activationURL text: String) throws(IdFlowError) -> (token: ActivationToken, org: URL) {
        guard let components = URLComponents(string: text.trimmingCharacters(in: .whitespacesAndNewlines)),
            let scheme = components.scheme, let host = components.host
        else {
            throw .invalidInput("the activation URL is not a URL", hint: "pass the activationUrl printed by `idflow activate`")
        }
        let segments = components.path.split(separator: "/").map(String.init)
        var token: String?
        if segments.count == 2, segments[0] == "welcome" {
            token = segments[1]
        } else if segments.count == 3, segments[0] == "tokens", segments[2] == "verify" {
            token = segments[1]
        } else if segments.count == 2, segments[0] == "reset_password" {
            // An admin's reset (`lifecycle/reset_password`): redeemed the same way, to PASSWORD_RESET (okta-core.md §G).
            token = segments[1]
        } else if segments.count == 3, segments[0] == "signin", segments[1] == "reset-password" {
            // `credentials/forgot_password` on an Identity Engine org.
            token = segments[2]
        }
        guard let token else {
            throw .invalidInput(
                "the URL has none of the forms /welcome/{token}, /tokens/{token}/verify, /reset_password/{token} or /signin/reset-password/{token}",
                hint: "pass the activationUrl printed by `idflow activate` (or a resetPasswordUrl), or the token with --activation-token")
        }
        var org = URLComponents()
        org.scheme = scheme
        org.host = host
        org.port = components.port
        guard let orgURL = org.url else { throw .invalidInput("the activation URL has no usable host") }
        return (try ActivationToken(token), orgURL)
    }

    private static let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
}
