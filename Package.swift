// swift-tools-version:6.2
import PackageDescription

/// What the fuzz targets' bodies import. IdFlowTestSupport: the scripted transports and contexts the client targets
/// run flows with.
let fuzzTargetsDependencies: [Target.Dependency] = [
    "IdFlowFoundation", "IdFlowCore", "IdFlowSandbox", "IdFlowTestSupport", "QRCodeImage", "CBOR",
    .product(name: "Hummingbird", package: "hummingbird"),
    .product(name: "HTTPTypes", package: "swift-http-types"),
    .product(name: "NIOCore", package: "swift-nio"),
    .product(name: "NIOEmbedded", package: "swift-nio"),
    .product(name: "Logging", package: "swift-log"),
]

let package = Package(
    name: "idflow",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "idflow", targets: ["idflow"]),
        .library(name: "IdFlowFoundation", targets: ["IdFlowFoundation"]),
        .library(name: "IdFlowCore", targets: ["IdFlowCore"]),
        .library(name: "IdFlowSandbox", targets: ["IdFlowSandbox"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.0.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        // The sandbox's TLS certificates (`idflow sandbox --tls`): a CA, server and client certificates.
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        // Hummingbird's own dependencies, named because the sandbox imports them directly.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
    ],
    targets: [
        .executableTarget(
            name: "idflow",
            dependencies: [
                "IdFlowFoundation", "IdFlowCore",
                "IdFlowSandbox",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // libcurl for the transport that drives it directly (`CurlTransport`): non-variadic wrappers, and the
        // library opened with dlopen at the first request, so that a command sending none does not load it.
        .target(
            name: "CCurl",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .yum(["zlib-devel"])]
        ),
        // RFC 6238 codes: computed by the client, checked by the sandbox, with one implementation.
        // A TLS 1.2 server that renegotiates on every reused connection (system OpenSSL): the hostile peer of the
        // end-to-end TLS tests and of scripts/asan-tls.sh, which compiles the same file under AddressSanitizer.
        .target(
            name: "CRenegotiatingServer",
            linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]
        ),
        // RFC 3986 normalisation of http(s) URLs: idflow signs DPoP `htu` and assertion `aud` in it, the sandbox
        // compares them in it.
        .target(name: "URINormalization"),
        // Base64url (RFC 4648 §5) over bytes, with one meaning on both sides: idflow's JWTs, DPoP proofs and PKCE,
        // the sandbox's tokens, thumbprints and WebAuthn fields.
        .target(name: "Base64URLCoding"),
        // A QR code and its PNG, with one meaning on both sides: the sandbox encodes an enrollment's `otpauth://` URI
        // and draws it (deflate, CRC-32), idflow reads the picture back (inflate) to redraw it in a terminal.
        .target(name: "QRCodeImage", dependencies: ["CZlib"]),
        // The CBOR of WebAuthn (attestation objects, COSE keys), with one meaning on both sides: idflow's software
        // authenticator writes it, the sandbox verifies it. No package available offline does CBOR.
        .target(name: "CBOR"),
        .target(
            name: "OneTimePasscode",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        // What every protocol family stands on: HTTP (libcurl), JSON, JWT, OAuth basics, storage, secrets,
        // configuration, errors and the context. It imports no family, so the compiler keeps the layer.
        .target(
            name: "IdFlowFoundation",
            dependencies: [
                "CCurl",
                "URINormalization",
                "Base64URLCoding",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // The protocol families (Users, Authn, Login, IDX, push, recovery, …), each a folder, on the foundation.
        .target(
            name: "IdFlowCore",
            dependencies: [
                "IdFlowFoundation",
                // The QR code image of a TOTP enrollment, drawn in the terminal.
                "QRCodeImage",
                "OneTimePasscode",
                "URINormalization",
                // Passkeys: attestation objects and COSE keys.
                "CBOR",
                .product(name: "Crypto", package: "swift-crypto"),
                // scrypt, for the PIN that seals a push enrollment's user-verification key.
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ]
        ),
        .target(
            name: "IdFlowSandbox",
            dependencies: [
                // The QR code of a TOTP enrollment, as a PNG.
                "QRCodeImage",
                "OneTimePasscode",
                "URINormalization",
                "Base64URLCoding",
                // WebAuthn verification: attestation objects and COSE keys.
                "CBOR",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .target(
            name: "IdFlowTestSupport",
            dependencies: [
                "IdFlowFoundation", "IdFlowCore",
                // The fake servers sign as real ones do: ID tokens (ES256) and push challenges (RS256).
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ]
        ),
        .testTarget(
            name: "IdFlowCoreTests",
            dependencies: [
                "IdFlowFoundation", "IdFlowCore", "IdFlowTestSupport", "OneTimePasscode", "QRCodeImage", "CBOR", "Base64URLCoding",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "IdFlowSandboxTests",
            dependencies: [
                // IdFlowCore: the TLS tests talk to the sandbox through the client's own transport (libcurl).
                // OneTimePasscode: the IDX tests compute the codes a phone's authenticator app would show.
                // CBOR: the WebAuthn tests' own authenticator writes attestation objects and COSE keys.
                "IdFlowSandbox", "IdFlowTestSupport", "IdFlowFoundation", "IdFlowCore", "OneTimePasscode", "QRCodeImage",
                "URINormalization", "CBOR",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .testTarget(
            name: "IdFlowCLITests",
            dependencies: [
                "idflow", "IdFlowFoundation", "IdFlowCore", "IdFlowTestSupport", "OneTimePasscode",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The push tests sign challenges as an org would (RS256).
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            exclude: ["Snapshots"]
        ),
        // The fuzz targets' bodies (Tests/IdFlowFuzzTests/Targets) each feed one input to the parser the product uses.
        // They are test code: they reach the parsers with `@testable import`, which a release build refuses, so they
        // live in this test target (which `swift build -c release` leaves out) and `swift test` replays the inputs
        // the fuzzer once crashed on. `scripts/fuzz.sh` links them into `idflow-fuzz` with libFuzzer (below).
        .testTarget(
            name: "IdFlowFuzzTests",
            dependencies: fuzzTargetsDependencies
        ),
        .testTarget(
            name: "IdFlowEndToEndTests",
            // Depends on the executable so `swift test` builds the binary these tests spawn.
            // IdFlowSandbox: the TLS tests make their certificates with its CertificateAuthority.
            dependencies: ["idflow", "IdFlowFoundation", "IdFlowCore", "IdFlowSandbox", "IdFlowTestSupport", "CRenegotiatingServer"]
        ),
    ]
)

// `scripts/fuzz.sh` sets IDFLOW_FUZZ=1 and builds this executable with `-sanitize=fuzzer,address`: libFuzzer brings
// `main`, the target's `LLVMFuzzerTestOneInput` is in Fuzz/Entry.swift. Left out of ordinary builds, which have
// no libFuzzer to link.
// The fuzz targets' bodies become the library `IdFlowFuzzTargets` there, in place of the test target that holds them
// (a debug build, so their `@testable import` stands).
if Context.environment["IDFLOW_FUZZ"] != nil {
    package.targets.removeAll { $0.name == "IdFlowFuzzTests" }
    package.targets.append(
        .target(
            name: "IdFlowFuzzTargets", dependencies: fuzzTargetsDependencies, path: "Tests/IdFlowFuzzTests/Targets"))
    package.targets.append(
        .executableTarget(name: "idflow-fuzz", dependencies: ["IdFlowFuzzTargets"], path: "Fuzz/Entry"))
}

// `scripts/bench.sh` sets IDFLOW_BENCH=1 and builds this in release: the signing rate of swift-crypto and jwt-kit on
// this machine, the bound of the sandbox's token endpoint. Left out of ordinary builds.
if Context.environment["IDFLOW_BENCH"] != nil {
    package.targets.append(
        .executableTarget(
            name: "idflow-signing-speed",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            path: "Benchmarks/SigningSpeed"))
}

// A machine without libcurl's, OpenSSL's or zlib's development files would compile for many minutes before clang
// stops at `'curl/curl.h' file not found`, the package to install buried thousands of lines up. SwiftPM evaluates
// this manifest before anything else, so it looks for the three headers (where the compiler does, then where
// pkg-config says) and stops at once, naming the packages. IDFLOW_INCLUDE_DIRS (folders separated by `:`) replaces
// the standard folders looked in (tests use it). Linux only: macOS has the three in its SDK.
#if os(Linux)
    import Foundation

    /// The standard folders, the multiarch ones (Debian keeps curl/curl.h in /usr/include/x86_64-linux-gnu), and
    /// CPATH and C_INCLUDE_PATH, which clang also searches.
    func includeDirectories() -> [String] {
        if let override = Context.environment["IDFLOW_INCLUDE_DIRS"] {
            return override.split(separator: ":").map(String.init)
        }
        let multiarch = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/include")) ?? [])
            .filter { $0.hasSuffix("-linux-gnu") }.map { "/usr/include/\($0)" }
        let paths = ["CPATH", "C_INCLUDE_PATH"].flatMap { (Context.environment[$0] ?? "").split(separator: ":").map(String.init) }
        return ["/usr/local/include", "/usr/include"] + multiarch + paths
    }

    /// The folders `pkg-config --cflags-only-I module` names; none when pkg-config is absent or knows no such module.
    func pkgConfigIncludeDirectories(_ module: String) -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pkg-config", "--cflags-only-I", module]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return [] }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return [] }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
            .filter { $0.hasPrefix("-I") }.map { String($0.dropFirst(2)) }
    }

    let systemHeaders = [
        (header: "curl/curl.h", module: "libcurl", package: "libcurl4-openssl-dev"),
        (header: "openssl/ssl.h", module: "openssl", package: "libssl-dev"),
        (header: "zlib.h", module: "zlib", package: "zlib1g-dev"),
    ]
    let searched = includeDirectories()
    let missingHeaders = systemHeaders.filter { library in
        !(searched + pkgConfigIncludeDirectories(library.module)).contains { directory in
            FileManager.default.fileExists(atPath: "\(directory)/\(library.header)")
        }
    }
    if !missingHeaders.isEmpty {
        let message = """

            idflow cannot be built yet: this machine lacks the development files of the C libraries it uses
            (\(missingHeaders.map { "\($0.header), from \($0.package)" }.joined(separator: "; "))).
            Install them, then build again:
                Debian/Ubuntu:  sudo apt-get install libcurl4-openssl-dev libssl-dev zlib1g-dev
                Fedora/RHEL:    sudo dnf install libcurl-devel openssl-devel zlib-devel
            (Looked in \(searched.joined(separator: ", ")) and where pkg-config points. Headers kept elsewhere:
            set IDFLOW_INCLUDE_DIRS to their folders, separated by ":".)

            """
        FileHandle.standardError.write(Data(message.utf8))
        exit(1)
    }
#endif
