import Foundation
import IdFlowTestSupport

/// The package's manifest as SwiftPM reads it (`swift package dump-package`), evaluated afresh (no manifest cache)
/// in a scratch folder of its own, so that it never waits for the lock of the build running these tests.
enum PackageManifest {
    static func dump(environment overrides: [String: String] = [:]) async throws -> ExternalCommand.Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-manifest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let environment = ProcessInfo.processInfo.environment.merging(overrides) { $1 }
        return try await ExternalCommand.run(
            "/usr/bin/env",
            ["swift", "package", "--manifest-cache", "none", "--scratch-path", scratch.path, "dump-package"],
            environment: environment, directory: Fixtures.packageRoot)
    }
}
