import Foundation
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// The exit code a script branches on after `doctor`, and a slow check that cannot hold the others up.
struct DoctorReportTests {
    @Test func theMostSevereFailureDecidesTheExitCode() {
        func report(_ kinds: [IdFlowExitCode?], warn: Bool = false) -> DoctorReport {
            var checks = kinds.enumerated().map { DoctorCheck("c\($0.offset)", .fail, "x", kind: $0.element) }
            if warn { checks.append(DoctorCheck("clock", .warn, "off")) }
            return DoctorReport(checks: checks)
        }
        #expect(report([], warn: true).exitStatus == .success)
        #expect(report([], warn: true).ok)
        #expect(report([.rejected, .localState]).exitStatus == .localState)
        #expect(report([.localState, .network]).exitStatus == .network)
        #expect(report([.network, .authentication]).exitStatus == .authentication)
        #expect(report([.authentication, .security, .rejected]).exitStatus == .security)
        #expect(report([nil]).exitStatus == .rejected)
        #expect(!report([.network]).ok)
    }

    @Test func theDocumentHasTheContractsKeysOnly() throws {
        let report = DoctorReport(checks: [
            DoctorCheck("state", .fail, "open", fix: "chmod 700 /x", kind: .localState), DoctorCheck("org", .skipped, "offline"),
        ])
        let json = try JSONValue(data: JSONEncoder().encode(report))
        #expect(json["ok"] == false)
        #expect(json["checks"]?.arrayValue?.first == ["name": "state", "status": "fail", "detail": "open", "fix": "chmod 700 /x"])
        #expect(json["checks"]?.arrayValue?.last == ["name": "org", "status": "skipped", "detail": "offline"])
    }

    @Test func aCheckThatOutlastsItsTimeoutFailsWithoutHoldingTheRunUp() async {
        let finished = Locked(false)
        let check = await Doctor.bounded("org", .milliseconds(200)) {
            try? await Task.sleep(for: .seconds(300))
            finished.withLock { $0 = true }
            return DoctorCheck("org", .ok, "late")
        }
        // Not waited for: the report came while the check was still under way (judged by what happened, not by a
        // stopwatch a loaded machine could stretch).
        #expect(finished.withLock { $0 } == false, "the run waited for the check")
        #expect(check.status == .fail)
        #expect(check.detail == "timed out after 1 s")
        #expect(check.kind == .network)
    }
}
