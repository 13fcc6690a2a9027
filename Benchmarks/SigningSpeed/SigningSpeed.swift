import Crypto
import Foundation
import JWTKit
import _CryptoExtras

/// The RSA-2048 signing rate of one core on the code the sandbox signs with, for `scripts/bench.sh`'s token
/// endpoint bound: BoringSSL's PKCS #1 v1.5 signature through swift-crypto, and a whole RS256 JWT of an access
/// token's size through jwt-kit (header, claims, base64url and the signature), as the sandbox makes two per token
/// response. `openssl speed` measures OpenSSL's own code, which may take paths BoringSSL has not.
///
/// Prints `swift-crypto <signs/s>` and `jwt-kit <signs/s>`, each measured for the seconds given (default 3).
@main
struct SigningSpeed {
    struct AccessClaims: JWTPayload {
        var iss: String
        var sub: String
        var aud: String
        var cid: String
        var uid: String
        var scp: [String]
        var iat: Int
        var exp: Int
        var jti: String

        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    static func main() async throws {
        let seconds = Double(CommandLine.arguments.dropFirst().first ?? "3") ?? 3
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let digest = SHA256.hash(data: Data("idflow".utf8))
        let boring = try await rate(seconds) { _ = try key.signature(for: digest, padding: .insecurePKCS1v1_5) }
        print("swift-crypto \(Int(boring))")

        let keys = JWTKeyCollection()
        await keys.add(rsa: try Insecure.RSA.PrivateKey(backing: key), digestAlgorithm: .sha256, kid: "k")
        let now = Int(Date().timeIntervalSince1970)
        let claims = AccessClaims(
            iss: "http://127.0.0.1:8080/oauth2/default", sub: "wrk@example.com", aud: "api://default", cid: "0oaidflowsandbox0000",
            uid: "00u0000000000000000", scp: ["openid", "profile", "offline_access"], iat: now, exp: now + 3600,
            jti: "AT.0123456789abcdefghijklmnopqrstuvwxyz")
        let jwts = try await rate(seconds) { _ = try await keys.sign(claims, kid: "k") }
        print("jwt-kit \(Int(jwts))")
    }

    /// How many times a second `work` runs, measured for `seconds`.
    static func rate(_ seconds: Double, _ work: @Sendable () async throws -> Void) async rethrows -> Double {
        var count = 0
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .seconds(seconds) {
            try await work()
            count += 1
        }
        return Double(count) / (ContinuousClock.now - start).inSeconds
    }
}

extension Duration {
    fileprivate var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
