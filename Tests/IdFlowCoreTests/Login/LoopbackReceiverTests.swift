import Foundation
import IdFlowCore
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

    /// A client that connects and says nothing is read side by side with the browser's request. The client's
    /// steps run on a thread of their own, after the listener has answered a first request, so the time measured
    /// is the listener's and not a wait for the cooperative pool.
    @Test func aSilentConnectionDoesNotHoldUpTheRealRedirect() async throws {
        let state = self.state
        let (result, _) = try await waiting(requestTimeout: .seconds(10)) { port in
            #expect(try await RawSocket.get(port: port, "/favicon.ico").status == 404, "the listener is up")
            let (status, answeredAfter) = try await RawSocket.onThread { () throws -> (Int, Duration) in
                let silent = try RawSocket.connect(port: port)
                defer { close(silent) }
                usleep(100_000)
                let sent = ContinuousClock.now
                let (status, _) = try RawSocket.blockingGet(port: port, "/callback?code=c0de&state=\(state)")
                return (status, ContinuousClock.now - sent)
            }
            #expect(status == 200)
            #expect(answeredAfter < .seconds(5), "answered while the silent client still had 10 s (\(answeredAfter))")
        }
        #expect(try result.get() == "c0de")
    }

    /// The wait ends at its own deadline even while a client that says nothing still has time left: the listener
    /// closes that connection then, long before the connection's own 30 s.
    @Test func aSilentConnectionDoesNotExtendTheWaitPastTheDeadline() async throws {
        let (result, _) = try await waiting(timeout: .seconds(1), requestTimeout: .seconds(30)) { port in
            let closedAfter = try await RawSocket.onThread { () throws -> Duration in
                // Answered once the listener runs; from then on its 1 s deadline is under way.
                _ = try RawSocket.blockingGet(port: port, "/favicon.ico")
                let silent = try RawSocket.connect(port: port)
                defer { close(silent) }
                let connected = ContinuousClock.now
                _ = RawSocket.readToEnd(silent)
                return ContinuousClock.now - connected
            }
            // Far enough between the 1 s deadline and the connection's 30 s that a loaded machine cannot blur them.
            #expect(closedAfter < .seconds(4), "closed at the wait's 1 s deadline, not the connection's 30 s (\(closedAfter))")
        }
        guard case .failure(.timedOut) = result else {
            Issue.record("expected .timedOut, got \(result)")
            return
        }
    }

    /// The per-request deadline is a total: a client dripping a byte at a time is dropped when it passes,
    /// however steadily it sends, and the listener goes on serving.
    @Test func aDrippingClientIsDroppedAtItsRequestDeadline() async throws {
        let state = self.state
        let (result, _) = try await waiting(requestTimeout: .seconds(1)) { port in
            #expect(try await RawSocket.get(port: port, "/favicon.ico").status == 404, "the listener is up")
            let (dropped, waited) = try await RawSocket.onThread { () throws -> (Bool, Duration) in
                let drip = try RawSocket.connect(port: port)
                defer { close(drip) }
                let started = ContinuousClock.now
                // About 100 characters at 100 ms each: the whole request would take 10 s against the 1 s deadline.
                let request =
                    "GET /callback?code=slow&state=\(state) HTTP/1.1\r\nHost: x\r\nUser-Agent: a-client-sending-one-byte-at-a-time\r\n"
                for character in request {
                    usleep(100_000)
                    guard RawSocket.write(drip, String(character)) else { return (true, ContinuousClock.now - started) }
                }
                return (false, ContinuousClock.now - started)
            }
            #expect(dropped, "the listener closed the dripping connection")
            #expect(waited < .seconds(6), "dropped after about 1 s, not after the whole request (\(waited))")
            #expect(try await RawSocket.get(port: port, "/callback?code=fast&state=\(state)").status == 200)
        }
        #expect(try result.get() == "fast")
    }
}
