import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import Testing

@Suite("Sandbox admin API: clock, outbox, faults, rate limits")
struct AdminControllerTests {
    // MARK: Clock

    @Test("the clock reports now, moves forward and back, but never before real time")
    func clock() async throws {
        try await withSandbox { api in
            let before = try await api.send(.get, "/sandbox/clock").object()
            let beforeNow = try #require(before["now"] as? String)
            let backwards = try await api.send(.post, "/sandbox/clock", json: ["advanceSeconds": -5])
            #expect(backwards.status == .badRequest, "not before real time")
            #expect(try backwards.oktaError().code == "E0000001")
            let moved = try await api.send(.post, "/sandbox/clock", json: ["advanceSeconds": 86_400]).object()
            let movedNow = try #require(moved["now"] as? String)
            #expect(movedNow > beforeNow)
            #expect(moved["offsetSeconds"] as? Int == 86_400)

            let back = try await api.send(.post, "/sandbox/clock", json: ["advanceSeconds": -3_600]).object()
            #expect(back["offsetSeconds"] as? Int == 82_800)
            let tooFar = try await api.send(.post, "/sandbox/clock", json: ["advanceSeconds": -90_000])
            #expect(tooFar.status == .badRequest)
            let error = try tooFar.oktaError()
            #expect(error.code == "E0000001")
            #expect(error.causes.contains { $0.contains("at least -82800") && $0.contains("reset") }, "\(error.causes)")
            #expect(try await api.send(.get, "/sandbox/clock").object()["offsetSeconds"] as? Int == 82_800, "a refused move moves nothing")

            let reset = try await api.send(.post, "/sandbox/clock", json: ["reset": true]).object()
            #expect(reset["offsetSeconds"] as? Int == 0)
            let both = try await api.send(.post, "/sandbox/clock", json: ["reset": true, "advanceSeconds": 5])
            #expect(both.status == .badRequest)
        }
    }

    @Test("the admin API needs the SSWS token too")
    func adminNeedsToken() async throws {
        try await withSandbox { api in
            let reply = try await api.send(.get, "/sandbox/clock", auth: .none)
            #expect(reply.status == .unauthorized)
            #expect(try reply.oktaError().code == "E0000011")
        }
    }

    @Test("info repeats what SandboxInfo says")
    func info() async throws {
        try await withSandbox { api in
            let info = try await api.send(.get, "/sandbox/info").object()
            let expected = await api.state.info
            #expect(info["apiToken"] as? String == expected.apiToken)
            #expect(info["issuer"] as? String == expected.issuer)
            #expect(info["clientId"] as? String == "0oaidflowsandbox0000")
            #expect(info["redirectUri"] as? String == "com.example.idflow:/callback")
        }
    }

