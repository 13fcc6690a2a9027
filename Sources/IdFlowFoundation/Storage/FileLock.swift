import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive advisory lock (flock) on a lock file, held across a whole read → request → write so
/// concurrent idflow runs on one profile take turns instead of losing each other's writes.
public final class FileLock: @unchecked Sendable {
    private var fd: Int32

    private init(fd: Int32) {
        self.fd = fd
    }

    /// Waits for the lock up to `timeout`; a crashed holder releases it automatically (the kernel drops
    /// flock locks when the process dies), so a stale lock file never blocks anyone.
    public static func acquire(_ url: URL, timeout: Duration = .seconds(60)) async throws(IdFlowError) -> FileLock {
        try StateDirectory.ensure(url.deletingLastPathComponent())
        // No symbolic link is followed and the descriptor is checked, so a link planted at the lock file
        // cannot make idflow create or lock a file of someone else's choosing.
        guard let fd = try PrivateFileCheck.openFile(url, flags: O_RDWR | O_CREAT) else {
            throw .localState("cannot open the lock file \(url.path)")
        }
        let deadline = ContinuousClock.now + timeout
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                close(fd)
                throw .localState("cannot lock \(url.path): \(String(cString: strerror(errno)))")
            }
            guard ContinuousClock.now < deadline else {
                close(fd)
                throw .localState("another idflow run holds \(url.path)", hint: "wait for it to finish and try again")
            }
            try? await Task.sleep(for: .milliseconds(Int.random(in: 10...40)))
        }
        return FileLock(fd: fd)
    }

    /// Releases the lock; also done on deinit.
    public func release() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit {
        release()
    }
}
