import Foundation
import OneTimePasscode

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

    /// Writes the seed to a new file: a 0600 temporary beside it, fsynced, then linked to the name, which fails
    /// rather than replace a file that appeared in the meantime.
    public func create(_ secret: TOTPSecret) throws(IdFlowError) {
        let exists: IdFlowError = .localState(
            "\(url.path) already exists; idflow never overwrites a TOTP seed",
            hint: "give --totp-secret-file a path that does not exist yet, and start the enrollment again")
        if access(url.path, F_OK) == 0 { throw exists }
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw .localState(
                "cannot create the TOTP seed file in \(directory.path): \(String(cString: strerror(errno)))",
                hint: "give --totp-secret-file a path in a directory you can write")
        }
        var failure = writeAll(Data((secret.base32 + "\n").utf8), to: fd)
        if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        defer { unlink(temporary.path) }
        if let failure { throw .localState("cannot write \(temporary.path): \(failure)") }
        guard link(temporary.path, url.path) == 0 else {
            if errno == EEXIST { throw exists }
            throw .localState("cannot create \(url.path): \(String(cString: strerror(errno)))")
        }
    }
}
