/// Ids that become file names in the state directory (a kept sign-in, a push enrollment, a passkey): only plain ones
/// are taken, so an id a server or a command line gave can never name a path outside its folder (`/`, `..`).
public enum StateFileName {
    /// Whether `id` is non-empty, at most `maxLength` characters, and only ASCII letters, digits, `-` and `_`.
    public static func isPlain(_ id: String, maxLength: Int = .max) -> Bool {
        !id.isEmpty && id.count <= maxLength
            && id.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "_" }
    }
}
