import Foundation
import IdFlowTestSupport
import Testing

/// Every fuzz target fed the inputs kept for it: the seeds it starts from (Fuzz/Seeds) and each input the fuzzer
/// once crashed, hung or blew up on (Fuzz/Regressions), so that `swift test` keeps the fixes without the fuzzer and
/// the targets keep compiling and running against the code they fuzz. A regression that comes back ends this run
/// the way it ended the fuzzer's: with a crash naming the target.
@Suite(.serialized) struct FuzzInputReplayTests {
    static let targets = FuzzTargets.all.map(\.name)

    static func inputs(_ folder: String, _ target: String) -> [URL] {
        let directory = Fixtures.packageRoot.appendingPathComponent("Fuzz/\(folder)/\(target)", isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { directory.appendingPathComponent($0) }
    }

    @Test(arguments: targets) func eachTargetRunsItsSeedsAndRegressions(_ name: String) async throws {
        let target = try #require(FuzzTargets.named(name))
        let seeds = Self.inputs("Seeds", name)
        let regressions = Self.inputs("Regressions", name)
        // A target blocks its thread until the async code it drives is done (libFuzzer calls it synchronously), so it
        // runs on a thread of its own: on a cooperative one it would hold a thread that code needs.
        try await DedicatedThread.run {
            target.setUp()
            for file in seeds + regressions {
                target.run(try Data(contentsOf: file))
            }
        }
        // Every target has something to start from beyond what fuzz.sh adds from the recordings.
        #expect(!seeds.isEmpty || ["idx", "okta-response", "oauth-response"].contains(name), "\(name) has no seeds in Fuzz/Seeds")
    }

    @Test func everyRegressionNamesAnExistingTarget() throws {
        let folder = Fixtures.packageRoot.appendingPathComponent("Fuzz/Regressions", isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where !name.hasPrefix(".") && name != "README.md" {
            #expect(FuzzTargets.named(name) != nil, "Fuzz/Regressions/\(name) is for no target")
        }
    }
}
