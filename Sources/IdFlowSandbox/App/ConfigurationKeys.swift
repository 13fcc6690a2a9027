/// The check every object of the sandbox's configuration file makes before it decodes: a key it does not know is
/// refused, with the known ones named, so a misspelt setting fails at start-up instead of being silently ignored.
enum ConfigurationKeys {
    /// Throws `invalidValue` for `key` when the object `decoder` holds has a key outside `known`.
    static func refuseUnknown(_ decoder: any Decoder, known: [String], key: String) throws {
        let unknown = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue).filter { !known.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw SandboxConfigurationError.invalidValue(
                key: key, reason: "unknown key(s) \(unknown.joined(separator: ", ")) (known keys: \(known.joined(separator: ", ")))")
        }
    }

    /// Any key at all, to list what the object holds.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
