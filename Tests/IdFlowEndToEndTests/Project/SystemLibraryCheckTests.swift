import Foundation
import IdFlowTestSupport
import Testing

#if os(Linux)
    /// A clone on a machine without libcurl's, OpenSSL's or zlib's development files stops when SwiftPM reads the
    /// manifest, naming the packages to install, instead of compiling for many minutes before clang's
    /// `'curl/curl.h' file not found`. The headers are looked for in the folders IDFLOW_INCLUDE_DIRS names, with a
    /// pkg-config that knows no library, so the machine running the tests can stand in for one without them.
    @Suite struct SystemLibraryCheckTests {
        /// A folder holding (empty) copies of the headers named, and an empty pkg-config search path.
        static func environment(headers: [String]) throws -> [String: String] {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-include-\(UUID().uuidString)")
            let include = root.appendingPathComponent("include")
            let pkgConfig = root.appendingPathComponent("pkgconfig")
            try FileManager.default.createDirectory(at: pkgConfig, withIntermediateDirectories: true)
            for header in headers {
                let file = include.appendingPathComponent(header)
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data().write(to: file)
            }
            return [
                "IDFLOW_INCLUDE_DIRS": include.path, "PKG_CONFIG_LIBDIR": pkgConfig.path, "PKG_CONFIG_PATH": "",
                "CPATH": "", "C_INCLUDE_PATH": "",
            ]
        }

        @Test func aMachineWithoutLibcurlIsToldWhatToInstallBeforeTheBuild() async throws {
            let manifest = try await PackageManifest.dump(environment: Self.environment(headers: ["openssl/ssl.h", "zlib.h"]))
            #expect(manifest.status != 0)
            #expect(manifest.standardError.contains("lacks the development files"))
            #expect(manifest.standardError.contains("curl/curl.h, from libcurl4-openssl-dev"))
            #expect(!manifest.standardError.contains("zlib.h, from"))
            #expect(manifest.standardError.contains("sudo apt-get install libcurl4-openssl-dev libssl-dev zlib1g-dev"))
        }

        @Test func aMachineWithoutOpenSSLOrZlibIsToldToo() async throws {
            let manifest = try await PackageManifest.dump(environment: Self.environment(headers: ["curl/curl.h"]))
            #expect(manifest.status != 0)
            #expect(manifest.standardError.contains("openssl/ssl.h, from libssl-dev; zlib.h, from zlib1g-dev"))
        }

        @Test func aMachineWithTheHeadersBuildsAsBefore() async throws {
            let manifest = try await PackageManifest.dump(
                environment: Self.environment(headers: ["curl/curl.h", "openssl/ssl.h", "zlib.h"]))
            #expect(manifest.status == 0, "\(manifest.standardError)")
            #expect(manifest.output.contains("\"CCurl\""))
        }
    }
#endif
