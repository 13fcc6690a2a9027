import Crypto
import Foundation
import IdFlowTestSupport
import Testing
import _CryptoExtras

@testable import IdFlowCore
@testable import IdFlowFoundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The JWTs idflow signs to prove a key: DPoP proofs (RFC 9449) and client assertions (RFC 7523), checked the way a
/// server checks them, with the public half only.
struct ProofOfPossessionTests {
    /// A compact JWT's header, claims and signing input.
    struct Parts {
        var header: [String: Any]
        var claims: [String: Any]
        var signingInput: Data
        var signature: Data

        init(_ jwt: String) throws {
            let segments = jwt.split(separator: ".", omittingEmptySubsequences: false)
            try #require(segments.count == 3)
            let headerBytes = try #require(Base64URL.decode(segments[0]))
            let claimBytes = try #require(Base64URL.decode(segments[1]))
            header = try #require(try JSONSerialization.jsonObject(with: headerBytes) as? [String: Any])
            claims = try #require(try JSONSerialization.jsonObject(with: claimBytes) as? [String: Any])
            signingInput = Data("\(segments[0]).\(segments[1])".utf8)
            signature = try #require(Base64URL.decode(segments[2]))
        }
    }

    @Test func theThumbprintIsRFC9449sExampleForItsExampleKey() throws {
        // RFC 9449 §4.3's proof key, and the `cnf.jkt` §6.1 shows for it.
        let x = try #require(Base64URL.decode("l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs"))
        let y = try #require(Base64URL.decode("9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA"))
        let key = try P256.Signing.PublicKey(rawRepresentation: x + y)
        #expect(DPoPKey.thumbprint(of: key) == "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I")
    }

    @Test func aProofCarriesThePublicKeyAndIsSignedByIt() throws {
        let key = DPoPKey.generate()
        let url = try #require(URL(string: "https://example.okta.com/api/v1/users?limit=1#top"))
        let proof = try Parts(
            DPoPProof.make(
                key: key, method: "get", url: url, accessToken: "tok", nonce: "n-1", now: Date(timeIntervalSince1970: 1_800_000_000)))
        #expect(proof.header["typ"] as? String == "dpop+jwt")
        #expect(proof.header["alg"] as? String == "ES256")
        let jwk = try #require(proof.header["jwk"] as? [String: String])
        #expect(jwk["d"] == nil, "the private scalar must never be in the proof")
        let publicKey = try P256.Signing.PublicKey(
            rawRepresentation: try #require(Base64URL.decode(jwk["x"] ?? "")) + (try #require(Base64URL.decode(jwk["y"] ?? ""))))
        #expect(DPoPKey.thumbprint(of: publicKey) == key.thumbprint)
        #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: proof.signature), for: proof.signingInput))
        #expect(proof.claims["htm"] as? String == "GET")
        #expect(proof.claims["htu"] as? String == "https://example.okta.com/api/v1/users", "htu drops the query and fragment")
        #expect(proof.claims["iat"] as? Int == 1_800_000_000)
        #expect(proof.claims["nonce"] as? String == "n-1")
        #expect(proof.claims["ath"] as? String == Base64URL.encode(Data(SHA256.hash(data: Data("tok".utf8)))))
        let again = try Parts(DPoPProof.make(key: key, method: "GET", url: url, accessToken: nil, nonce: nil, now: Date()))
        #expect(again.claims["jti"] as? String != proof.claims["jti"] as? String, "a proof is single-use")
        #expect(again.claims["ath"] == nil && again.claims["nonce"] == nil)
    }

    /// `htu` is the URI the server receives (RFC 9449 §4.3, compared after RFC 3986 normalisation): no user info,
    /// lower-case scheme and host, no default port, no dot segments.
    @Test(arguments: [
        ("HTTP://Example.OKTA.com:80/a/../b?x=1", "http://example.okta.com/b"),
        ("https://user:secret@example.okta.com:443/oauth2/v1/token", "https://example.okta.com/oauth2/v1/token"),
        ("https://example.okta.com:8443/./a/b/../c/", "https://example.okta.com:8443/a/c/"),
        ("https://example.okta.com", "https://example.okta.com/"),
        ("http://[::1]:8080/x/..", "http://[::1]:8080/"),
    ])
    func theTargetURIIsNormalisedAsRFC3986Says(url: String, expected: String) throws {
        let proof = try Parts(
            DPoPProof.make(key: .generate(), method: "POST", url: try #require(URL(string: url)), accessToken: nil, nonce: nil, now: Date())
        )
        #expect(proof.claims["htu"] as? String == expected)
    }

    /// What the proof names is what libcurl sends: the path the server reads from its request line.
    @Test func theTargetURIIsThePathLibcurlSends() async throws {
        let server = try TinyHTTPListener { _ in (200, ["Content-Type": "application/json"], "{}") }
        let url = try #require(URL(string: "HTTP://user:pw@127.0.0.1:\(server.port)/oauth2/../api/./v1/users?limit=1"))
        _ = try await CurlTransport(options: .init()).send(HTTPRequest(method: "GET", url: url))
        let line = try #require(server.requests.first?.split(separator: "\r\n").first)
        let sentPath = try #require(line.split(separator: " ").dropFirst().first).split(separator: "?").first.map(String.init)
        let htu = DPoPProof.targetURI(url)
        #expect(htu == "http://127.0.0.1:\(server.port)\(sentPath ?? "")", "\(line)")
        #expect(!htu.contains("pw") && !htu.contains(".."))
    }

    @Test func aKeptKeyReadsBackAsTheSameKey() throws {
        let key = DPoPKey.generate()
        #expect(DPoPKey(stored: key.stored) == key)
        #expect(DPoPKey(stored: "not a key") == nil)
    }

    @Test func anRS256AssertionNamesTheClientAndTheEndpoint() throws {
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let key = try ClientAssertionKey(pem: rsa.pemRepresentation, keyID: "k1", origin: "test")
        #expect(key.algorithm == "RS256")
        let assertion = ClientAssertion(clientID: "0oaservice", key: key)
        let token = try #require(URL(string: "https://example.okta.com/oauth2/v1/token"))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let first = try Parts(assertion.make(audience: token, now: now))
        #expect(first.header["alg"] as? String == "RS256")
        #expect(first.header["kid"] as? String == "k1")
        #expect(first.claims["iss"] as? String == "0oaservice")
        #expect(first.claims["sub"] as? String == "0oaservice")
        #expect(first.claims["aud"] as? String == "https://example.okta.com/oauth2/v1/token")
        #expect(first.claims["exp"] as? Int == 1_800_000_300, "five minutes: Okta refuses more than an hour")
        #expect(
            rsa.publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: first.signature), for: first.signingInput, padding: .insecurePKCS1v1_5))
        let second = try Parts(assertion.make(audience: token, now: now))
        #expect(first.claims["jti"] as? String != second.claims["jti"] as? String)
    }

    @Test func anES256KeyAndUnusableKeysAreToldApart() throws {
        let ec = P256.Signing.PrivateKey()
        #expect(try ClientAssertionKey(pem: ec.pemRepresentation, keyID: nil, origin: "test").algorithm == "ES256")
        #expect(throws: IdFlowError.self) { try ClientAssertionKey(pem: "hello", keyID: nil, origin: "k.pem") }
        let certificateLike = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"
        do {
            _ = try ClientAssertionKey(pem: certificateLike, keyID: nil, origin: "k.pem")
            Issue.record("an unreadable key was accepted")
        } catch {
            #expect(error.exitStatus == .usage)
            #expect(error.message.contains("k.pem"))
        }
    }
}
