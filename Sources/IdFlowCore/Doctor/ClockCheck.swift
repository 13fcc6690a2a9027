import Foundation

/// This machine's clock against the server's `Date` header; beyond the skew the ID-token checks allow
/// (`TokenValidationPolicy.defaultClockSkew`), a warning with the measured difference.
enum ClockCheck {
    static func run(configuration: Configuration, http: HTTPClient, now: @escaping @Sendable () -> Date) async -> DoctorCheck {
        let url: URL
        do throws(IdFlowError) {
            url = try configuration.requireIssuer().appendingPathComponent(".well-known/openid-configuration")
        } catch {
            return .failed("clock", error)
        }
        let sent = now()
        let response: HTTPResponse
        do throws(IdFlowError) {
            response = try await http.send(.get(url))
        } catch {
            return .failed("clock", error)
        }
        let received = now()
        guard let header = response.header("date"), let serverTime = HTTPDate.parse(header) else {
            return DoctorCheck(
                "clock", .warn, "the server sent no Date header to compare with", fix: "nothing to do unless tokens fail their time checks")
        }
        // The Date header has whole seconds; the middle of the exchange is the best local guess for its instant.
        let local = sent.addingTimeInterval(received.timeIntervalSince(sent) / 2)
        let skew = Int(serverTime.timeIntervalSince(local).rounded())
        let tolerance = Int(TokenValidationPolicy.defaultClockSkew.inSeconds)
        let direction = skew > 0 ? "behind" : "ahead of"
        let measured =
            skew == 0
            ? "this machine's clock agrees with the server's (Date: \(header))"
            : "this machine's clock is \(abs(skew)) s \(direction) the server's (Date: \(header))"
        guard abs(skew) <= tolerance else {
            return DoctorCheck(
                "clock", .warn, "\(measured); the ID-token checks allow \(tolerance) s",
                fix: "synchronise this machine's clock (e.g. timedatectl set-ntp true)")
        }
        return DoctorCheck("clock", .ok, "\(measured); within the \(tolerance) s the ID-token checks allow")
    }
}
