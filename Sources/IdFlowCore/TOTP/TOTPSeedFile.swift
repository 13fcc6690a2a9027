import Foundation
import IdFlowFoundation
import OneTimePasscode

/// The file a TOTP authenticator's seed is kept in (`--totp-secret-file`): the Base32 secret and a newline, so
/// `oathtool --totp -b "$(cat F)"` reads it too. Created 0600 and never overwritten: a seed replaced by another
/// enrollment's would lock its owner out of the first one without a word.
public struct TOTPSeedFile: Sendable, Equatable {
    public let url: URL

    public init(_ url: URL) { self.url = url }

    /// Refused like a stored token when others can read it or it is a symbolic link; a file that is not Base32
    /// says so.
    public func read() throws(IdFlowError) -> TOTPSecret {
        guard let data = try SecureFile.read(url) else {
            throw .invalidInput(
                "the TOTP seed file \(url.path) does not exist",
                hint: "enroll with --totp-secret-file \(url.path) first, or give the file that enrollment wrote")
        }
        guard let secret = TOTPSecret(base32: String(decoding: data, as: UTF8.self)) else {
            throw .invalidInput(
                "\(url.path) holds no Base32 TOTP seed", hint: "the file should hold the secret only, e.g. JBSWY3DPEHPK3PXP")
        }
        return secret
    }

    /// Writes the seed to a new file (`SecureFile.create`: never over one that exists, even one that appears meanwhile).
    public func create(_ secret: TOTPSecret) throws(IdFlowError) {
        let created = try SecureFile.create(
            Data((secret.base32 + "\n").utf8), at: url, hint: "give --totp-secret-file a path in a directory you can write")
        guard created else {
            throw .localState(
                "\(url.path) already exists; idflow never overwrites a TOTP seed",
                hint: "give --totp-secret-file a path that does not exist yet, and start the enrollment again")
        }
    }
}
