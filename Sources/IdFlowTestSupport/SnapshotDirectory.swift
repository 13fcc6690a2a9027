import Foundation

/// Text checked in next to the tests (help screens, the prompts a form shows) and compared with what the code
/// produces now; `RECORD_SNAPSHOTS=1` rewrites the files instead (then review the diff and commit it), as
/// swift-argument-parser's own tests do.
public struct SnapshotDirectory: Sendable {
    public let url: URL

    public init(_ url: URL) {
        self.url = url
    }

    /// nil when `actual` matches the file `name`; otherwise what is wrong. A missing file (or a recording run)
    /// writes `actual`, and only a recording run counts that as a match.
    public func mismatch(_ actual: String, named name: String) throws -> String? {
        let file = url.appendingPathComponent(name)
        let recording = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
        guard !recording, let expected = try? String(contentsOf: file, encoding: .utf8) else {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return recording ? nil : "no snapshot \(name) yet; recorded it, review and commit it"
        }
        return actual == expected ? nil : "\(name) differs from the snapshot; rerun with RECORD_SNAPSHOTS=1 if the change is intended"
    }
}
