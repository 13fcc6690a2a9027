import Foundation
import IdFlowTestSupport
import Testing

/// The help screens checked in under `Tests/IdFlowCLITests/Snapshots`.
enum Snapshot {
    static let directory = SnapshotDirectory(
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Snapshots", isDirectory: true))

    static func assertMatches(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if let mismatch = try directory.mismatch(actual, named: name) {
            Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation)
        }
    }
}
