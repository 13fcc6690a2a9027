import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A private key the user keeps (a TLS client key, a service app's key) must be theirs alone, as ssh insists
/// for its keys: one that the group or others can read has to be assumed copied, and is refused before
/// anything is sent with it. A link is followed (mounted secrets are links); the file it reaches is checked.
public enum PrivateKeyPermissions {
    public static func check(_ path: String, setting: String) throws(IdFlowError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw .configuration(
                "cannot read the \(setting) \(SettingPath.shown(path, path: path, setting: setting)): \(String(cString: strerror(errno)))",
                hint: "check the path given to \(setting)")
        }
        let mode = info.st_mode & 0o777
        guard info.st_uid != geteuid() || mode & 0o077 == 0 else {
            throw .security(
                "Permissions \(String(format: "%04o", mode)) for '\(path)' are too open. It is required that your private key files are NOT accessible by others. This private key will be ignored.",
                hint: "chmod 600 \(path)")
        }
    }
}
