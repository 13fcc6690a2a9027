// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "idflow",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "idflow", targets: ["idflow"]),
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
                "IdFlowCore",
                "IdFlowSandbox",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // libcurl's headers, for the transport that drives libcurl directly (`CurlTransport`).
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .yum(["libcurl-devel"]), .brew(["curl"])]
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
        .target(
            name: "OneTimePasscode",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(
            name: "IdFlowCore",
            dependencies: [
                "CCurl",
                // inflate, for the QR code image of a TOTP enrollment drawn in the terminal.
                "CZlib",
                "OneTimePasscode",
                "URINormalization",
                .product(name: "Crypto", package: "swift-crypto"),
                // scrypt, for the PIN that seals a push enrollment's user-verification key.
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(
            name: "IdFlowSandbox",
            dependencies: [
                // deflate, for the PNG of a TOTP enrollment's QR code.
                "CZlib",
                "OneTimePasscode",
                "URINormalization",
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
                "IdFlowCore",
                // The fake servers sign as real ones do: ID tokens (ES256) and push challenges (RS256).
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ]
        ),
        .testTarget(
            name: "IdFlowCoreTests",
            dependencies: [
                "IdFlowCore", "IdFlowTestSupport", "OneTimePasscode",
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
                "IdFlowSandbox", "IdFlowTestSupport", "IdFlowCore", "OneTimePasscode", "URINormalization",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .testTarget(
            name: "IdFlowCLITests",
            dependencies: [
                "idflow", "IdFlowCore", "IdFlowTestSupport", "OneTimePasscode",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The push tests sign challenges as an org would (RS256).
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            exclude: ["Snapshots"]
        ),
        // The fuzz targets' bodies: each feeds one input to the parser the product uses. `swift test` builds them and
        // replays the inputs the fuzzer once crashed on (IdFlowFuzzTests); `scripts/fuzz.sh` links them into
        // `idflow-fuzz` with libFuzzer.
        .target(
            name: "IdFlowFuzzTargets",
            dependencies: [
                // IdFlowTestSupport: the scripted transports and contexts the client targets run flows with.
                "IdFlowCore", "IdFlowSandbox", "IdFlowTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "IdFlowFuzzTests",
            dependencies: ["IdFlowFuzzTargets", "IdFlowCore", "IdFlowSandbox"]
        ),
        .testTarget(
            name: "IdFlowEndToEndTests",
            // Depends on the executable so `swift test` builds the binary these tests spawn.
            // IdFlowSandbox: the TLS tests make their certificates with its CertificateAuthority.
            dependencies: ["idflow", "IdFlowCore", "IdFlowSandbox", "IdFlowTestSupport", "CRenegotiatingServer"]
        ),
    ]
)

// `scripts/fuzz.sh` sets IDFLOW_FUZZ=1 and builds this executable with `-sanitize=fuzzer,address`: libFuzzer brings
// `main`, the target's `LLVMFuzzerTestOneInput` is in Fuzz/Entry.swift. Left out of ordinary builds, which have
// no libFuzzer to link.
if Context.environment["IDFLOW_FUZZ"] != nil {
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
