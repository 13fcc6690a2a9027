import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The private folders idflow keeps tokens, keys and caches in: mode 0700, so other users of the
/// machine cannot list or read them.
public enum StateDirectory {
    /// Creates `url` and every missing parent with `mkdir(…, 0700)` (never wider first and narrowed after, so
    /// there is no moment another user could open one), then makes sure `url` is a directory we own, 0700.
    @discardableResult
    public static func ensure(_ url: URL) throws(IdFlowError) -> URL {
        var missing: [URL] = []
        var level = url.standardizedFileURL
        while level.path != "/", !exists(level) {
            missing.append(level)
            level = level.deletingLastPathComponent()
        }
        for directory in missing.reversed() where mkdir(directory.path, 0o700) != 0 && errno != EEXIST {
            throw .localState(
                "cannot create the state directory \(directory.path): \(String(cString: strerror(errno)))",
                hint: "check --state-dir and its permissions")
        }
        var info = stat()
        guard stat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw .localState("\(url.path) is not a directory", hint: "choose another --state-dir")
        }
        guard info.st_uid == geteuid() else {
            throw .localState("\(url.path) belongs to another user", hint: "choose a --state-dir of your own")
        }
        if info.st_mode & 0o077 != 0, chmod(url.path, 0o700) != 0 {
            throw .localState("cannot restrict \(url.path) to mode 0700", hint: "run chmod 700 on it")
        }
        return url
    }

    private static func exists(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0
    }
}
