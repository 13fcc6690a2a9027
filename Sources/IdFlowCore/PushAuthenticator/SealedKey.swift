import Crypto
import Foundation
import IdFlowFoundation
import _CryptoExtras

/// A private key encrypted at rest under a PIN: scrypt (swift-crypto's `_CryptoExtras`) turns the PIN and a
/// random salt into an AES-256 key, AES-GCM seals the key's raw bytes with its `kid` as authenticated data, so
/// a file cannot be swapped for another key's. A wrong PIN fails the GCM tag check; nothing else tells it apart.
struct SealedKey: Codable, Sendable, Equatable {
    var kdf: String
    var salt: String
    /// scrypt's N (rounds), r (block size) and p (parallelism), kept so they can be raised later.
    var n: Int
    var r: Int
    var p: Int
    /// AES-GCM's combined nonce ‖ ciphertext ‖ tag, base64url.
    var box: String

    /// 2^17 rounds with r = 8 and p = 1, OWASP's minimum for scrypt: 128 MiB and a fraction of a second, and each
    /// guess at a stolen file costs as much.
    static let defaultRounds = 1 << 17

    /// The shortest PIN accepted for a new seal: a 4-digit PIN is 10,000 guesses, which no cost per guess can
    /// make slow enough for a copied file; 6 characters is what phones ask for.
    static let minimumPINLength = 6

    /// The most a file may ask of scrypt when it is opened (2^20 rounds, r 16, p 4: 2 GiB at the very most), so a
    /// planted or damaged record cannot make `resolve` spend minutes or gigabytes before the tag check.
    static let maximumRounds = 1 << 20
    static let maximumBlockSize = 16
    static let maximumParallelism = 4

    /// `pin` if it is long enough to seal a key with; otherwise a usage error saying why.
    static func acceptable(_ pin: Secret) throws(IdFlowError) -> Secret {
        guard pin.value.count >= minimumPINLength else {
            throw .invalidInput(
                "the PIN is too short: a user-verification key needs a PIN of at least \(minimumPINLength) characters",
                hint: "choose a longer PIN; it is all that protects the key if the file is ever copied")
        }
        return pin
    }

    static func seal(_ secret: Data, pin: Secret, kid: String, rounds: Int = defaultRounds) throws(IdFlowError) -> SealedKey {
        _ = try acceptable(pin)
        let salt = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        let key = try derive(pin: pin, salt: salt, rounds: rounds, blockSize: 8, parallelism: 1)
        do {
            let sealed = try AES.GCM.seal(secret, using: key, authenticating: Data(kid.utf8))
            guard let combined = sealed.combined else { throw IdFlowError.internalFailure("AES-GCM gave no combined box") }
            return SealedKey(kdf: "scrypt", salt: Base64URL.encode(salt), n: rounds, r: 8, p: 1, box: Base64URL.encode(combined))
        } catch let error as IdFlowError {
            throw error
        } catch {
            throw .internalFailure("cannot seal the user-verification key: \(error)")
        }
    }

    enum OpenFailure: Error {
        /// The GCM tag did not verify: the PIN is not the one the key was sealed with (or the file was altered).
        case wrongPIN
        /// The record itself is unusable (unknown KDF, bad base64, impossible parameters).
        case corrupted(String)
    }

    func open(pin: Secret, kid: String) -> Result<Data, OpenFailure> {
        guard kdf == "scrypt", let salt = Base64URL.decode(salt), let combined = Base64URL.decode(box) else {
            return .failure(.corrupted("unknown key derivation or damaged record"))
        }
        guard n > 1, n <= Self.maximumRounds, n & (n - 1) == 0, (1...Self.maximumBlockSize).contains(r),
            (1...Self.maximumParallelism).contains(p)
        else {
            return .failure(.corrupted("the record asks scrypt for N=\(n), r=\(r), p=\(p), outside what idflow seals with"))
        }
        let key: SymmetricKey
        do {
            key = try Self.derive(pin: pin, salt: salt, rounds: n, blockSize: r, parallelism: p)
        } catch {
            return .failure(.corrupted(error.message))
        }
        do {
            let box = try AES.GCM.SealedBox(combined: combined)
            return .success(try AES.GCM.open(box, using: key, authenticating: Data(kid.utf8)))
        } catch {
            return .failure(.wrongPIN)
        }
    }

    private static func derive(pin: Secret, salt: Data, rounds: Int, blockSize: Int, parallelism: Int) throws(IdFlowError) -> SymmetricKey {
        do {
            return try KDF.Scrypt.deriveKey(
                from: Data(pin.value.utf8), salt: salt, outputByteCount: 32, rounds: rounds, blockSize: blockSize, parallelism: parallelism)
        } catch {
            throw .internalFailure("scrypt failed: \(error)")
        }
    }
}
