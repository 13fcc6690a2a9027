import Base64URLCoding
import Foundation
import Testing

/// The base64url both sides write tokens, proofs and challenges in: RFC 4648's own test vectors, agreement with
/// Foundation's base64 for every length a JWT part or key takes, and the text a hostile server could send refused.
struct Base64URLCodingTests {
    /// RFC 4648 §10's vectors, unpadded.
    @Test(arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
    ])
    func encodesRFC4648sVectors(plain: String, encoded: String) {
        #expect(Base64URLCoding.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URLCoding.decode(encoded) == Array(plain.utf8))
    }

    /// Random bytes at each length up to 70, and every byte value at each offset of a 3-byte group: the same text as
    /// Foundation's base64 with the URL alphabet and no padding, and back to the same bytes.
    @Test func agreesWithFoundationAtEveryLength() {
        var inputs = (0...70).map { length in (0..<length).map { _ in UInt8.random(in: 0...255) } }
        inputs += (0..<3).map { offset in [UInt8](repeating: 0, count: offset) + (0...255).map { UInt8($0) } }
        for bytes in inputs {
            let expected = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(Base64URLCoding.encode(bytes) == expected, "\(bytes.count) bytes")
            #expect(Base64URLCoding.decode(expected) == bytes, "\(bytes.count) bytes")
        }
    }

    /// `+`, `/` and `=` belong to standard base64, not to a JWT's alphabet; a length of 4n+1 cannot be an encoding.
    @Test(arguments: ["ab+c", "ab/c", "Zg==", "Zm9vY", "Zm 9v", "Zm9v\n", "é"])
    func refusesWhatIsNotUnpaddedBase64URL(text: String) {
        #expect(Base64URLCoding.decode(text) == nil)
    }

    /// WebAuthn clients send either alphabet, padded or not.
    @Test(arguments: ["+/8=", "-_8", "+/8", "-_8="])
    func readsEitherAlphabetForWebAuthn(text: String) {
        #expect(Base64URLCoding.decodeEitherAlphabet(text) == [0xFB, 0xFF])
        #expect(Base64URLCoding.decodeEitherAlphabet("Zm9vY") == nil)
    }
}
