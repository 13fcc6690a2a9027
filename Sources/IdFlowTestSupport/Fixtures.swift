import Foundation

/// Loads the real server responses recorded in `../shared/fixtures`, which sit beside every CI clone.
///
/// The recordings are never copied into this repository, so a test that needs one asks for it here
/// and skips itself (with a message naming the missing folder) when the checkout has no `../shared`.
public enum Fixtures {
    /// The `shared/fixtures` folder beside the package root, or `IDFLOW_FIXTURES_DIR` when set.
    public static var directory: URL {
        if let override = ProcessInfo.processInfo.environment["IDFLOW_FIXTURES_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures", isDirectory: true)
    }

    /// The package root, found from this source file's location (Sources/IdFlowTestSupport/Fixtures.swift).
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Whether the recordings are present; tests use it in `.enabled(if:)`.
    public static var available: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("okta-core").path)
    }

    /// The message a skipped test shows when the recordings are missing.
    public static var missingMessage: String {
        "recorded fixtures not found at \(directory.path); clone the project beside ../shared (as CI does) to run this test"
    }

    /// The raw bytes of one recording, e.g. `Fixtures.data("okta-core/authn-success.json")`.
    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(relativePath))
    }

    /// Every file name in one fixture folder, sorted, for tests that walk all recordings.
    public static func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".json") }
            .sorted()
    }

    /// One recording parsed as a JSON object (the top-level keys are what contract tests compare).
    public static func object(_ relativePath: String) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: data(relativePath))
        guard let object = value as? [String: Any] else {
            throw FixtureError.notAnObject(relativePath)
        }
        return object
    }
}

/// Why a recording could not be used.
public enum FixtureError: Error, CustomStringConvertible {
    /// The file holds JSON whose top level is not an object.
    case notAnObject(String)

    public var description: String {
        switch self {
        case .notAnObject(let path): return "fixture \(path) is not a JSON object"
        }
    }
}
