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
}
