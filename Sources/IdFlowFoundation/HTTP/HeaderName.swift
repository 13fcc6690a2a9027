import Foundation

/// HTTP header names, which are case-insensitive (RFC 9110 §5.1).
public enum HeaderName {
    /// Whether two names are the same header: compared byte by byte (names are ASCII), letters without case,
    /// without Foundation's locale-aware comparison, since a batch compares names on every request and response.
    public static func same(_ name: String, _ other: String) -> Bool {
        name.utf8.count == other.utf8.count
            && zip(name.utf8, other.utf8).allSatisfy {
                $0 == $1 || ($0 | 0x20 == $1 | 0x20 && ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A)
            }
    }
}
