import Foundation
import IdFlowFoundation

/// The password that replaces one the server no longer takes: an expired one, one about to expire that the user
/// chose to change, or a forgotten one after recovery. A script gives it (`--new-password-stdin`,
/// `--new-password-file`, `IDFLOW_NEW_PASSWORD`); at a terminal it is typed, twice. Either way it is checked
/// against the rules the server published before it is sent, so a weak one costs no round trip and the server's
/// transaction stays open for the next try.
public struct NewPassword: Sendable {
    /// The script's new password; nil asks at a terminal (and stops a script with the option to add).
    public var given: Secret?

    public init(given: Secret? = nil) {
        self.given = given
    }

    /// How a script supplies it, for messages.
    static let options = "--new-password-stdin or --new-password-file (or IDFLOW_NEW_PASSWORD)"

    /// The next candidate to send. `refused` holds why the previous one was not taken (the server's causes):
    /// a person is asked again, a script stops with them. `situation` says why a new password is needed ("the
    /// password of jo@example.com has expired"); `retryHint` is how a script tries again with another one.
    func candidate(
        rules: PasswordRules?, login: String?, refused: [String]?, situation: String, retryHint: String, context: IdFlowContext
    ) throws(IdFlowError) -> Secret {
        if refused == nil, let given {
            let broken = rules?.failedRules(given.value, login: login) ?? []
            guard broken.isEmpty else { throw .weakPassword(causes: broken, hint: retryHint) }
            return given
        }
        guard context.console.isInteractive else {
            if let refused { throw .weakPassword(causes: refused, hint: retryHint) }
            throw .rejected(
                "\(situation): a new password is needed", hint: "give it with \(Self.options); at a terminal idflow asks for it")
        }
        if let refused {
            context.console.line("the new password was not accepted:")
            for cause in refused { context.console.line("  \(cause)") }
        } else {
            context.console.line("\(situation); choose a new one.")
        }
        if let rules, !rules.summary.isEmpty { context.console.line("It must have \(rules.summary).") }
        for _ in 0..<3 {
            let typed = try PromptInterruption.run { context.console.promptSecret("New password: ") } ?? ""
            guard !typed.isEmpty else { continue }
            let broken = rules?.failedRules(typed, login: login) ?? []
            guard broken.isEmpty else {
                for cause in broken { context.console.line("  \(cause)") }
                continue
            }
            let again = try PromptInterruption.run { context.console.promptSecret("New password again: ") } ?? ""
            guard again == typed else {
                context.console.line("the two passwords differ")
                continue
            }
            return Secret(typed)
        }
        throw .rejected("no acceptable new password was typed", hint: "run again, or give it with \(Self.options)")
    }
}

/// The complexity rules a server publishes for a new password: Authn's `_embedded.policy.complexity` and the
/// Identity Engine's `settings.complexity` use the same names.
public typealias PasswordRules = AuthnTransaction.Complexity

extension AuthnTransaction.Complexity {
    /// The rules in words for a prompt ("at least 8 characters, a lowercase letter, …"); empty when none is set.
    var summary: String {
        var parts: [String] = []
        if let minLength, minLength > 0 { parts.append("at least \(minLength) characters") }
        for (minimum, noun) in [
            (minLowerCase, "lowercase letter"), (minUpperCase, "uppercase letter"), (minNumber, "number"), (minSymbol, "symbol"),
        ] {
            guard let minimum, minimum > 0 else { continue }
            parts.append(minimum == 1 ? "a \(noun)" : "\(minimum) \(noun)s")
        }
        if excludeUsername == true { parts.append("no part of the username") }
        return parts.joined(separator: ", ")
    }

    /// The rules of an Identity Engine password authenticator (`settings.complexity`, idx.md §12.3); nil when the
    /// document publishes none.
    init?(identityEngineSettings settings: JSONValue?) {
        guard let complexity = settings?["complexity"], case .object = complexity else { return nil }
        func number(_ key: String) -> Int? { complexity[key]?.intValue }
        self.init(
            minLength: number("minLength"), minLowerCase: number("minLowerCase"), minUpperCase: number("minUpperCase"),
            minNumber: number("minNumber"), minSymbol: number("minSymbol"), excludeUsername: complexity["excludeUsername"]?.boolValue)
    }
}
