import Foundation

/// What a client does when it sent a DPoP proof and the token endpoint answered with a Bearer token anyway: the
/// app does not require DPoP, so the server ignored the proof and the token is bound to nothing. Whoever holds it
/// can use it, which is what `--dpop` was asked to prevent, so that is never accepted silently. A person at a
/// terminal is warned and goes on; a script is refused unless `IDFLOW_DPOP_ALLOW_BEARER=1` says a Bearer token
/// will do, and is then warned too.
public struct BearerInPlaceOfDPoP: Sendable, Equatable {
    public var accepted: Bool
    /// Where the warning goes (`IdFlowContext.notice`: `--quiet` does not hide it).
    var warn: @Sendable (String) -> Void

    public init(accepted: Bool, warn: @escaping @Sendable (String) -> Void) {
        self.accepted = accepted
        self.warn = warn
    }

    /// Refused, with nothing to warn: what a client without a context (a test, a fuzz target) does.
    public static let refused = BearerInPlaceOfDPoP(accepted: false, warn: { _ in })

    static let problem =
        "the token endpoint issued a Bearer token although idflow sent a DPoP proof (--dpop): the app does not require DPoP, so the token is bound to no key and works for whoever holds it"

    /// Warns and returns when accepted; throws otherwise.
    func accept() throws(IdFlowError) {
        guard accepted else {
            throw .security(
                Self.problem,
                hint:
                    "in Okta, turn on \"Require Demonstrating Proof of Possession (DPoP) header in token requests\" for the app; or drop --dpop; or set IDFLOW_DPOP_ALLOW_BEARER=1 to accept the unbound token"
            )
        }
        warn("warning: \(Self.problem)")
    }

    /// Equal when both accept or both refuse: where a warning goes is not part of the decision.
    public static func == (left: BearerInPlaceOfDPoP, right: BearerInPlaceOfDPoP) -> Bool { left.accepted == right.accepted }
}

extension IdFlowContext {
    /// This run's answer to a Bearer token in place of a DPoP-bound one: accepted at a terminal (stdin and stderr
    /// are terminals) or with `IDFLOW_DPOP_ALLOW_BEARER=1`, refused in a script otherwise.
    package var bearerInPlaceOfDPoP: BearerInPlaceOfDPoP {
        BearerInPlaceOfDPoP(accepted: console.isInteractive || configuration.acceptsBearerInPlaceOfDPoP, warn: notice)
    }
}
