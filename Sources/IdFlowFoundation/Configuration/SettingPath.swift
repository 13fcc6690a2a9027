import Foundation

/// How a setting that names a file (a private key, a certificate, a CA bundle) is shown in `doctor` and in
/// errors. Such settings also travel by environment variable and okta.yaml, where people paste the key itself
/// (Okta's Admin Console hands a service app's key out as a JWK or PEM text): a value is shown as a path only
/// once it has named a file, never merely because it was given where a path goes.
public enum SettingPath {
    /// What an inline key is shown as, whatever its form.
    public static let inlineKey = "(inline key)"

    /// Whether `text` is a key itself rather than a path: PEM (`-----BEGIN …`) or a JWK (a JSON object).
    public static func isInlineKey(_ text: String) -> Bool {
        text.contains("-----BEGIN") || text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("{")
    }

    /// `value` as it may be shown: "(inline key)" for a key given inline, the path when `path` (the value with
    /// `~` expanded) names something on disk, else a note that names the setting but does not repeat the value.
    public static func shown(_ value: String, path: String, setting: String) -> String {
        if isInlineKey(value) { return inlineKey }
        if FileManager.default.fileExists(atPath: path) { return path }
        return "(the value of \(setting), not repeated: it names no file)"
    }
}