    /// `idflow sandbox --env`: the five variables, each value single-quoted so a shell takes it literally.
    @Test("the export lines name the five variables and quote every value")
    func shellExports() {
        let info = SandboxInfo(
            orgUrl: "http://127.0.0.1:8080", issuer: "http://127.0.0.1:8080/oauth2/default", apiToken: "it's $HOME `id`",
            clientId: "0oaidflowsandbox0000", redirectUri: "com.example.idflow:/callback")
        #expect(
            info.shellExports == """
                export OKTA_CLIENT_ORGURL='http://127.0.0.1:8080'
                export OKTA_CLIENT_TOKEN='it'\\''s $HOME `id`'
                export OKTA_OAUTH2_ISSUER='http://127.0.0.1:8080/oauth2/default'
                export OKTA_OAUTH2_CLIENTID='0oaidflowsandbox0000'
                export OKTA_OAUTH2_REDIRECTURI='com.example.idflow:/callback'

                """)
    }

    // MARK: Outbox

    @Test("the outbox lists e-mails oldest first and can be emptied")
    func outbox() async throws {
        try await withSandbox { api in
            try await api.createUser(email: "first@example.com", activate: true)
            try await api.createUser(email: "second@example.com", activate: true)
            let outbox = try await api.send(.get, "/sandbox/outbox").array()
            #expect(outbox.compactMap { $0["to"] as? String } == ["first@example.com", "second@example.com"])
            #expect(outbox.allSatisfy { ($0["sentAt"] as? String)?.hasSuffix(".000Z") == true })
            #expect(try await api.send(.delete, "/sandbox/outbox").status == .noContent)
            #expect(try await api.send(.get, "/sandbox/outbox").array().isEmpty)
        }
    }

    // MARK: Faults

    @Test("a fault replaces the next `count` matching answers, then the real ones return")
    func faultStatusBodyCount() async throws {
        try await withSandbox { api in
            let created = try await api.send(
                .post, "/sandbox/faults",
                json: [
                    "pathPrefix": "/api/v1/users", "method": "GET", "status": 502, "body": "<html>Bad Gateway</html>",
                    "contentType": "text/html", "headers": ["Retry-After": "1"], "count": 2,
                ])
            #expect(created.status == .created)
            let fault = try created.object()
            #expect(fault["id"] is String)
            #expect(fault["count"] as? Int == 2)

            for _ in 0..<2 {
                let reply = try await api.send(.get, "/api/v1/users")
                #expect(reply.status == .badGateway)
                #expect(reply.text == "<html>Bad Gateway</html>")
                #expect(reply.header("Content-Type") == "text/html")
                #expect(reply.header("Retry-After") == "1")
                #expect(reply.header("X-Rate-Limit-Limit") != nil, "faults carry rate-limit headers too")
            }
            #expect(try await api.send(.get, "/api/v1/users").status == .ok)
        }
    }

    @Test("a fault matches only its method and never the admin API")
    func faultMatching() async throws {
        try await withSandbox { api in
            _ = try await api.send(.post, "/sandbox/faults", json: ["pathPrefix": "/", "method": "POST", "status": 503])
            #expect(try await api.send(.get, "/api/v1/users").status == .ok, "GET is not faulted")
            #expect(try await api.send(.get, "/sandbox/faults").array().count == 1, "admin API is exempt")
            #expect(try await api.send(.post, "/api/v1/authn", json: [:], auth: .none).status == .serviceUnavailable)
            #expect(try await api.send(.get, "/sandbox/faults").array().isEmpty, "count defaults to 1")
        }
    }

    @Test("faults can be listed, deleted one by one and cleared")
    func faultAdministration() async throws {
        try await withSandbox { api in
            let first = try await api.send(.post, "/sandbox/faults", json: ["pathPrefix": "/a", "status": 500, "count": 5])
            _ = try await api.send(.post, "/sandbox/faults", json: ["pathPrefix": "/b", "status": 500])
            let id = try #require(try first.object()["id"] as? String)
            #expect(try await api.send(.delete, "/sandbox/faults/\(id)").status == .noContent)
            #expect(try await api.send(.delete, "/sandbox/faults/\(id)").status == .notFound)
            #expect(try await api.send(.get, "/sandbox/faults").array().count == 1)
            #expect(try await api.send(.delete, "/sandbox/faults").status == .noContent)
            #expect(try await api.send(.get, "/sandbox/faults").array().isEmpty)
            let invalid = try await api.send(.post, "/sandbox/faults", json: ["pathPrefix": "no-slash"])
            #expect(invalid.status == .badRequest)
        }
    }

    @Test("a delay-only fault slows the real answer")
    func faultDelay() async throws {
        try await withSandbox { api in
            _ = try await api.send(.post, "/sandbox/faults", json: ["pathPrefix": "/api/v1/users", "delayMs": 300])
            let start = ContinuousClock.now
            let reply = try await api.send(.get, "/api/v1/users")
            #expect(ContinuousClock.now - start >= .milliseconds(300))
            #expect(reply.status == .ok)
        }
    }

    @Test("a hold fault keeps the request until released, then answers it for real; a release may come first")
    func faultHold() async throws {
        // The router's client, which answers requests side by side (the live test client keeps one connection, so the
        // held request would block the ones that release it).
        try await withSandbox { api in
            let armed = try await api.send(.post, "/sandbox/faults", json: ["pathPrefix": "/api/v1/users", "hold": true])
            let id = try #require(try armed.object()["id"] as? String)
            #expect(try armed.object()["hold"] as? Bool == true)
            let held = Task { try await api.send(.get, "/api/v1/users") }
            // Waits for the request to arrive, by the sandbox's count; nothing here is judged by the time it takes.
            var waiting = 0
            for _ in 0..<6_000 where waiting == 0 {
                waiting = try await api.send(.get, "/sandbox/faults/\(id)/held").object()["held"] as? Int ?? 0
                if waiting == 0 { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(waiting == 1, "the request is held")
            let released = try await api.send(.post, "/sandbox/faults/\(id)/release")
            #expect(try released.object()["released"] as? Int == 1)
            #expect(try await held.value.status == .ok, "answered for real once released")
            #expect(try await api.send(.get, "/sandbox/faults/\(id)/held").object()["held"] as? Int == 0)

            // Released before its request arrives: the request is not held at all.
            let early = try await api.send(.post, "/sandbox/faults", json: ["pathPrefix": "/api/v1/users", "hold": true])
            let earlyID = try #require(try early.object()["id"] as? String)
            #expect(try await api.send(.post, "/sandbox/faults/\(earlyID)/release").object()["released"] as? Int == 0)
            #expect(try await api.send(.get, "/api/v1/users").status == .ok)
        }
    }

    @Test("dropConnection breaks the response mid-way (router)")
    func faultDropRouter() async throws {
        try await withSandbox { api in
            _ = try await api.send(.post, "/sandbox/faults", json: ["pathPrefix": "/api/v1/users", "dropConnection": true])
            await #expect(throws: (any Error).self) { _ = try await api.send(.get, "/api/v1/users") }
            #expect(try await api.send(.get, "/api/v1/users").status == .ok)
        }
    }

    @Test("dropConnection closes a real socket before the body is complete (live)")
    func faultDropLive() async throws {
        try await withSandbox(.live) { api in
            _ = try await api.send(.post, "/sandbox/faults", json: ["pathPrefix": "/api/v1/users", "dropConnection": true])
            await #expect(throws: (any Error).self) { _ = try await api.send(.get, "/api/v1/users") }
        }
    }

    // MARK: Records

    @Test("GET /sandbox/records counts what the sandbox holds, behind the API token")
    func recordCounts() async throws {
        try await withSandbox { api in
            let empty = try await api.send(.get, "/sandbox/records").object()
            #expect(empty["users"] as? Int == 0)
            #expect(empty["accessTokens"] as? Int == 0)
            #expect(try await api.send(.get, "/sandbox/records", auth: .none).status == .unauthorized)

            let created = try await api.send(
                .post, "/api/v1/users?activate=false", json: ["profile": ["email": "r@example.com", "login": "r@example.com"]])
            #expect(created.status == .ok)
            #expect(try await api.send(.get, "/sandbox/records").object()["users"] as? Int == 1)
        }
    }

    // MARK: Rate limits

    @Test("every response carries X-Rate-Limit-* and Date; unlimited families report a limit no load reaches")
    func rateLimitHeaders() async throws {
        try await withSandbox { api in
            for (path, auth) in [("/api/v1/users", SandboxClient.Auth.ssws), ("/nowhere", .none), ("/api/v1/users", .none)] {
                let reply = try await api.send(.get, path, auth: auth)
                #expect(reply.header("X-Rate-Limit-Limit") == "1000000", "\(path) \(reply.status)")
                #expect(Int(reply.header("X-Rate-Limit-Remaining") ?? "") ?? 0 >= 500_000)
                let reset = try #require(Int(reply.header("X-Rate-Limit-Reset") ?? ""))
                #expect(reply.header("Date")?.hasSuffix(" GMT") == true)
                // Against the answer's own Date: this machine's clock may have moved on while a loaded test waited.
                let answered = try #require(Self.httpDate(reply.header("Date")))
                #expect((-1...61).contains(Double(reset) - answered.timeIntervalSince1970), "\(reset) \(answered)")
                #expect(reply.header("x-okta-request-id") != nil)
                #expect(reply.header("Cache-Control") == "no-cache, no-store")
            }
        }
    }

    @Test("a moved clock moves Date, and the rate-limit reset is said on that clock: reset − Date is still the real wait")
    func rateLimitResetOnTheDateClock() async throws {
        try await withSandbox { api in
            let before = await api.state.now
            _ = try await api.send(.post, "/sandbox/clock", json: ["advanceSeconds": 7_200])
            let reply = try await api.send(.get, "/api/v1/users", auth: .ssws)
            let date = try #require(Self.httpDate(reply.header("Date")), "\(reply.header("Date") ?? "")")
            let reset = try #require(Double(reply.header("X-Rate-Limit-Reset") ?? ""))
            // By the sandbox clock before the move; a lower bound (Date has whole seconds) a loaded machine only widens.
            #expect(date.timeIntervalSince(before) >= 7_200 - 1, "\(date)")
            #expect((0...61).contains(reset - date.timeIntervalSince1970), "reset \(reset), Date \(date)")
        }
    }

    @Test("an unlimited family never reports itself nearly spent, however many requests a window sees")
    func unlimitedFamilyStaysFarFromItsLimit() async throws {
        try await withSandbox { api in
            // More than a real org's 600 a minute: a client pacing by the headers must see no reason to slow down.
            var lowest = Int.max
            for _ in 0..<700 {
                let reply = try await api.send(.get, "/api/v1/users?limit=1")
                #expect(reply.status == .ok)
                lowest = min(lowest, Int(reply.header("X-Rate-Limit-Remaining") ?? "") ?? 0)
            }
            #expect(lowest >= 500_000)
        }
    }

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), as the sandbox writes `Date`.
    static func httpDate(_ text: String?) -> Date? {
        guard let text else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text)
    }

    @Test("an exhausted family answers 429 E0000047 until its window ends; other families are unaffected")
    func rateLimitExceeded() async throws {
        try await withSandbox { api in
            let configured = try await api.send(
                .post, "/sandbox/rate-limits", json: ["family": "users", "limit": 2, "windowSeconds": 3_600])
            #expect(configured.status == .ok)
            #expect((try configured.object()["users"] as? [String: Any])?["limit"] as? Int == 2)

            let first = try await api.send(.get, "/api/v1/users")
            #expect(first.status == .ok)
            #expect(first.header("X-Rate-Limit-Limit") == "2")
            #expect(first.header("X-Rate-Limit-Remaining") == "1")
            #expect(try await api.send(.get, "/api/v1/users").status == .ok)

            let limited = try await api.send(.get, "/api/v1/users")
            #expect(limited.status == .tooManyRequests)
            let error = try limited.oktaError()
            #expect(error.code == "E0000047")
            #expect(error.summary == "API call exceeded rate limit due to too many requests.")
            #expect(limited.header("X-Rate-Limit-Remaining") == "0")
            #expect(limited.header("Date") != nil)
            let reset = try #require(Int(limited.header("X-Rate-Limit-Reset") ?? ""))
            // Judged against the answer's own Date, not the test's clock: a loaded machine may run this line after
            // the window has ended (it once took 254 s to get here), which says nothing about the sandbox.
            let answered = try #require(Self.httpDate(limited.header("Date")))
            #expect(Double(reset) >= answered.timeIntervalSince1970.rounded(.down))
            #expect(Double(reset) <= answered.timeIntervalSince1970 + 3_600 + 1, "within the hour's window")

            let otherFamily = try await api.send(.post, "/api/v1/authn", json: ["token": "x"], auth: .none)
            #expect(otherFamily.status == .unauthorized, "authn has its own bucket")

            // The window runs on the sandbox clock, as the reset is said: moved past the reset, the family has a new
            // window, with nothing slept and nothing read from this machine's clock.
            let wait = Double(reset) - answered.timeIntervalSince1970
            #expect(try await api.send(.get, "/api/v1/users").status == .tooManyRequests, "still the same window")
            _ = try await api.send(.post, "/sandbox/clock", json: ["advanceSeconds": Int(wait.rounded(.up)) + 1])
            #expect(try await api.send(.get, "/api/v1/users").status == .ok, "a new window")
        }
    }

    @Test("limits come from the configuration and can be switched off at runtime")
    func rateLimitFromConfiguration() async throws {
        // The window runs on the sandbox clock, frozen here: it cannot end between the requests, however slow.
        try await withSandbox(configure: {
            $0.freezeClock = true
            $0.rateLimits = ["authn": 1]
        }) { api in
            let limits = try await api.send(.get, "/sandbox/rate-limits").object()
            #expect((limits["authn"] as? [String: Any])?["limit"] as? Int == 1)
            #expect((limits["users"] as? [String: Any])?["limit"] is NSNull)
            _ = try await api.send(.post, "/api/v1/authn", json: ["token": "x"], auth: .none)
            let limited = try await api.send(.post, "/api/v1/authn", json: ["token": "x"], auth: .none)
            #expect(limited.status == .tooManyRequests)
            #expect(try await api.send(.get, "/sandbox/rate-limits").status == .ok, "admin API is never limited")

            _ = try await api.send(.post, "/sandbox/rate-limits", json: ["family": "authn", "limit": NSNull()])
            let unlimited = try await api.send(.post, "/api/v1/authn", json: ["token": "x"], auth: .none)
            #expect(unlimited.status == .unauthorized)
            #expect(unlimited.header("X-Rate-Limit-Limit") == "1000000")

            let unknown = try await api.send(.post, "/sandbox/rate-limits", json: ["family": "nope", "limit": 1])
            #expect(unknown.status == .badRequest)
        }
    }

    @Test("faults apply before rate limiting: a faulted request does not use up the limit")
    func faultsBeforeRateLimit() async throws {
        // The window runs on the sandbox clock, frozen here: it cannot end between the requests, however slow.
        try await withSandbox(configure: {
            $0.freezeClock = true
            $0.rateLimits = ["users": 1]
        }) { api in
            _ = try await api.send(.post, "/sandbox/faults", json: ["pathPrefix": "/api/v1/users", "status": 500, "count": 3])
            for _ in 0..<3 { #expect(try await api.send(.get, "/api/v1/users").status == .internalServerError) }
            #expect(try await api.send(.get, "/api/v1/users").status == .ok)
            #expect(try await api.send(.get, "/api/v1/users").status == .tooManyRequests)
        }
    }
}
