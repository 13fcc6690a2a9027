import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The browser login's listener on real loopback sockets: only this login's redirect ends the wait, and no
/// other local client can end it early or hold it past its deadline. Serialized: the tests measure time.
@Suite(.serialized)
struct LoopbackReceiverTests {
    let state = "st4te-of-this-login"

    /// Runs `waitForRedirect` in the background; `client` plays the other side while it waits. The overall
    /// deadline is long unless a test is about it: each step of `client` waits for a thread of the cooperative
    /// pool, which a CI run of the whole suite has kept busy for minutes.
    func waiting(
        timeout: Duration = .seconds(600), requestTimeout: Duration = .seconds(15),
        client: @Sendable @escaping (UInt16) async throws -> Void
    ) async throws -> (Result<String, IdFlowError>, refused: [String]) {
        let receiver = try LoopbackReceiver()
        let refused = Locked<[String]>([])
        let state = self.state
        async let outcome: Result<String, IdFlowError> = {
            do throws(IdFlowError) {
                return .success(
                    try await receiver.waitForRedirect(
                        path: "/callback", expectedState: state, timeout: timeout, requestTimeout: requestTimeout
                    ) { note in refused.withLock { $0.append(note) } })
            } catch {
                return .failure(error)
            }
        }()
        try await client(receiver.port)
        return (await outcome, refused.current)
    }

    @Test func aForgedStateGets400AndTheRealRedirectStillEndsTheWait() async throws {
        let state = self.state
        let (result, refused) = try await waiting { port in
            let forged = try await RawSocket.get(port: port, "/callback?code=stolen&state=forged")
            #expect(forged.status == 400, "\(forged.response)")
            #expect(forged.response.contains("text/html"))
            #expect(forged.response.contains("does not match"))
            let stray = try await RawSocket.get(port: port, "/favicon.ico")
            #expect(stray.status == 404)
            let real = try await RawSocket.get(port: port, "/callback?code=the-real-code&state=\(state)")
            #expect(real.status == 200, "\(real.response)")
            #expect(real.response.contains("Signed in"))
        }
        #expect(try result.get() == "the-real-code")
        #expect(refused.count == 1 && refused[0].contains("does not match"), "\(refused)")
    }

    @Test func aMissingStateOrAnAnswerWithoutCodeGets400AndTheWaitGoesOn() async throws {
        let state = self.state
        let (result, refused) = try await waiting { port in
            let missing = try await RawSocket.get(port: port, "/callback?code=abc")
            #expect(missing.status == 400, "\(missing.response)")
            #expect(missing.response.contains("no state"))
            let empty = try await RawSocket.get(port: port, "/callback?state=\(state)")
            #expect(empty.status == 400, "\(empty.response)")
            let denied = try await RawSocket.get(port: port, "/callback?error=access_denied&state=\(state)")
            #expect(denied.status == 400)
            #expect(denied.response.contains("Sign-in failed"))
        }
        guard case .failure(let error) = result, case .oauth(_, let body, _) = error else {
            Issue.record("expected the OAuth error of the real redirect, got \(result)")
            return
        }
        #expect(body.error == "access_denied")
        #expect(error.exitStatus == .denied)
        #expect(refused.count == 2)
    }

    @Test func aForgedStateAloneEndsInATimeoutNotASecurityFailure() async throws {
        let (result, _) = try await waiting(timeout: .seconds(1)) { port in
            let forged = try await RawSocket.get(port: port, "/callback?code=stolen&state=forged")
            #expect(forged.status == 400)
        }
        guard case .failure(let error) = result, case .timedOut = error else {
            Issue.record("expected .timedOut, got \(result)")
            return
        }
        #expect(error.exitStatus == .timedOut)
    }

    /// A client that connects and says nothing is read side by side with the browser's request. The silent client's
    /// own deadline is the wait's, so a listener that read one connection at a time would answer the browser never:
    /// the redirect arriving at all is the proof, with no stopwatch a loaded machine could stretch.
    @Test func aSilentConnectionDoesNotHoldUpTheRealRedirect() async throws {
        let state = self.state
        let (result, _) = try await waiting(timeout: .seconds(600), requestTimeout: .seconds(600)) { port in
            #expect(try await RawSocket.get(port: port, "/favicon.ico").status == 404, "the listener is up")
            let status = try await RawSocket.onThread { () throws -> Int in
                let silent = try RawSocket.connect(port: port)
                defer { close(silent) }
                return try RawSocket.blockingGet(port: port, "/callback?code=c0de&state=\(state)").status
            }
            #expect(status == 200)
        }
        #expect(try result.get() == "c0de")
    }

