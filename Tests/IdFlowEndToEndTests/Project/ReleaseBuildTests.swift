import Foundation
import IdFlowTestSupport
import Testing

#if os(Linux)
    /// `scripts/build-release.sh` on a machine without libcurl's development files says what to install before it
    /// builds anything, instead of failing at the final link with screens of undefined `curl_*` symbols.
    struct ReleaseBuildTests {
        @Test func aMissingLibcurlIsNamedBeforeTheBuild() throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [Fixtures.packageRoot.appendingPathComponent("scripts/build-release.sh").path]
            process.environment = [
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "IDFLOW_LIB_DIRS": "/nonexistent",
            ]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 1)
            #expect(
                text
                    == "build-release.sh: libcurl's development files are missing (the static link needs libcurl.so); on Debian/Ubuntu: apt-get install -y libcurl4-openssl-dev\n"
            )
        }
    }
#endif
