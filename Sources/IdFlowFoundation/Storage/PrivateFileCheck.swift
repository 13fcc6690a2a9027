import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens the files that hold secrets (tokens, keys, caches, locks) without following a symbolic link and
/// checks the descriptor that is then used, not the path: checking the path and then opening it again would
/// let another local user swap the file in between.
enum PrivateFileCheck {
    /// Opens `url` with `flags | O_NOFOLLOW | O_CLOEXEC`; nil when it does not exist. A symbolic link, a file
    /// that is not regular, one owned by another user, or one that others may read or write is refused.
    static func openFile(_ url: URL, flags: Int32, mode: mode_t = 0o600) throws(IdFlowError) -> Int32? {
        let fd = open(url.path, flags | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            if errno == ELOOP {
                throw linkRefused(url)
            }
            throw .localState("cannot open \(url.path): \(String(cString: strerror(errno)))")
        }
        do {
            try check(fd, url)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// Refuses a descriptor that is not a regular file of ours with no group or other permissions.
    static func check(_ fd: Int32, _ url: URL) throws(IdFlowError) {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw .localState("cannot inspect \(url.path): \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .localState("\(url.path) is not a regular file", hint: "remove it and log in again")
        }
        guard info.st_uid == geteuid() else {
            throw .localState("\(url.path) belongs to another user", hint: "remove it, check who created it, and log in again")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw .localState(
                "\(url.path) is readable or writable by other users (mode \(String(info.st_mode & 0o777, radix: 8)))",
                hint: "chmod 600 it after checking nobody else used it, or log in again")
        }
    }

    /// Refuses to replace a symbolic link planted where a secret file goes (the rename would not follow it,
    /// but the link is a sign someone is tampering with the state directory).
    static func refuseLink(at url: URL) throws(IdFlowError) {
        var info = stat()
        if lstat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
            throw linkRefused(url)
        }
    }

    /// The one answer to a symbolic link found where a secret file goes, whether opening or replacing it.
    private static func linkRefused(_ url: URL) -> IdFlowError {
        .localState(
            "\(url.path) is a symbolic link; idflow does not follow links in its state directory",
            hint: "remove the link (its target was left untouched) and log in again")
    }
}
