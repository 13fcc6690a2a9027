import Foundation
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// The PIN that seals a user-verification key: long enough to matter, a cost per guess at OWASP's minimum, and a
/// record that cannot ask `resolve` for minutes or gigabytes of scrypt.
@Suite struct SealedKeyTests {
    let secret = Data(repeating: 7, count: 32)
    let kid = "5B0AF3E2-9C31-4F6A-8E0D-1B2C3D4E5F60"

    @Test(arguments: ["", "1", "2468", "12345"])
    func aPINShorterThanSixCharactersSealsNothing(pin: String) {
        #expect(throws: IdFlowError.self) { try SealedKey.seal(secret, pin: Secret(pin), kid: kid, rounds: 1 << 10) }
        do {
            _ = try SealedKey.acceptable(Secret(pin))
            Issue.record("the PIN \"\(pin)\" was accepted")
        } catch {
            #expect(error.exitStatus == .usage)
            #expect(error.message.contains("at least 6 characters"))
        }
    }

    @Test func aSixCharacterPINSealsAndOpensOnlyWithItself() throws {
        let sealed = try SealedKey.seal(secret, pin: Secret("246813"), kid: kid, rounds: 1 << 10)
        guard case .success(let opened) = sealed.open(pin: Secret("246813"), kid: kid) else {
            Issue.record("the right PIN did not open the key")
            return
        }
        #expect(opened == secret)
        guard case .failure(.wrongPIN) = sealed.open(pin: Secret("246814"), kid: kid) else {
            Issue.record("a wrong PIN opened the key")
            return
        }
    }

    @Test func newKeysAreSealedAtLeastAtOWASPsScryptCost() {
        #expect(SealedKey.defaultRounds >= 1 << 17)
    }

    @Test(arguments: [(1 << 30, 8, 1), (1 << 21, 8, 1), (1 << 15, 1024, 1), (1 << 15, 8, 64), (3 << 10, 8, 1), (1 << 15, 0, 1)])
    func aRecordAskingScryptForTooMuchIsRefusedWithoutDeriving(n: Int, r: Int, p: Int) throws {
        var sealed = try SealedKey.seal(secret, pin: Secret("246813"), kid: kid, rounds: 1 << 10)
        sealed.n = n
        sealed.r = r
        sealed.p = p
        // The PIN is right, so only the parameter check can refuse: a derivation would open the key (or, for
        // N=2^30, ask for a terabyte first). The reason names the parameters, which no derivation could report.
        guard case .failure(.corrupted(let why)) = sealed.open(pin: Secret("246813"), kid: kid) else {
            Issue.record("N=\(n) r=\(r) p=\(p) was not refused")
            return
        }
        #expect(why.contains("N=\(n)"))
    }
}
