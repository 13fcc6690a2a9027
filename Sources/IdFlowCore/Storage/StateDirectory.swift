import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The private folders idflow keeps tokens, keys and caches in: mode 0700, so other users of the
/// machine cannot list or read them.
public enum StateDirectory {
    /// Creates `url` (and its parents) if needed and makes sure it is 0700 and owned by us.
    @discardableResult
    public static func ensure(_ url: URL) throws(IdFlowError) -> URL {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .localState("cannot create the state directory \(url.path): \(error.localizedDescription)", hint: "check --state-dir and its permissions")
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
}
