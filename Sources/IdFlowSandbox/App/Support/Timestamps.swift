import Foundation

/// The two date formats the sandbox writes: Okta's ISO-8601 timestamps and the HTTP `Date` header.
enum Timestamps {
    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// `2020-08-27T18:21:49.000Z`: UTC, whole seconds, always `.000` milliseconds as real orgs write.
    static func iso8601(_ date: Date) -> String {
        let c = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return "\(pad(c.year!, 4))-\(pad(c.month!))-\(pad(c.day!))T\(pad(c.hour!)):\(pad(c.minute!)):\(pad(c.second!)).000Z"
    }

    /// Parses the format written by `iso8601(_:)` (and plain `…Z` ISO-8601); used by the clock admin route.
    static func parseISO8601(_ string: String) -> Date? {
        let trimmed = string.replacingOccurrences(of: ".000Z", with: "Z")
        return try? Date.ISO8601FormatStyle().parse(trimmed)
    }

    /// `Thu, 27 Aug 2020 18:21:49 GMT` (RFC 9110 IMF-fixdate), the reference clients use to read rate-limit resets.
    static func httpDate(_ date: Date) -> String {
        let c = utc.dateComponents([.weekday, .year, .month, .day, .hour, .minute, .second], from: date)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(weekdays[c.weekday! - 1]), \(pad(c.day!)) \(months[c.month! - 1]) \(pad(c.year!, 4)) "
            + "\(pad(c.hour!)):\(pad(c.minute!)):\(pad(c.second!)) GMT"
    }

    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
