import Foundation
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

struct RateLimitPacerTests {
    let start = ContinuousClock.now

    func observation(remaining: Int, limit: Int = 100, reset: Int = 1_000, secondsToReset: Double = 10) -> RateLimitPacer.Observation {
        .init(limit: limit, remaining: remaining, resetEpoch: reset, secondsToReset: secondsToReset)
    }

    @Test func readsTheHeadersAndMeasuresTheResetOnTheServersDate() {
        let headers = [
            "x-rate-limit-limit": "600", "X-Rate-Limit-Remaining": "17", "X-Rate-Limit-Reset": "1700000060",
            "Date": "Tue, 14 Nov 2023 22:13:20 GMT",
        ]
        let parsed = RateLimitPacer.Observation(headers: headers, now: Date(timeIntervalSince1970: 0))
        #expect(parsed == .init(limit: 600, remaining: 17, resetEpoch: 1_700_000_060, secondsToReset: 60))
        #expect(RateLimitPacer.Observation(headers: ["Date": "x"], now: Date()) == nil)
        // As the transport hands them over (any case, a value with spaces), read in one pass: the same.
        func response(_ headers: [String: String]) -> HTTPResponse {
            HTTPResponse(status: 200, headers: headers, body: Data(), url: URL(string: "https://example.okta.com/api/v1/users")!)
        }
        let fields = [
            "X-RATE-LIMIT-LIMIT": "600", "x-rate-limit-remaining": " 17 ", "X-Rate-Limit-Reset": "1700000060",
            "date": "Tue, 14 Nov 2023 22:13:20 GMT", "X-Rate-Limit-Resets": "1",
        ]
        #expect(RateLimitPacer.Observation(response: response(fields), now: Date(timeIntervalSince1970: 0)) == parsed)
        #expect(RateLimitPacer.Observation(response: response(["Date": "x"]), now: Date()) == nil)
        #expect(!HeaderName.same("X-Rate-Limit-Rese0", "X-Rate-Limit-Reset"))
        #expect(!HeaderName.same("a[", "a{"), "only letters match without case")
        #expect(HeaderName.same("DATE", "Date"))
    }

    @Test func goesAtFullSpeedWhileTheWindowHasRoom() {
        var pacer = RateLimitPacer()
        #expect(pacer.reserve(now: start) == start, "nothing known yet")
        pacer.observe(observation(remaining: 90), now: start)
        for _ in 0..<8 { #expect(pacer.reserve(now: start) == start) }
    }

    @Test func aLimitFarAboveTheLoadNeverSlowsABatch() {
        // What an unlimited `idflow sandbox` reports: a million a window, never less than half of it left.
        var pacer = RateLimitPacer()
        for sent in 0..<2_000 {
            #expect(pacer.reserve(now: start) == start)
            pacer.observe(observation(remaining: max(500_000, 1_000_000 - sent), limit: 1_000_000), now: start)
        }
    }

    @Test func spreadsTheLastRequestsOverTheRestOfTheWindow() {
        var pacer = RateLimitPacer()
        _ = pacer.reserve(now: start)
        pacer.observe(observation(remaining: 10, secondsToReset: 10), now: start)
        let slots = (0..<3).map { _ in pacer.reserve(now: start) }
        #expect(slots[0] == start)
        #expect(slots[1] == start + .seconds(1), "10 s left for 10 requests: one a second")
        #expect(slots[2] > slots[1])
    }

    @Test func waitsForTheResetWhenTheBudgetIsSpentCountingRequestsStillInFlight() {
        var pacer = RateLimitPacer()
        for _ in 0..<3 { _ = pacer.reserve(now: start) }
        // Two other requests are still in flight and may not have been counted: 2 left means none for us.
        pacer.observe(observation(remaining: 2, secondsToReset: 5), now: start)
        let slot = pacer.reserve(now: start)
        #expect(slot >= start + .seconds(5))
        #expect(slot <= start + .seconds(6))
        // After the reset the whole limit is available again, from the reset on.
        #expect(pacer.reserve(now: start) == slot)
    }

    @Test func aLateAnswerFromAnEndedWindowDoesNotLowerTheNewBudget() {
        var pacer = RateLimitPacer()
        _ = pacer.reserve(now: start)
        _ = pacer.reserve(now: start)
        pacer.observe(observation(remaining: 50, reset: 2_000), now: start)
        pacer.observe(observation(remaining: 0, reset: 1_000), now: start)
        #expect(pacer.reserve(now: start) == start)
    }
}

/// Found by fuzzing: rate-limit and retry headers are whatever a server or proxy sends.
struct HostileRateLimitHeaderTests {
    @Test func aResetCenturiesAwayIsBelievedForAnHourAtMost() {
        let headers = ["X-Rate-Limit-Remaining": "-9223372036854775808", "X-Rate-Limit-Reset": "9223372036854775807"]
        let parsed = RateLimitPacer.Observation(headers: headers, now: Date(timeIntervalSince1970: 0))
        #expect(parsed?.remaining == 0, "nothing left, not a negative budget")
        #expect(parsed?.secondsToReset == 3600)
        var pacer = RateLimitPacer()
        let start = ContinuousClock.now
        _ = pacer.reserve(now: start)
        pacer.observe(parsed, now: start)
        #expect(pacer.reserve(now: start) <= start + .seconds(3601), "the next request waits for the (bounded) reset")
    }

    @Test(arguments: ["1e300", "inf", "170e000060", "nan", "-5"])
    func aRetryWaitsNoLongerThanTheLongestDelay(value: String) {
        let policy = RetryPolicy(maxRetries: 3, baseDelay: .milliseconds(500), maxDelay: .seconds(60))
        let url = URL(string: "https://example.okta.com/api/v1/users")!
        let date = "Tue, 14 Nov 2023 22:13:20 GMT"
        for headers in [["Retry-After": value], ["X-Rate-Limit-Reset": value, "Date": date]] {
            let wait = policy.delay(before: 1, after: HTTPResponse(status: 429, headers: headers, body: Data(), url: url), jitter: .zero)
            #expect(wait >= .zero && wait <= .seconds(60), "\(headers) waits \(wait)")
        }
    }
}
