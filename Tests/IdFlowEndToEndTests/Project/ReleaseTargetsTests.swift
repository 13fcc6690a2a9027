import Foundation
import IdFlowTestSupport
import Testing

/// `swift build -c release`, the command Swift users type, builds every target that is not a test, and a release
/// build refuses `@testable import`. Code that needs it (the fuzz targets' bodies) belongs to a test target.
@Suite struct ReleaseTargetsTests {
    struct Manifest: Decodable {
        struct Target: Decodable {
            var name: String
            var type: String
            var path: String?
        }
        var targets: [Target]
    }

    static func manifest(environment: [String: String] = [:]) async throws -> Manifest {
        let dump = try await PackageManifest.dump(environment: environment)
        try #require(dump.status == 0, "\(dump.standardError)")
        return try JSONDecoder().decode(Manifest.self, from: dump.standardOutput)
    }

    @Test func noTargetAReleaseBuildCompilesUsesTestableImport() async throws {
        let built = try await Self.manifest().targets.filter { ["regular", "executable"].contains($0.type) }
        #expect(built.contains { $0.name == "idflow" })
        var offenders: [String] = []
        for target in built {
            let folder = Fixtures.packageRoot.appendingPathComponent(target.path ?? "Sources/\(target.name)")
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
            for file in files where file.pathExtension == "swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                if text.split(separator: "\n").contains(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("@testable import") }) {
                    offenders.append("\(target.name): \(file.lastPathComponent)")
                }
            }
        }
        #expect(offenders.isEmpty, "a release build refuses @testable import in \(offenders); move such code to a test target")
    }

    /// `scripts/fuzz.sh` (IDFLOW_FUZZ=1) still finds the fuzz targets' bodies as a library to link into idflow-fuzz.
    @Test func theFuzzBuildStillHasItsTargets() async throws {
        let targets = try await Self.manifest(environment: ["IDFLOW_FUZZ": "1"]).targets
        #expect(targets.contains { $0.name == "IdFlowFuzzTargets" && $0.type == "regular" && $0.path == "Tests/IdFlowFuzzTests/Targets" })
        #expect(targets.contains { $0.name == "idflow-fuzz" && $0.type == "executable" })
        #expect(!targets.contains { $0.name == "IdFlowFuzzTests" })
    }
}
