import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes secret files so that a reader sees either the old or the new content, never a mix, and nobody
/// else can read them: a 0600 temporary file beside the target, fsynced, renamed over it, directory fsynced.
public enum SecureFile {
    public static func write(_ data: Data, to url: URL) throws(IdFlowError) {
        let directory = url.deletingLastPathComponent()
        try StateDirectory.ensure(directory)
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw .localState("cannot create \(temporary.path): \(String(cString: strerror(errno)))", hint: "check the state directory's permissions and free space")
        }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if failure == nil, rename(temporary.path, url.path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary.path)
            throw .localState("cannot write \(url.path): \(failure)", hint: "check the state directory's permissions and free space")
        }
        let directoryFD = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
    }

    /// Reads a file, nil when it does not exist; refuses a file others can read or write, since its secret
    /// may already have leaked or been replaced.
    public static func read(_ url: URL) throws(IdFlowError) -> Data? {
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw .localState("cannot read \(url.path): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw .localState(
                "\(url.path) is readable or writable by other users (mode \(String(info.st_mode & 0o777, radix: 8)))",
                hint: "chmod 600 it after checking nobody else used it, or log in again")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw .localState("cannot read \(url.path)")
        }
        return data
    }

    /// Removes a file if it exists.
    public static func remove(_ url: URL) throws(IdFlowError) {
        if unlink(url.path) != 0, errno != ENOENT {
            throw .localState("cannot remove \(url.path): \(String(cString: strerror(errno)))")
        }
    }
}
