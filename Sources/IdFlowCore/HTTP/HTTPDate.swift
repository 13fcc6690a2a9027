import Foundation

/// The IMF-fixdate format of the HTTP `Date` header (RFC 9110 §5.6.7). `register --batch` reads one per
/// response: a `DateFormatter` per call spent a fifth of its CPU opening ICU formatters, where one parse strategy
/// for the process takes microseconds.
enum HTTPDate {
    private static let strategy = Date.ParseStrategy(
        format: """
            \(weekday: .abbreviated), \(day: .twoDigits) \(month: .abbreviated) \(year: .defaultDigits) \
            \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits) GMT
            """, locale: Locale(identifier: "en_US_POSIX"), timeZone: TimeZone(identifier: "GMT")!)

    static func parse(_ text: String) -> Date? {
        try? Date(text, strategy: strategy)
    }
}
