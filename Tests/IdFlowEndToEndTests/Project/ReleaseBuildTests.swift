import Foundation
import IdFlowTestSupport
import Testing

#if os(Linux)
    /// `scripts/build-release.sh` on a machine without zlib's development file says what to install
    /// before it builds anything, instead of failing at the final link with screens of undefined symbols.
    struct ReleaseBuildTests {
        @Test func aMissingZlibIsNamedBeforeTheBuild() async throws {
            let build = try await ExternalCommand.run(
                "/bin/bash", [Fixtures.packageRoot.appendingPathComponent("scripts/build-release.sh").path],
                environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "IDFLOW_LIB_DIRS": "/nonexistent"])
            #expect(build.status == 1)
            #expect(
                build.standardError
                    == "build-release.sh: development files are missing (the link needs libz.so); on Debian/Ubuntu: apt-get install -y zlib1g-dev\n"
            )
        }
    }
#endif
