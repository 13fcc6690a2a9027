import Foundation
import IdFlowFoundation

/// `login-pkce --mfa push`: after MFA_REQUIRED, starts the push factor and polls until the push is answered
/// (okta-core.md §C4): SUCCESS gives the session token, REJECTED is exit 8, TIMEOUT (or `timeout` here) exit 9.
/// Progress goes to stderr; the waits use the client's sleep, so tests run instantly. Ctrl-C and a wait that
/// runs out cancel the Authn transaction before the run ends (130, 9), so the push cannot be approved later.
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

    /// The push is sent and waited for under one watch of SIGINT and SIGTERM: either cancels the wait, and the
    /// transaction is cancelled on the server before the run ends as `.interrupted` (exit 130).
    public func sessionToken(for transaction: AuthnTransaction, authn: AuthnAPI) async throws(IdFlowError) -> String {
        let latest = Locked(transaction)
        do throws(IdFlowError) {
            return try await Interruption.cancellingOnInterrupt(Self.interrupted) { () throws(IdFlowError) in
                try await waitForPush(transaction, authn, latest: latest)
            }
        } catch {
            if case .interrupted = error { await cancel(latest.current, authn) }
            throw error
        }
    }

    static let interrupted = "interrupted while waiting for the push"

    /// Sends the push and polls until it is answered; `latest` follows the transaction, so whoever stops the wait
    /// can cancel it with its current state token.
    private func waitForPush(_ transaction: AuthnTransaction, _ authn: AuthnAPI, latest: Locked<AuthnTransaction>)
        async throws(IdFlowError) -> String
    {
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
            latest.withLock { $0 = current }
            wait = answer.retryAfter
            context.message(
                "push sent (factor \(push.id ?? "push")); waiting up to \(Int(timeout.inSeconds)) s for it to be answered, e.g. with `idflow resolve --next --approve`"
            )
        }
        var poll = PollingClock(context, limit: timeout, interruption: .interrupted(Self.interrupted))
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
                latest.withLock { $0 = current }
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

    /// Ends the transaction on the server when idflow stops waiting, which withdraws the push; failing to is only
    /// noted. Sent from a task of its own: the waiting task may be the one Ctrl-C cancelled.
    private func cancel(_ transaction: AuthnTransaction, _ authn: AuthnAPI) async {
        guard let link = transaction.links?.cancel?.href, let stateToken = transaction.stateToken else { return }
        let (context, request) = (context, CancelTransactionRequest(orgURL: authn.orgURL, link: link, stateToken: stateToken))
        await Task.detached {
            do throws(IdFlowError) {
                try await authn.http.send(request)
                context.message("cancelled the sign-in on the server; the push can no longer be approved")
            } catch {
                context.notice("could not cancel the sign-in on the server (\(error.message)); the push stays open until it expires")
            }
        }.value
    }
}
