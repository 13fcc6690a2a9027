import Foundation
import IdFlowTestSupport
import Testing

#if os(Linux)
    /// `scripts/build-release.sh` on a machine without libcurl's development files says what to install before it
    /// builds anything, instead of failing at the final link with screens of undefined `curl_*` symbols.
    struct ReleaseBuildTests {
        @Test func aMissingLibcurlIsNamedBeforeTheBuild() throws {
            let build = try ExternalCommand.run(
                "/bin/bash", [Fixtures.packageRoot.appendingPathComponent("scripts/build-release.sh").path],
                environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "IDFLOW_LIB_DIRS": "/nonexistent"])
            #expect(build.status == 1)
            #expect(
                build.standardError
                    == "build-release.sh: libcurl's development files are missing (the static link needs libcurl.so); on Debian/Ubuntu: apt-get install -y libcurl4-openssl-dev\n"
            )
        }
    }
#endif
