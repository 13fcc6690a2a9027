import Foundation

/// The user's home directory as the shell knows it: `$HOME`, else the account's.
///
/// Foundation's tilde expansion reads the password database, so with `HOME=/tmp/x` a profile's
/// `apiTokenFile: ~/token` would be read from the account's home instead of the one the user (or a test, or a
/// container) chose. Every `~` idflow expands goes through here.
public enum HomeDirectory {
    public static func path(environment: [String: String]) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        return NSHomeDirectory()
    }

    /// `path` with a leading `~` or `~/` replaced by the home directory; `~user` forms are left to Foundation.
    public static func expand(_ path: String, environment: [String: String]) -> String {
        if path == "~" { return Self.path(environment: environment) }
        if path.hasPrefix("~/") { return Self.path(environment: environment) + path.dropFirst() }
        if path.hasPrefix("~") { return (path as NSString).expandingTildeInPath }
        return path
    }
}
