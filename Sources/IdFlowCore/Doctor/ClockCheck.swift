import Foundation
import IdFlowFoundation

/// This machine's clock against the server's `Date` header; beyond the skew the ID-token checks allow
/// (`TokenValidationPolicy.defaultClockSkew`), a warning with the measured difference.
enum ClockCheck {
    static func run(configuration: Configuration, http: HTTPClient, now: @escaping @Sendable () -> Date) async -> DoctorCheck {
        let url: URL
        do throws(IdFlowError) {
            url = OpenIDConfigurationRequest(issuer: try configuration.requireIssuer()).url
        } catch {
            return .failed("clock", error)
        }
        let clock: ServerClock?
        do throws(IdFlowError) {
            clock = try await ServerClock.read(http: http, now: now, url: url)
        } catch {
            return .failed("clock", error)
        }
        guard let clock else {
            return DoctorCheck(
                "clock", .warn, "the server sent no Date header to compare with", fix: "nothing to do unless tokens fail their time checks")
        }
        let skew = clock.skewSeconds
        let header = ISO8601.string(clock.serverDate)
        let tolerance = Int(TokenValidationPolicy.defaultClockSkew.inSeconds)
        let direction = skew > 0 ? "behind" : "ahead of"
        let measured =
            skew == 0
            ? "this machine's clock agrees with the server's (its Date: \(header))"
            : "this machine's clock is \(abs(skew)) s \(direction) the server's (its Date: \(header))"
        guard abs(skew) <= tolerance else {
            return DoctorCheck(
                "clock", .warn, "\(measured); the ID-token checks allow \(tolerance) s",
                fix: "synchronise this machine's clock (e.g. timedatectl set-ntp true)")
        }
        return DoctorCheck("clock", .ok, "\(measured); within the \(tolerance) s the ID-token checks allow")
    }
}
