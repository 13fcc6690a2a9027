import Foundation

/// Renders a user exactly as real orgs do: key order `id, status, created, activated, statusChanged,
/// lastLogin, lastUpdated, passwordChanged, type, profile, credentials, _links`, and `_links` chosen
/// by status (okta-core.md §A, "User object").
enum UserWire {
    /// The org's default user type and profile schema; per-org constants in a real org.
    static let userTypeID = "otyidflowsandbox0000"
    static let schemaID = "oscidflowsandbox0000"

    /// Where known attributes go in `profile`, as the recordings list them; others follow, sorted.
    static let profileOrder = ["firstName", "lastName", "mobilePhone", "displayName", "nickName", "secondEmail", "login", "email"]

    /// The full object (`GET`/`POST` on one user) or, with `collection`, the list form whose
    /// `_links` carries only `self`.
    ///
    /// `style` picks the org era: Classic orgs (2020 recording) offer no `resetFactors` on a STAGED user.
    static func render(
        _ user: UserRecord, orgURL: String, style: ActivationURLStyle, collection: Bool = false
    ) -> OrderedJSON {
        [
            "id": .string(user.id),
            "status": .string(user.status.rawValue),
            "created": .string(Timestamps.iso8601(user.created)),
            "activated": OrderedJSON(user.activated.map(Timestamps.iso8601)),
            "statusChanged": OrderedJSON(user.statusChanged.map(Timestamps.iso8601)),
            "lastLogin": OrderedJSON(user.lastLogin.map(Timestamps.iso8601)),
            "lastUpdated": .string(Timestamps.iso8601(user.lastUpdated)),
            "passwordChanged": OrderedJSON(user.passwordChanged.map(Timestamps.iso8601)),
            "type": ["id": .string(userTypeID)],
            "profile": .object(profile(user)),
            "credentials": credentials(user),
            "_links": collection
                ? ["self": ["href": .string("\(orgURL)/api/v1/users/\(user.id)")]]
                : links(user, orgURL: orgURL, style: style),
        ]
    }

    static func profile(_ user: UserRecord) -> JSONObject {
        var object = JSONObject()
        for key in profileOrder { if let value = user.profile[key] { object[key] = value } }
        for key in user.profile.keys.sorted() where object[key] == nil { object[key] = user.profile[key] }
        return object
    }

    private static func credentials(_ user: UserRecord) -> OrderedJSON {
        var object = JSONObject()
        if user.password != nil { object["password"] = [:] }
        object["emails"] = [["value": .string(user.email), "status": "VERIFIED", "type": "PRIMARY"]]
        object["provider"] = ["type": "OKTA", "name": "OKTA"]
        return .object(object)
    }

    /// The relations a real org offers for each status, in the recorded order.
    private static func links(_ user: UserRecord, orgURL: String, style: ActivationURLStyle) -> OrderedJSON {
        let base = "\(orgURL)/api/v1/users/\(user.id)"
        func action(_ path: String) -> OrderedJSON { ["href": .string("\(base)/\(path)"), "method": "POST"] }
        let schema: OrderedJSON = ["href": .string("\(orgURL)/api/v1/meta/schemas/user/\(schemaID)")]
        let selfLink: OrderedJSON = ["href": .string(base)]
        let type: OrderedJSON = ["href": .string("\(orgURL)/api/v1/meta/types/user/\(userTypeID)")]
        let resetFactors = action("lifecycle/reset_factors")
        let deactivate = action("lifecycle/deactivate")
        let pairs: [(String, OrderedJSON)]
        switch user.status {
        case .staged, .deprovisioned:
            pairs =
                [("schema", schema), ("activate", action("lifecycle/activate")), ("self", selfLink)]
                + (style == .identityEngine ? [("resetFactors", resetFactors)] : []) + [("type", type)]
        case .active, .passwordExpired:
            // PASSWORD_EXPIRED offers the same eleven as ACTIVE (`user-expire-password-oie.json`).
            pairs = [
                ("suspend", action("lifecycle/suspend")), ("schema", schema),
                ("resetPassword", action("lifecycle/reset_password")),
                ("forgotPassword", action("credentials/forgot_password")),
                ("expirePassword", action("lifecycle/expire_password")),
                ("changeRecoveryQuestion", action("credentials/change_recovery_question")),
                ("self", selfLink), ("resetFactors", resetFactors), ("type", type),
                ("changePassword", action("credentials/change_password")), ("deactivate", deactivate),
            ]
        case .suspended:
            pairs = [
                ("schema", schema), ("unsuspend", action("lifecycle/unsuspend")), ("self", selfLink),
                ("resetFactors", resetFactors), ("type", type), ("deactivate", deactivate),
            ]
        case .provisioned, .recovery:
            pairs = [
                ("schema", schema), ("resetPassword", action("lifecycle/reset_password")),
                ("reactivate", action("lifecycle/reactivate")), ("self", selfLink),
                ("resetFactors", resetFactors), ("type", type), ("deactivate", deactivate),
            ]
        case .lockedOut:
            // Not recorded as a single user (only as a list element): what the calls allowed on it offer.
            pairs = [
                ("schema", schema), ("unlock", action("lifecycle/unlock")),
                ("resetPassword", action("lifecycle/reset_password")),
                ("forgotPassword", action("credentials/forgot_password")), ("self", selfLink),
                ("resetFactors", resetFactors), ("type", type), ("deactivate", deactivate),
            ]
        }
        return .object(JSONObject(pairs))
    }
}
