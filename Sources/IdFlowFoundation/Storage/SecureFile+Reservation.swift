import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SecureFile {
    /// Room for one write, taken before the work whose result it will hold (a token grant, after which the answer
    /// cannot be asked for again): a 0600 file beside the target filled with zeros and fsynced. Taking it proves the
    /// folder takes a file of that size now (free space, permissions, the file-size limit), and its blocks stay
    /// allocated for `write(_:to:using:)` however full the disk gets meanwhile. On Linux the file has no name until
    /// it is used (`O_TMPFILE`), so a run that dies on the way leaves nothing behind; elsewhere, or on a file system
    /// without `O_TMPFILE`, it is a hidden temporary removed on release. Used once, from one task.
    public final class Reservation: @unchecked Sendable {
        /// The number of bytes held.
        public let bytes: Int
        fileprivate var fd: Int32
        /// The file's name: the temporary when it has one, nil while it is anonymous.
        fileprivate var temporary: URL?

        fileprivate init(bytes: Int, fd: Int32, temporary: URL?) {
            self.bytes = bytes
            self.fd = fd
            self.temporary = temporary
        }

        /// Gives the room back; also done on deinit and after `write(_:to:using:)`.
        public func release() {
            if fd >= 0 {
                close(fd)
                fd = -1
            }
            if let temporary {
                unlink(temporary.path)
                self.temporary = nil
            }
        }

        deinit {
            release()
        }
    }

    /// Takes `bytes` of room in the folder of `url` (see `Reservation`); the folder is created 0700 if missing. An
    /// error names what refused: the folder, the free space or the file-size limit.
    public static func reserve(_ bytes: Int, beside url: URL) throws(IdFlowError) -> Reservation {
        let directory = try StateDirectory.ensure(url.deletingLastPathComponent())
        var temporary: URL?
        var fd: Int32 = -1
        #if os(Linux)
            fd = open(directory.path, anonymousFile | O_WRONLY | O_CLOEXEC, 0o600)
        #endif
        if fd < 0 {
            // No anonymous files here (another system, or a file system without them): a named temporary. A real
            // problem (permissions, no room for another file) makes this open fail too, and is reported from it.
            let name = temporaryName(beside: url)
            fd = open(name.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw .localState("cannot create a file in \(directory.path): \(String(cString: strerror(errno)))") }
            temporary = name
        }
        let reservation = Reservation(bytes: bytes, fd: fd, temporary: temporary)
        var failure = writeAll(Data(count: bytes), to: fd)
        if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            reservation.release()
            throw .localState("cannot write \(bytes) bytes in \(directory.path): \(failure)")
        }
        return reservation
    }

    /// Why a write into a reservation did not reach its target.
    public struct Unwritten: Error, Sendable, Equatable {
        /// What refused, as the system said it.
        public var reason: String
        /// A temporary beside the target that holds all of the data, when only the final rename failed: the caller
        /// may keep it under another name, and removes it. Nil when the data is nowhere on disk.
        public var completeCopy: URL?
    }

    /// Writes `data` to `url` in the room `reservation` holds, as `write(_:to:)` does (a 0600 file renamed over the
    /// target, the folder fsynced), and releases the reservation. Nil when written; otherwise what failed. Data
    /// larger than the reservation still goes to the same file, growing it.
    public static func write(_ data: Data, to url: URL, using reservation: Reservation) -> Unwritten? {
        defer { reservation.release() }
        do throws(IdFlowError) {
            try PrivateFileCheck.refuseLink(at: url)
        } catch {
            return Unwritten(reason: error.message)
        }
        let fd = reservation.fd
        guard fd >= 0 else { return Unwritten(reason: "the room reserved for \(url.path) was already used") }
        var failure = lseek(fd, 0, SEEK_SET) == 0 ? nil : String(cString: strerror(errno))
        if failure == nil { failure = writeAll(data, to: fd) }
        if failure == nil, ftruncate(fd, off_t(data.count)) != 0 { failure = String(cString: strerror(errno)) }
        if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        if let failure { return Unwritten(reason: failure) }
        let temporary: URL
        if let named = reservation.temporary {
            temporary = named
        } else {
            #if os(Linux)
                // An anonymous file gets a name through its descriptor's entry in /proc (linkat(2), O_TMPFILE).
                let name = temporaryName(beside: url)
                guard linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, name.path, AT_SYMLINK_FOLLOW) == 0 else {
                    return Unwritten(reason: String(cString: strerror(errno)))
                }
                temporary = name
                reservation.temporary = name
            #else
                return Unwritten(reason: "the reserved file has no name")
            #endif
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            reservation.temporary = nil
            return Unwritten(reason: reason, completeCopy: temporary)
        }
        reservation.temporary = nil
        syncDirectory(url.deletingLastPathComponent())
        return nil
    }
}

#if os(Linux)
    /// `O_TMPFILE`: `__O_TMPFILE | O_DIRECTORY`, spelt out because Glibc's Swift module leaves the macro out.
    private let anonymousFile: Int32 = 0o20_000_000 | O_DIRECTORY
#endif
