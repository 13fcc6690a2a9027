import Foundation

/// The issuer's clock as its `Date` header tells it. Tokens are stamped by the server's clock and judged by this
/// machine's, so a token that looks expired, or not valid yet, may only mean a machine whose clock is off; the
/// skew tells the two apart.
public struct ServerClock: Sendable, Equatable, Encodable {
    /// Seconds the server's clock is ahead of this machine's (negative: behind), to the second the header carries.
    public var skewSeconds: Int
    /// The server's time when it answered.
    public var serverDate: Date

    public init(skewSeconds: Int, serverDate: Date) {
        self.skewSeconds = skewSeconds
        self.serverDate = serverDate
    }

    enum CodingKeys: String, CodingKey { case skewSeconds, serverDate }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(skewSeconds, forKey: .skewSeconds)
        try container.encode(ISO8601.string(serverDate), forKey: .serverDate)
    }

    /// This machine's `now` on the server's clock.
    package func serverTime(_ localNow: Date) -> Date { localNow.addingTimeInterval(TimeInterval(skewSeconds)) }

    /// Asks `url` once (GET, no retry, a short timeout) and reads its `Date` header against the local time halfway
    /// through the request; nil when the server cannot be reached or sends no usable `Date`, which leaves the token
    /// judged by the local clock alone.
    package static func measure(http: HTTPClient, now: () -> Date, url: URL, timeout: Duration = .seconds(3)) async -> ServerClock? {
        var http = http
        http.timeout = timeout
        http.retryPolicy = RetryPolicy(maxRetries: 0)
        return (try? await read(http: http, now: now, url: url)) ?? nil
    }

    /// One GET of `url` and its `Date` against the local time halfway through the exchange (the header has whole
    /// seconds); nil when the answer has no usable `Date`, the request's failure as it is (`doctor` reports it).
    package static func read(http: HTTPClient, now: () -> Date, url: URL) async throws(IdFlowError) -> ServerClock? {
        let sent = now()
        let response = try await http.send(.get(url))
        let received = now()
        guard let header = response.header("Date"), let date = HTTPDate.parse(header) else { return nil }
        let midpoint = sent.addingTimeInterval(received.timeIntervalSince(sent) / 2)
        return ServerClock(skewSeconds: Int(date.timeIntervalSince(midpoint).rounded()), serverDate: date)
    }

    /// The skew measured against `issuer`'s discovery document.
    package static func measure(_ context: IdFlowContext, issuer: URL) async -> ServerClock? {
        await measure(http: context.http, now: context.now, url: OpenIDConfigurationRequest(issuer: issuer).url)
    }

    /// A token refused by this machine's clock (`exp`, `nbf`, `iat`) that the server's clock accepts is a clock
    /// problem, not a token problem: the error says so, with the measured skew, instead of only "expired".
    package static func explain(
        _ error: IdFlowError, clock: ServerClock?, now: Date, validateAt: (Date) async throws(IdFlowError) -> Void
    ) async -> IdFlowError {
        guard case .security(let message, _) = error, let clock, clock.skewSeconds != 0 else { return error }
        do throws(IdFlowError) {
            try await validateAt(clock.serverTime(now))
        } catch {
            return error
        }
        let direction = clock.skewSeconds > 0 ? "behind" : "ahead of"
        return .security(
            "\(message) by this machine's clock, which is \(abs(clock.skewSeconds)) s \(direction) the issuer's (its Date header); "
                + "by the issuer's clock the token is valid",
            hint: "set this machine's clock (NTP: `timedatectl set-ntp true`, or `chronyc makestep`), then try again")
    }
}

extension ServerClock {
    /// A token's times by the server's clock, with the skew they were computed with.
    public struct Reading: Sendable, Equatable, Encodable {
        public var clock: ServerClock
        public var times: TokenTimes

        package init(clock: ServerClock, times: TokenTimes) {
            self.clock = clock
            self.times = times
        }

        public func encode(to encoder: any Encoder) throws {
            try clock.encode(to: encoder)
            try times.encode(to: encoder)
        }
    }
}

/// When a token was issued and when it expires, judged at one clock (this machine's, or the server's).
public struct TokenTimes: Sendable, Equatable, Encodable {
    public var expiresIn: String?
    /// Whole seconds until `exp`, negative once it has passed.
    public var expiresInSeconds: Int?
    public var issuedAgo: String?
    /// Whole seconds since `iat`, negative for a token issued "in the future" by this clock.
    public var issuedAgoSeconds: Int?

    package init(_ jwt: DecodedJWT, at now: Date) {
        let untilExpiry = jwt.expiresAt.map { $0.timeIntervalSince(now) }
        let sinceIssue = jwt.issuedAt.map { now.timeIntervalSince($0) }
        expiresIn = untilExpiry.map(TokenTimes.humanInterval)
        expiresInSeconds = untilExpiry.map { Int($0.rounded(.down)) }
        issuedAgo = sinceIssue.map(Self.ago)
        issuedAgoSeconds = sinceIssue.map { Int($0.rounded(.down)) }
    }

    static func ago(_ seconds: TimeInterval) -> String {
        // humanInterval words a future time as "in …" and a past one as "expired … ago".
        let text = TokenTimes.humanInterval(abs(seconds)).dropFirst(3)
        return seconds < 0 ? "in \(text) (in the future)" : "\(text) ago"
    }
}

extension TokenTimes {
    /// "in 4 min 10 s", or "expired 2 h 3 min ago": a time to expiry as a person reads it.
    public static func humanInterval(_ seconds: TimeInterval) -> String {
        let magnitude = Int(abs(seconds))
        let text: String
        switch magnitude {
        case ..<60: text = "\(magnitude) s"
        case ..<3600: text = "\(magnitude / 60) min \(magnitude % 60) s"
        case ..<86400: text = "\(magnitude / 3600) h \(magnitude % 3600 / 60) min"
        default: text = "\(magnitude / 86400) d \(magnitude % 86400 / 3600) h"
        }
        return seconds < 0 ? "expired \(text) ago" : "in \(text)"
    }
}
