import Foundation
import Testing

/// Compares text with a file checked in under `Tests/IdFlowCLITests/Snapshots`; `RECORD_SNAPSHOTS=1`
/// rewrites the files instead (then review the diff and commit it), as swift-argument-parser's own tests do.
enum Snapshot {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Snapshots", isDirectory: true)

    static func assertMatches(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = directory.appendingPathComponent(name)
        let recording = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
        guard !recording, let expected = try? String(contentsOf: file, encoding: .utf8) else {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try actual.write(to: file, atomically: true, encoding: .utf8)
            if !recording {
                Issue.record("no snapshot \(name) yet; recorded it, review and commit it", sourceLocation: sourceLocation)
            }
            return
        }
        #expect(
            actual == expected, "\(name) differs from the snapshot; rerun with RECORD_SNAPSHOTS=1 if the change is intended",
            sourceLocation: sourceLocation)
    }
}
