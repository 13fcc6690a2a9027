import Foundation
import IdFlowFoundation

/// Enrollment grace periods ("remind me later"): Okta lets a user put off enrolling an authenticator the policy
/// now requires, until a date or for a number of sign-ins (`authenticators.value[].gracePeriod`), and offers `skip`
/// while it lasts. A runbook must not stop at a screen the person may put off, so idflow skips it and says what it
/// skipped and until when; `--enroll-now` enrolls instead. Once the grace is over Okta offers no `skip`, and the
/// enrollment is asked for as any other.
extension IDX.Walk {
    /// Takes `skip` where a grace-period enrollment offers it, unless `--enroll-now` or another remediation was asked for.
    mutating func skipGracePeriodEnrollment(_ document: IDX.Document) {
        guard !login.enrollNow, wanted == nil, document.form(named: "skip") != nil else { return }
        let graces = document.gracePeriodEnrollments
        guard !graces.isEmpty else { return }
        let what = graces.map { "\($0.name) (\($0.grace.untilWhen))" }.joined(separator: ", ")
        context.notice("idx: skipped enrolling \(what) for now; --enroll-now enrolls")
        wanted = "skip"
    }
}

extension IDX {
    /// How long an enrollment may still be put off: until a date, or for a number of skips.
    public struct GracePeriod: Sendable, Equatable {
        /// `expiry` (an ISO 8601 date), for `BY_DATE_TIME` and for the bare `{"expiry"}` the recordings also show.
        public var expiry: String?
        /// `remainingSkips`, for `BY_SKIP_COUNT`.
        public var remainingSkips: Int?

        init?(json: JSONValue?) {
            guard let json, json["expiry"] != nil || json["remainingSkips"] != nil else { return nil }
            expiry = json["expiry"]?.stringValue
            remainingSkips = json["remainingSkips"]?.intValue
        }

        /// "until 2022-12-16T05:00:00.000Z", or "2 more skips".
        public var untilWhen: String {
            if let expiry { return "until \(expiry)" }
            if let remainingSkips { return "\(remainingSkips) more skip\(remainingSkips == 1 ? "" : "s")" }
            return "for now"
        }
    }
}

extension IDX.Document {
    /// The authenticators `select-authenticator-enroll` offers that carry a grace period, by their label.
    public var gracePeriodEnrollments: [(name: String, grace: IDX.GracePeriod)] {
        guard let form = remediations.first(where: { $0.name == "select-authenticator-enroll" }),
            let options = form.fields.first(where: { $0.name == "authenticator" })?.options
        else { return [] }
        let listed = resolve("$.authenticators.value")?.arrayValue ?? []
        return options.compactMap { option in
            let id = option.form?.first { $0.name == "id" }?.value?.stringValue
            let byID = listed.first { id != nil && ($0["authenticatorId"]?.stringValue == id || $0["id"]?.stringValue == id) }
            guard let authenticator = option.relatesTo.lazy.compactMap(resolve).first ?? byID,
                let grace = IDX.GracePeriod(json: authenticator["gracePeriod"])
            else { return nil }
            let name = option.label ?? authenticator["displayName"]?.stringValue ?? authenticator["key"]?.stringValue ?? "an authenticator"
            return (name, grace)
        }
    }
}
