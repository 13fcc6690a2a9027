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
        .target(
            name: "IdFlowCore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(
            name: "IdFlowSandbox",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ]
        ),
        .target(
            name: "IdFlowTestSupport",
            dependencies: [
                "IdFlowCore",
                "IdFlowSandbox",
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "IdFlowCoreTests",
            dependencies: [
                "IdFlowCore", "IdFlowTestSupport",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "IdFlowSandboxTests",
            dependencies: [
                "IdFlowSandbox", "IdFlowTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "IdFlowEndToEndTests",
            dependencies: ["IdFlowCore", "IdFlowSandbox", "IdFlowTestSupport"]
        ),
    ]
)
