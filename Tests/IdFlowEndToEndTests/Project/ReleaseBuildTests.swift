import Foundation
import IdFlowTestSupport
import Testing

#if os(Linux)
    /// `scripts/build-release.sh` on a machine without libcurl's or OpenSSL's development files says what to install
    /// before it builds anything, instead of failing at the final link with screens of undefined symbols.
    struct ReleaseBuildTests {
        @Test func aMissingLibcurlIsNamedBeforeTheBuild() async throws {
            let build = try await ExternalCommand.run(
                "/bin/bash", [Fixtures.packageRoot.appendingPathComponent("scripts/build-release.sh").path],
                environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "IDFLOW_LIB_DIRS": "/nonexistent"])
            #expect(build.status == 1)
            #expect(
                build.standardError
                    == "build-release.sh: development files are missing (the link needs libcurl.so libssl.so libz.so); on Debian/Ubuntu: apt-get install -y libcurl4-openssl-dev libssl-dev zlib1g-dev\n"
            )
        }
    }
#endif
