import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// What a user sees when the network or the server misbehaves: retries, then the right exit code.
@Suite(.serialized)
struct NetworkFailureTests {
    @Test func a429IsRetriedAfterTheResetAndSucceeds() async throws {
        let sandbox = try await LiveSandbox.start()
        // A window long enough that the next idflow has started and sent its request before it resets, however
        // slowly a loaded machine starts a process (a 2 s window sometimes reset first); the one allowed request
        // is spent just before.
        let (status, _) = try await sandbox.call(
            "POST", "/sandbox/rate-limits", json: ["family": "users", "limit": 1, "windowSeconds": 10])
        #expect(status == 200)
        #expect(try await sandbox.call("GET", "/api/v1/users").0 == 200)
        let second = try await sandbox.idflow(
            ["register", "--email", "b@example.com", "--verbose"], environment: ["IDFLOW_MAX_RETRIES": "3"])
        #expect(second.exitCode == 0, "\(second)")
        #expect(second.stderr.contains("< 429"), "the first attempt was rate-limited")
        #expect(second.stderr.contains("retrying in"))
        #expect(try second.json()["profile"]?["login"] == "b@example.com")
    }

    @Test func a429ThatOutlastsTheRetriesExits7() async throws {
        let sandbox = try await LiveSandbox.start()
        let body =
            #"{"errorCode":"E0000047","errorSummary":"API call exceeded rate limit due to too many requests.","errorLink":"E0000047","errorId":"oaefault","errorCauses":[]}"#
        let (status, _) = try await sandbox.call(
            "POST", "/sandbox/faults",
            json: [
                "pathPrefix": "/api/v1/users", "status": 429, "body": .string(body), "contentType": "application/json",
                "headers": ["Retry-After": "0"], "count": 5,
            ])
        #expect(status == 201)
        let result = try await sandbox.idflow(["register", "--email", "c@example.com"], environment: ["IDFLOW_MAX_RETRIES": "2"])
        #expect(result.exitCode == 7, "\(result)")
        #expect(result.error?["kind"] == "rate_limited")
        #expect(result.error?["errorCode"] == "E0000047")
        #expect(result.error?["message"]?.stringValue?.contains("3 attempts") == true)
    }

    @Test func anAnswerLargerThan10MiBIsRefusedExit7() async throws {
        let sandbox = try await LiveSandbox.start()
        let kibibyte = String(repeating: "x", count: 1024)
        let (status, _) = try await sandbox.call(
            "POST", "/sandbox/faults",
            json: ["pathPrefix": "/api/v1/users", "status": 200, "body": .string(kibibyte), "bodyRepeat": .number(11 * 1024), "count": 1])
        #expect(status == 201)
        let result = try await sandbox.idflow(["register", "--email", "big@example.com"])
        #expect(result.exitCode == 7, "\(result)")
        #expect(result.error?["message"]?.stringValue?.contains("larger than 10 MiB") == true, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func aNonJSON502IsAClearServerErrorExit7() async throws {
        let sandbox = try await LiveSandbox.start()
        _ = try await sandbox.call(
            "POST", "/sandbox/faults",
            json: [
                "pathPrefix": "/api/v1/users", "status": 502, "body": "<html><body><h1>502 Bad Gateway</h1></body></html>",
                "contentType": "text/html", "count": 1,
            ])
        let result = try await sandbox.idflow(["register", "--email", "d@example.com"])
        #expect(result.exitCode == 7, "\(result)")
        #expect(result.error?["httpStatus"] == 502)
        #expect(result.error?["message"]?.stringValue?.contains("502 Bad Gateway") == true)
        #expect(!result.stderr.contains("Fatal error"), "no crash, no stack trace")
    }

    @Test func aDroppedConnectionIsANetworkErrorExit6() async throws {
        let sandbox = try await LiveSandbox.start()
        _ = try await sandbox.call(
            "POST", "/sandbox/faults", json: ["pathPrefix": "/api/v1/users", "status": 200, "dropConnection": true, "count": 5])
        let result = try await sandbox.idflow(["activate", "--user", "00uwhatever0000000000"], environment: ["IDFLOW_MAX_RETRIES": "1"])
        #expect([6, 7].contains(result.exitCode), "\(result)")
        #expect(result.error != nil)
    }

    @Test func connectionRefusedExits6() async throws {
        let sandbox = try await LiveSandbox.start()
        let org = sandbox.orgURL
        try await sandbox.stopped()
        let result = try await sandbox.idflow(
            ["register", "--email", "e@example.com"], environment: ["OKTA_CLIENT_ORGURL": org, "IDFLOW_MAX_RETRIES": "1"])
        #expect(result.exitCode == 6, "\(result)")
        #expect(result.error?["message"]?.stringValue?.contains("connection refused") == true)
    }

    @Test func aTimeoutExits6() async throws {
        let sandbox = try await LiveSandbox.start()
        // Held, not delayed: no answer can come before the client's second is up, however loaded the machine.
        let hold = try await sandbox.holdNextRequest(to: "/api/v1/users")
        let result = try await sandbox.idflow(["register", "--email", "f@example.com", "--timeout", "1"])
        try await sandbox.release(hold)
        #expect(result.exitCode == 6, "\(result)")
        #expect(result.error?["message"]?.stringValue?.contains("timed out") == true)
    }

    @Test func plainHTTPToANonLoopbackHostExits13() async throws {
        let sandbox = try await LiveSandbox.start()
        let result = try await sandbox.idflow(["register", "--email", "g@example.com", "--org-url", "http://example.com"])
        #expect(result.exitCode == 13, "\(result)")
        #expect(result.error?["kind"] == "insecure_url")
    }

    @Test func badFlagsExit64() async throws {
        let sandbox = try await LiveSandbox.start()
        #expect(try await sandbox.idflow(["register"]).exitCode == 64)
        #expect(try await sandbox.idflow(["register", "--email", "a@b.c", "--attr", "novalue"]).exitCode == 64)
        #expect(try await sandbox.idflow(["set-password", "--activation-token", "t"]).exitCode == 64, "no password given")
    }
}

/// `idflow sandbox` stops cleanly (exit 0) on SIGINT and SIGTERM, as `vault server -dev` does.
struct SandboxProcessTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func stopsCleanlyOnSignal(signal: Int32) async throws {
        let sandbox = try await LiveSandbox.start()
        #expect(try await sandbox.call("GET", "/sandbox/clock").0 == 200)
        kill(sandbox.process.processIdentifier, signal)
        try await LiveSandbox.exit(of: sandbox.process)
        #expect(sandbox.process.terminationReason == .exit)
        #expect(sandbox.process.terminationStatus == 0)
    }
}
