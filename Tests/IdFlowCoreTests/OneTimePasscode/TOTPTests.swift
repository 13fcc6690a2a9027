import Foundation
import OneTimePasscode
import Testing

/// The codes a phone would show: RFC 6238's own test vectors, and Base32 as authenticator apps write it.
struct TOTPTests {
    /// RFC 6238 Appendix B, SHA-1 rows (8 digits, seed "12345678901234567890").
    @Test(arguments: [
        (59.0, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"), (1_234_567_890, "89005924"),
        (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
    ])
    func theRFCVectorsAreComputed(time: TimeInterval, expected: String) {
        let totp = TOTP(secret: TOTPSecret(bytes: Array("12345678901234567890".utf8)), digits: 8)
        #expect(totp.code(at: Date(timeIntervalSince1970: time)) == expected)
    }

    @Test func sixDigitCodesKeepTheirLeadingZeros() {
        // The same step as the RFC's 07081804, cut to 6 digits: 081804.
        let totp = TOTP(secret: TOTPSecret(bytes: Array("12345678901234567890".utf8)))
        #expect(totp.code(at: Date(timeIntervalSince1970: 1_111_111_109)) == "081804")
    }

    @Test func base32IsReadAsAppsShowItAndWrittenAsOktaSendsIt() throws {
        let secret = try #require(TOTPSecret(base32: "gezd gnbv-gy3t qojq gezd gnbv gy3t qojq===="))
        #expect(secret.bytes == Array("12345678901234567890".utf8))
        #expect(secret.base32 == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        #expect(TOTPSecret(base32: "AANACLY3MX6EHKJJ")?.base32 == "AANACLY3MX6EHKJJ")
        #expect(TOTPSecret(base32: "not base32: 1890") == nil)
        #expect(TOTPSecret(base32: "") == nil)
        let fresh = TOTPSecret.random()
        #expect(fresh.bytes.count == 20 && TOTPSecret(base32: fresh.base32) == fresh)
    }

    @Test func aCodeFromTheNeighbouringStepMatchesButNotFromFurther() {
        let totp = TOTP(secret: TOTPSecret(bytes: Array("12345678901234567890".utf8)))
        let now = Date(timeIntervalSince1970: 999_999_995)
        let previous = totp.code(forStep: totp.step(at: now) - 1)
        #expect(totp.matchingStep(of: previous, at: now) == totp.step(at: now) - 1)
        #expect(totp.matchingStep(of: totp.code(forStep: totp.step(at: now) - 3), at: now) == nil)
        #expect(totp.secondsRemaining(at: now) == 25)
    }
}
