import Foundation

/// Loads the real server responses recorded from public Okta repositories, kept in `Tests/Fixtures` (each
/// folder's `SOURCES.md` names the repository, commit, path and licence), so a plain clone runs every test.
public enum Fixtures {
    /// `Tests/Fixtures` in this package.
    public static var directory: URL {
        packageRoot.appendingPathComponent("Tests/Fixtures", isDirectory: true)
    }

    /// The package root, found from this source file's location (Sources/IdFlowTestSupport/Fixtures.swift).
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
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
