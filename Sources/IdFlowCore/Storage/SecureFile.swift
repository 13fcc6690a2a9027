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
        try PrivateFileCheck.refuseLink(at: url)
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw .localState(
                "cannot create \(temporary.path): \(String(cString: strerror(errno)))",
                hint: "check the state directory's permissions and free space")
        }
        var failure = writeAll(data, to: fd)
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

    /// Reads a file, nil when it does not exist; refuses a symbolic link, or a file others can read or
    /// write, since its secret may already have leaked or been replaced. The checks are made on the open
    /// descriptor that is then read.
    public static func read(_ url: URL) throws(IdFlowError) -> Data? {
        guard let fd = try PrivateFileCheck.openFile(url, flags: O_RDONLY) else { return nil }
        defer { close(fd) }
        guard let data = readAll(from: fd) else {
            throw .localState("cannot read \(url.path): \(String(cString: strerror(errno)))")
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

/// Writes all of `data` to `fd`, retrying short writes; the reason on failure.
func writeAll(_ data: Data, to fd: Int32) -> String? {
    data.withUnsafeBytes { buffer -> String? in
        var offset = 0
        while offset < buffer.count {
            let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            offset += written
        }
        return nil
    }
}

/// Reads `fd` to its end; nil on a read error (errno says which).
func readAll(from fd: Int32) -> Data? {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            return nil
        }
        if count == 0 { return data }
        data.append(contentsOf: buffer[0..<count])
    }
}
