import Foundation

/// The IMF-fixdate format of the HTTP `Date` header (RFC 9110 §5.6.7). `register --batch` reads one per
/// response: a `DateFormatter` per call spent a fifth of its CPU opening ICU formatters, where one parse strategy
/// for the process takes microseconds.
package enum HTTPDate {
    private static let strategy = Date.ParseStrategy(
        format: """
            \(weekday: .abbreviated), \(day: .twoDigits) \(month: .abbreviated) \(year: .defaultDigits) \
            \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits) GMT
            """, locale: Locale(identifier: "en_US_POSIX"), timeZone: TimeZone(identifier: "GMT")!)

    package static func parse(_ text: String) -> Date? {
        fixdate(Array(text.utf8)) ?? (try? Date(text, strategy: strategy))
    }

    private static let months = Array("JanFebMarAprMayJunJulAugSepOctNovDec".utf8)

    /// `Sun, 06 Nov 1994 08:49:37 GMT` read by position, the form every server sends (a batch reads one per
    /// response, and the parse strategy costs tens of microseconds); nil for anything else, which the strategy
    /// then reads or refuses.
    static func fixdate(_ bytes: [UInt8]) -> Date? {
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == 0x20, bytes[7] == 0x20, bytes[11] == 0x20,
            bytes[16] == 0x20, bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"), bytes[25] == 0x20,
            bytes[26...28].elementsEqual("GMT".utf8)
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard let day = number(5..<7), let year = number(12..<16), let hour = number(17..<19), let minute = number(20..<22),
            let second = number(23..<25), (1...31).contains(day), hour < 24, minute < 60, second < 60,
            let monthIndex = stride(from: 0, to: 36, by: 3).first(where: { months[$0..<$0 + 3].elementsEqual(bytes[8..<11]) })
        else { return nil }
        // Days from 1970-01-01 to the civil date (Howard Hinnant's days_from_civil).
        let month = monthIndex / 3 + 1
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146097 + dayOfEra - 719468
        return Date(timeIntervalSince1970: Double(days * 86400 + hour * 3600 + minute * 60 + second))
    }
}
