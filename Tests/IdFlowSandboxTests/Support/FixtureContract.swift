import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// How a contract test compares the sandbox's answer with a recording: the same key paths (recursively) and,
/// for errors, the same code, summary and causes.
enum FixtureContract {
    static func expectSameKeys(
        _ reply: Reply, fixture name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let fixture = try Fixtures.object("okta-core/\(name)")
        let actual = try reply.object(sourceLocation: sourceLocation)
        let expected = keyPaths(fixture)
        let got = keyPaths(actual)
        #expect(
            got == expected,
            "\(name): missing \(expected.subtracting(got).sorted()), extra \(got.subtracting(expected).sorted())",
            sourceLocation: sourceLocation)
    }

    /// Errors: same keys, and the same code and summary text as recorded.
    static func expectRecordedError(
        _ reply: Reply, fixture name: String, status: HTTPResponse.Status, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(reply.status == status, sourceLocation: sourceLocation)
        try expectSameKeys(reply, fixture: name, sourceLocation: sourceLocation)
        let recorded = try Fixtures.object("okta-core/\(name)")
        let body = try reply.object()
        #expect(body["errorCode"] as? String == recorded["errorCode"] as? String, sourceLocation: sourceLocation)
        if name != "error-E0000007-user-not-found.json" {
            #expect(body["errorSummary"] as? String == recorded["errorSummary"] as? String, sourceLocation: sourceLocation)
        }
        let causes = { (value: Any?) in (value as? [[String: String]]) ?? [] }
        #expect(causes(body["errorCauses"]) == causes(recorded["errorCauses"]), sourceLocation: sourceLocation)
    }
}