    /// The wait ends at its own deadline even while a client that is still sending has an hour left: the listener
    /// closes that connection then. The client drips a byte every 100 ms for at least a minute; a listener that kept
    /// the connection until its own deadline would let the whole request through.
    @Test func aSlowConnectionDoesNotExtendTheWaitPastTheDeadline() async throws {
        let (result, _) = try await waiting(timeout: .seconds(1), requestTimeout: .seconds(3_600)) { port in
            let dropped = try await RawSocket.onThread { () throws -> Bool in
                // Answered once the listener runs; from then on its 1 s deadline is under way.
                _ = try RawSocket.blockingGet(port: port, "/favicon.ico")
                return try Self.drip(port: port, characters: 600)
            }
            #expect(dropped, "closed at the wait's 1 s deadline, not the connection's hour")
        }
        guard case .failure(.timedOut) = result else {
            Issue.record("expected .timedOut, got \(result)")
            return
        }
    }

    /// The per-request deadline is a total: a client dripping a byte at a time is dropped when it passes,
    /// however steadily it sends, and the listener goes on serving. The request would take 10 s at the least
    /// against the 1 s deadline (and the wait's 10 minutes), so being cut off mid-request is the proof.
    @Test func aDrippingClientIsDroppedAtItsRequestDeadline() async throws {
        let state = self.state
        let (result, _) = try await waiting(requestTimeout: .seconds(1)) { port in
            #expect(try await RawSocket.get(port: port, "/favicon.ico").status == 404, "the listener is up")
            let dropped = try await RawSocket.onThread { () throws -> Bool in try Self.drip(port: port, characters: 100) }
            #expect(dropped, "the listener closed the dripping connection before the request was whole")
            #expect(try await RawSocket.get(port: port, "/callback?code=fast&state=\(state)").status == 200)
        }
        #expect(try result.get() == "fast")
    }

    /// The listener closes its connections first, which leaves the port in TIME_WAIT for a minute; a provider that
    /// matches the redirect URI exactly needs that port for the next login at once, so it must bind again.
    @Test func theSamePortServesTheNextLoginAtOnce() async throws {
        let port: UInt16
        do {
            let first = try LoopbackReceiver()
            port = first.port
            let state = self.state
            async let outcome = first.waitForRedirect(path: "/callback", expectedState: state, timeout: .seconds(600))
            // Read to the end: the listener closes first, as after every real redirect.
            #expect(try await RawSocket.get(port: port, "/favicon.ico").status == 404)
            #expect(try await RawSocket.get(port: port, "/callback?code=one&state=\(state)").status == 200)
            #expect(try await outcome == "one")
        }
        let second = try LoopbackReceiver(port: port)
        #expect(second.port == port)
    }

    /// A port another program listens on is still refused, with a hint that names that cause.
    @Test func aPortSomeoneListensOnIsRefusedWithTheReason() throws {
        let held = try LoopbackReceiver()
        do {
            _ = try LoopbackReceiver(port: held.port)
            Issue.record("a second listener on \(held.port) was allowed")
        } catch {
            #expect(error.exitStatus == .localState)
            #expect(error.hint?.contains("another program listens on port \(held.port)") == true, "\(error.hint ?? "")")
        }
    }

    /// Sends a request line and headers a character every 100 ms (never finishing the request); true when the
    /// listener closed the connection before `characters` were sent.
    static func drip(port: UInt16, characters: Int) throws -> Bool {
        let drip = try RawSocket.connect(port: port)
        defer { close(drip) }
        let header = "GET /callback?code=slow&state=s HTTP/1.1\r\nHost: x\r\nUser-Agent: "
        let request = header + String(repeating: "a", count: max(0, characters - header.count))
        for character in request {
            usleep(100_000)
            guard RawSocket.write(drip, String(character)) else { return true }
        }
        return false
    }
}
