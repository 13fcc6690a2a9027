import Foundation
import IdFlowFoundation

/// The one-time token that lets a user without a password set one; it arrives alone or inside an
/// activation link (`{org}/welcome/{token}` on Classic orgs, `{org}/tokens/{token}/verify` on Identity Engine).
public struct ActivationToken: Sendable, Equatable {
    public let secret: Secret
    /// What the link was for, when a link said so: a used token is then explained with the command that issues a
    /// new one of the same kind (a reset link is not re-issued by `idflow activate`).
    public let purpose: Purpose

    /// Which kind of one-time link the token came from; a bare token does not say.
    public enum Purpose: Sendable, Equatable {
        case activation
        case passwordReset
        case unknown

        /// What to do when the server refuses the token as invalid, used or expired.
        var refusedHint: String {
            switch self {
            case .activation:
                return "the activation token is invalid, used or expired; get a new one with `idflow activate` (or reactivate)"
            case .passwordReset:
                return "the reset link is invalid, used or expired (it works once); get a new one with `idflow user reset-password USER`, "
                    + "or the user's own forgot-password e-mail"
            case .unknown:
                return "the token is invalid, used or expired; a new activation token comes from `idflow activate`, "
                    + "a new reset link from `idflow user reset-password USER`"
            }
        }
    }

    /// Accepts a bare token (letters, digits, `_` and `-`).
    public init(_ token: String, purpose: Purpose = .unknown) throws(IdFlowError) {
        let trimmed = token.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.unicodeScalars.allSatisfy(Self.allowed.contains) else {
            throw .invalidInput(
                "the activation token contains characters an activation token never has",
                hint: "pass the token printed by `idflow activate` (.activationToken), or the whole link with --activation-url")
        }
        secret = Secret(trimmed)
        self.purpose = purpose
    }

    /// Extracts the token from an activation link, and the org it belongs to.
    public static func parse(activationURL text: String) throws(IdFlowError) -> (token: ActivationToken, org: URL) {
        guard let components = URLComponents(string: text.trimmingCharacters(in: .whitespacesAndNewlines)),
            components.scheme != nil, components.host != nil
        else {
            throw .invalidInput("the activation URL is not a URL", hint: "pass the activationUrl printed by `idflow activate`")
        }
        let segments = components.path.split(separator: "/").map(String.init)
        var token: String?
        var purpose = Purpose.activation
        if segments.count == 2, segments[0] == "welcome" {
            token = segments[1]
        } else if segments.count == 3, segments[0] == "tokens", segments[2] == "verify" {
            token = segments[1]
        } else if segments.count == 2, segments[0] == "reset_password" {
            // An admin's reset (`lifecycle/reset_password`): redeemed the same way, to PASSWORD_RESET (okta-core.md §G).
            token = segments[1]
            purpose = .passwordReset
        } else if segments.count == 3, segments[0] == "signin", segments[1] == "reset-password" {
            // `credentials/forgot_password` on an Identity Engine org.
            token = segments[2]
            purpose = .passwordReset
        }
        guard let token else {
            throw .invalidInput(
                "the URL has none of the forms /welcome/{token}, /tokens/{token}/verify, /reset_password/{token} or /signin/reset-password/{token}",
                hint: "pass the activationUrl printed by `idflow activate` (or a resetPasswordUrl), or the token with --activation-token")
        }
        guard let link = components.url, let org = Origin(link) else { throw .invalidInput("the activation URL has no usable host") }
        return (try ActivationToken(token, purpose: purpose), org.url)
    }

    private static let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
}
