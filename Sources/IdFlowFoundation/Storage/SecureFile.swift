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
        let hint = "check the state directory's permissions and free space"
        let temporary = try temporaryCopy(of: data, beside: url, hint: hint)
        if rename(temporary.path, url.path) != 0 {
            let failure = String(cString: strerror(errno))
            unlink(temporary.path)
            throw .localState("cannot write \(url.path): \(failure)", hint: hint)
        }
        syncDirectory(directory)
    }

    /// Makes a rename in `directory` durable (fsync of the directory); best effort, as a rename that happened stays.
    static func syncDirectory(_ directory: URL) {
        let directoryFD = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
    }

    /// Writes a new file that must not replace one: the same 0600 temporary beside it, then linked to the name,
    /// which fails rather than replace a file that appeared in the meantime. False when `url` exists. The directory
    /// is the caller's (a path the user chose), so its permissions are left as they are.
    public static func create(_ data: Data, at url: URL, hint: String) throws(IdFlowError) -> Bool {
        if access(url.path, F_OK) == 0 { return false }
        let temporary = try temporaryCopy(of: data, beside: url, hint: hint)
        defer { unlink(temporary.path) }
        return try publish(temporary, as: url, hint: hint)
    }

    /// Gives the file at `temporary` the name `url` as well, never replacing a file of that name: false when `url`
    /// exists. The temporary's own name stays; the caller removes it.
    static func publish(_ temporary: URL, as url: URL, hint: String) throws(IdFlowError) -> Bool {
        guard link(temporary.path, url.path) == 0 else {
            if errno == EEXIST { return false }
            throw .localState("cannot create \(url.path): \(String(cString: strerror(errno)))", hint: hint)
        }
        return true
    }

    /// A name for a temporary file beside `url`: hidden, this process's, and unlikely to be anyone else's.
    static func temporaryName(beside url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
    }

    /// The first half of every write here: `data` in a new 0600 temporary file beside `url`, fsynced.
    private static func temporaryCopy(of data: Data, beside url: URL, hint: String) throws(IdFlowError) -> URL {
        let temporary = temporaryName(beside: url)
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw .localState("cannot create \(temporary.path): \(String(cString: strerror(errno)))", hint: hint)
        }
        var failure = writeAll(data, to: fd)
        if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if let failure {
            unlink(temporary.path)
            throw .localState("cannot write \(url.path): \(failure)", hint: hint)
        }
        return temporary
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
