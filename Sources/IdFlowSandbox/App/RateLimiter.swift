import Foundation

/// The endpoint families Okta rate-limits separately (a simplification of its per-endpoint buckets).
enum RateLimitFamily: String, Sendable, CaseIterable {
    case users, authn, oauth, other

    /// The family of a request path; nil for the sandbox's own admin API, which is never limited
    /// so a test can always reconfigure a sandbox it has just throttled.
    init?(path: String) {
        if path.hasPrefix("/sandbox/") || path == "/sandbox" { return nil }
        if path.hasPrefix("/api/v1/users") {
            self = .users
        } else if path.hasPrefix("/api/v1/authn") {
            self = .authn
        } else if path.hasPrefix("/oauth2/") || path.hasPrefix("/.well-known/") {
            self = .oauth
        } else {
            self = .other
        }
    }
}

/// What the `X-Rate-Limit-*` headers of one response say.
struct RateLimitStatus: Sendable {
    let limit: Int
    let remaining: Int
    /// Epoch seconds at which the current window ends.
    let reset: Int
    let exceeded: Bool
}

/// Fixed windows per family, starting at the first request after the previous window ended
/// (Okta's windows are not aligned to wall-clock minutes either). Judged on the time it is given, which is the
/// sandbox clock: it runs with real time, so a client that waits for a reset by sleeping gets a new window, and a
/// clock moved forward ends the window as the same time passing would (a frozen clock ends it only when advanced).
struct RateLimiter: Sendable {
    struct Rule: Sendable {
        /// nil = unlimited.
        var limit: Int?
        var windowSeconds: Int
    }

    /// What an unlimited family reports. Real orgs always send the headers, so the sandbox does too, but
    /// with a limit no sandbox load reaches: a client that paces itself by them (`register --batch`) runs
    /// at full speed, as a user of an unlimited sandbox expects, instead of keeping to a real org's 600 a
    /// minute that nothing enforces. Configure `rateLimits` to try pacing against a real org's numbers.
    static let unlimitedReportedLimit = 1_000_000

    private(set) var rules: [RateLimitFamily: Rule] = [:]
    private var windows: [RateLimitFamily: (start: Date, count: Int)] = [:]

    init(limits: [String: Int], windowSeconds: Int) {
        for family in RateLimitFamily.allCases {
            let limit = limits[family.rawValue].flatMap { $0 > 0 ? $0 : nil }
            rules[family] = Rule(limit: limit, windowSeconds: windowSeconds)
        }
    }

    func rule(for family: RateLimitFamily) -> Rule {
        rules[family]!
    }

    /// Sets or clears (`limit` nil or 0) a family's limit and starts a fresh window.
    mutating func configure(_ family: RateLimitFamily, limit: Int?, windowSeconds: Int?) {
        var rule = rules[family]!
        rule.limit = limit.flatMap { $0 > 0 ? $0 : nil }
        if let windowSeconds { rule.windowSeconds = windowSeconds }
        rules[family] = rule
        windows[family] = nil
    }

    /// Counts one request and says whether it is allowed.
    mutating func consume(_ family: RateLimitFamily, now: Date) -> RateLimitStatus {
        let window = currentWindow(family, now: now)
        windows[family] = (window.start, window.count + 1)
        return status(family, now: now)
    }

    /// The headers for a response that did not count (faults, the admin API, errors raised earlier).
    func status(_ family: RateLimitFamily, now: Date) -> RateLimitStatus {
        let rule = rules[family]!
        let window = currentWindow(family, now: now)
        let reset = Int((window.start.timeIntervalSince1970 + Double(rule.windowSeconds)).rounded(.up))
        guard let limit = rule.limit else {
            // Counts down as usual, but never below half: nothing is enforced, so nothing may look nearly spent.
            let limit = Self.unlimitedReportedLimit
            return RateLimitStatus(
                limit: limit, remaining: max(limit / 2, limit - window.count), reset: reset, exceeded: false)
        }
        return RateLimitStatus(
            limit: limit, remaining: max(0, limit - window.count), reset: reset, exceeded: window.count > limit)
    }

    private func currentWindow(_ family: RateLimitFamily, now: Date) -> (start: Date, count: Int) {
        let rule = rules[family]!
        if let window = windows[family], now.timeIntervalSince(window.start) < Double(rule.windowSeconds) {
            return window
        }
        return (now, 0)
    }
}
