import Foundation
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// The `Date` header read by position must give what the parse strategy gives, and leave what it cannot read to it.
struct HTTPDateTests {
    @Test func theFixdateReaderAgreesWithTheParseStrategy() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var seconds = -86_400.0 * 365 * 3
        while seconds < 86_400 * 365 * 80 {
            let text = formatter.string(from: Date(timeIntervalSince1970: seconds))
            let strategy = try Date(
                text,
                strategy: Date.ParseStrategy(
                    format: """
                        \(weekday: .abbreviated), \(day: .twoDigits) \(month: .abbreviated) \(year: .defaultDigits) \
                        \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits) GMT
                        """, locale: Locale(identifier: "en_US_POSIX"), timeZone: TimeZone(identifier: "GMT")!))
            #expect(HTTPDate.fixdate(Array(text.utf8)) == strategy, "\(text)")
            #expect(HTTPDate.parse(text) == Date(timeIntervalSince1970: seconds), "\(text)")
            seconds += 86_400 * 13 + 3_677
        }
    }

    @Test func otherFormsAreLeftToTheStrategy() {
        for text in [
            "Sun, 6 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 06 Xyz 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 UTC",
        ] {
            #expect(HTTPDate.fixdate(Array(text.utf8)) == nil, "\(text)")
        }
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
    }
}
