import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file the user names for idflow to read once: a secret (`--password-file`), a batch, an `@FILE` answer.
///
/// It may be a regular file, a pipe from process substitution (`<(printf %s "$S")`, which is /dev/fd/N), a
/// FIFO, or /dev/stdin: all are read with plain `read(2)` to their end, since a pipe reports no size and
/// can be read only once. Files idflow writes itself go through `SecureFile`, which refuses links.
public enum InputFile {
    /// The contents of `path` (a leading `~/` is the user's `$HOME`), nil when it cannot be opened or read.
    public static func read(_ path: String, environment: [String: String]) -> Data? {
        read(exactly: HomeDirectory.expand(path, environment: environment))
    }

    /// The contents of the file at `path` as given, nil when it cannot be opened or read. Every file idflow reads
    /// (configuration, keys, CA bundles) comes through here rather than `FileManager.contents(atPath:)` or
    /// `Data(contentsOf:)`, which on Linux leak 4 KiB for each empty file they read (found by fuzzing).
    public static func read(exactly path: String) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return readAll(from: fd)
    }

    /// Why `read` gave nothing for `path`, as the hint of a "cannot read" error: a directory named as a file
    /// ("check that the file exists" sent people looking for a file that was there), a missing file, a file
    /// this user may not read.
    public static func whyUnreadable(_ path: String, environment: [String: String]) -> String {
        let expanded = HomeDirectory.expand(path, environment: environment)
        var status = stat()
        guard stat(expanded, &status) == 0 else {
            return errno == ENOENT ? "no such file: check the path" : "it cannot be reached: \(String(cString: strerror(errno)))"
        }
        if status.st_mode & S_IFMT == S_IFDIR { return "it is a directory: name a file inside it" }
        return access(expanded, R_OK) == 0 ? "it could not be read to its end" : "this user may not read it: check its permissions"
    }
}
