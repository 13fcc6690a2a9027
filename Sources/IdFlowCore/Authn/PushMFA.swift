import Foundation

/// `login-pkce --mfa push`: after MFA_REQUIRED, starts the push factor and polls until the push is answered
/// (okta-core.md §C4): SUCCESS gives the session token, REJECTED is exit 8, TIMEOUT (or `timeout` here) exit 9.
/// Progress goes to stderr; the waits use the client's sleep, so tests run instantly.
public struct PushMFA: MFAResolver {
    public var context: IdFlowContext
    public var timeout: Duration
    /// Between polls when the server does not say (`Retry-After`); the SDKs poll every 4–5 s.
    public var pollInterval: Duration

    public init(context: IdFlowContext, timeout: Duration = .seconds(300), pollInterval: Duration = .seconds(4)) {
        self.context = context
        self.timeout = timeout
        self.pollInterval = pollInterval
    }

    public func sessionToken(for transaction: AuthnTransaction, authn: AuthnAPI) async throws(IdFlowError) -> String {
        var current = transaction
        var wait: Duration?
        if current.status == "MFA_REQUIRED" {
            let factors = current.embedded?.factors ?? []
            guard let push = factors.first(where: { $0.factorType == "push" }), let link = push.links?.verify?.href else {
                throw .authentication(
                    "the sign-on policy requires a factor other than push (factors: \(factors.map(\.factorType).joined(separator: ", ")))",
                    hint: "use --browser, or enroll this user's push authenticator with `idflow enroll`")
            }
            let answer = try await verify(link, current, authn)
            current = answer.transaction
            wait = answer.retryAfter
            context.message(
                "push sent (factor \(push.id ?? "push")); waiting up to \(Int(timeout.inSeconds)) s for it to be answered, e.g. with `idflow resolve --next --approve`"
            )
        }
        var poll = PollingClock(context, limit: timeout)
        while true {
            switch (current.status, current.factorResult) {
            case ("SUCCESS", _):
                guard let token = current.sessionToken else { throw .protocolViolation("SUCCESS without a sessionToken") }
                context.message("push approved")
                return token
            case ("MFA_CHALLENGE", "WAITING"?):
                guard let next = current.links?.next?.href else {
                    throw .protocolViolation("the push is WAITING but the transaction has no poll link")
                }
                guard try await poll.wait(wait ?? pollInterval) else {
                    await cancel(current, authn)
                    throw .timedOut(
                        "nobody answered the push within \(Int(timeout.inSeconds)) s",
                        hint: PushChallenge.unansweredHint)
                }
                context.message("waiting for the push to be answered… \(Int(poll.elapsed.inSeconds)) s")
                let answer = try await verify(next, current, authn)
                current = answer.transaction
                wait = answer.retryAfter
            case ("MFA_CHALLENGE", "REJECTED"?), ("MFA_CHALLENGE", "CANCELLED"?):
                throw .denied(
                    "the push was denied (\(current.factorResult ?? ""))", hint: "the sign-in was refused on the push authenticator")
            case ("MFA_CHALLENGE", "TIMEOUT"?), ("MFA_CHALLENGE", "TIME_WINDOW_EXCEEDED"?):
                throw .timedOut(
                    "the push expired before anyone answered it (\(current.factorResult ?? ""))",
                    hint: PushChallenge.expiredHint)
            case ("MFA_CHALLENGE", let result):
                throw .rejected("the push verification ended with factorResult \(result ?? "(none)")", hint: "start the login again")
            default:
                throw .protocolViolation("unexpected Authn status \(current.status) while waiting for the push")
            }
        }
    }

    private func verify(_ link: String, _ transaction: AuthnTransaction, _ authn: AuthnAPI) async throws(IdFlowError)
        -> FactorVerifyRequest.Answer
    {
        guard let stateToken = transaction.stateToken else {
            throw .protocolViolation("the \(transaction.status) transaction carries no stateToken")
        }
        return try await authn.http.send(FactorVerifyRequest(orgURL: authn.orgURL, link: link, stateToken: stateToken))
    }

    /// Ends the transaction on the server when idflow stops waiting; failing to is only noted.
    private func cancel(_ transaction: AuthnTransaction, _ authn: AuthnAPI) async {
        guard let link = transaction.links?.cancel?.href, let stateToken = transaction.stateToken else { return }
        _ = try? await authn.http.send(FactorVerifyRequest(orgURL: authn.orgURL, link: link, stateToken: stateToken))
    }
}
