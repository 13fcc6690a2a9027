import Foundation

/// The one HTTP client every API goes through: transport security, timeouts, retries, the trace.
public struct HTTPClient: Sendable {
    public var transport: any HTTPTransport
    public var timeout: Duration
    public var retryPolicy: RetryPolicy
    public var trace: HTTPTrace?
    /// Sees each exchange: `--curl` writes each request as a curl command (`CurlScript`).
    public var observer: (any HTTPObserver)?
    /// Waits between attempts; tests replace it to run instantly and record the waits.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// Adds up to this much random time to each wait, so many clients do not retry in lockstep.
    public var maxJitter: Duration
    /// The servers' latest nonces (DPoP's), shared by every copy of this client.
    public var serverNonces = ServerNonces()

    public init(
        transport: any HTTPTransport, timeout: Duration = .seconds(30), retryPolicy: RetryPolicy = RetryPolicy(maxRetries: 3),
        trace: HTTPTrace? = nil, observer: (any HTTPObserver)? = nil, maxJitter: Duration = .milliseconds(250),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.transport = transport
        self.timeout = timeout
        self.retryPolicy = retryPolicy
        self.trace = trace
        self.observer = observer
        self.maxJitter = maxJitter
        self.sleep = sleep
    }

    /// Sends `request`, retrying as `retryPolicy` allows, and returns the final response whatever its status;
    /// a 429 that outlasts the budget becomes `.rateLimited`, a transport failure `.network`.
    public func send(_ request: HTTPRequest) async throws(IdFlowError) -> HTTPResponse {
        try TransportSecurity.check(request.url)
        let unsigned = wireRequest(request)
        var attempt = 0
        // A nonce challenge (DPoP's `use_dpop_nonce`) is followed once with the nonce it brought, whatever the retry budget.
        var nonceRetries = 0
        // One command per request, however often it is retried: a replay sends it once.
        var step: Int?
        while true {
            attempt += 1
            var wire = unsigned
            try request.signing?.sign(&wire, nonces: serverNonces, now: Date())
            if attempt == 1 { step = observer?.request(wire) }
            trace?.request(wire, attempt: attempt)
            let started = ContinuousClock.now
            let retriesLeft = attempt - nonceRetries <= retryPolicy.maxRetries
            do {
                let response = try await transport.send(wire)
                trace?.response(response, elapsed: ContinuousClock.now - started)
                if let signing = request.signing, signing.read(response, url: request.url, nonces: serverNonces), nonceRetries == 0 {
                    nonceRetries += 1
                    trace?.note("the server asked for a DPoP nonce; signing the request again with it")
                    if let step { observer?.answer(step, response, retried: true) }
                    continue
                }
                let retrying = retriesLeft && retryPolicy.shouldRetry(status: response.status, request: request)
                if let step { observer?.answer(step, response, retried: retrying) }
                if retrying {
                    try await wait(before: attempt, after: response)
                    continue
                }
                if response.status == 429 {
                    throw IdFlowError.rateLimited(
                        attempts: attempt, body: try? JSONDecoder().decode(OktaErrorBody.self, from: response.body))
                }
                return response
            } catch let error as IdFlowError {
                throw error
            } catch {
                let failure = (error as? TransportFailure) ?? TransportFailure(.unknown, reason: String(describing: error))
                let reason = Self.describe(failure)
                trace?.failure(request.url, reason: reason, elapsed: ContinuousClock.now - started)
                if let step { observer?.failure(step, reason: reason) }
                if retriesLeft, retryPolicy.shouldRetry(error: failure, request: request) {
                    try await wait(before: attempt, after: nil)
                    continue
                }
                throw .network(url: Redactor.url(request.url.absoluteString), reason: reason)
            }
        }
    }

    private func wait(before retry: Int, after response: HTTPResponse?) async throws(IdFlowError) {
        let jitter = Duration.milliseconds(Int.random(in: 0...max(0, Int(maxJitter.inSeconds * 1000))))
        let delay = retryPolicy.delay(before: retry, after: response, jitter: jitter)
        trace?.note("retrying in \(delay.inSeconds) s")
        do {
            try await sleep(delay)
        } catch {
            throw .internalFailure("interrupted while waiting to retry")
        }
    }

    /// The request as it goes out before it is signed: idflow's `User-Agent` (unless the request names its own), the
    /// client's timeout, no signer left on it.
    private func wireRequest(_ request: HTTPRequest) -> HTTPRequest {
        var wire = request
        wire.signing = nil
        wire.timeout = timeout
        if wire.header("User-Agent") == nil { wire.headers["User-Agent"] = IdFlowVersion.userAgent }
        return wire
    }

    /// A short human reason for a transport failure ("connection refused", "timed out", "TLS: …").
    package static func describe(_ failure: TransportFailure) -> String {
        switch failure.kind {
        case .cannotConnectToHost: return "connection refused"
        case .timedOut: return "timed out"
        case .cannotFindHost: return "host not found"
        case .networkConnectionLost: return "connection lost before the response was complete"
        case .notConnectedToInternet: return "not connected to a network"
        case .secureConnectionFailed, .serverCertificateUntrusted, .clientCertificateRejected:
            return "TLS failure: \(failure.reason)"
        case .badServerResponse: return "malformed or incomplete response"
        default: return failure.reason
        }
    }
}
