import Foundation

/// The consent form and the grace period of an enrollment, in the widget recordings' shapes
/// (`consent-enduser.json`, `authenticator-enroll-grace-period*.json`).
extension IDXWire {
    /// `2022-12-16T05:00:00.000Z`: the recordings' expiry, with milliseconds.
    static func graceExpiry(_ date: Date) -> String { Timestamps.iso8601(date) }

    /// The authenticator object with its grace period last, as recorded.
    static func withGracePeriod(_ authenticator: OrderedJSON, _ gracePeriod: OrderedJSON?) -> OrderedJSON {
        guard let gracePeriod, case .object(var members) = authenticator else { return authenticator }
        members["gracePeriod"] = gracePeriod
        return .object(members)
    }

    /// What Okta shows for the scopes its recordings and the OIDC standard name; any other scope by its name.
    static func consentScope(_ name: String) -> OrderedJSON {
        let known: [String: (label: String, desc: String)] = [
            "email": ("View your email address.", "This allows the app to view your email address."),
            "phone": ("View your phone number.", "This allows the app to view your phone number."),
            "profile": ("View your profile information.", "This allows the app to view your profile information."),
            "address": ("View your home address.", "This allows the app to view your home address."),
            "offline_access": ("Keep you signed in to the app.", "This allows the app to keep you signed in to the app."),
        ]
        let shown = known[name] ?? (name, "This allows the app to use \(name).")
        return ["name": .string(name), "label": .string(shown.label), "value": .string(name), "desc": .string(shown.desc)]
    }

    /// The message of a refused consent (`terminal-enduser-email-consent-denied.json`).
    static let consentRefused = IDXMessage(text: "Operation cancelled by user.", key: "idx.operation.cancelled.by.user")

    /// The terminal document after a refused consent: the transaction ended, nothing to submit.
    static func consentRefusedDocument(_ transaction: IDXTransaction) -> OrderedJSON {
        [
            "stateHandle": .string(transaction.stateHandle), "version": "1.0.0",
            "expiresAt": .string(Timestamps.iso8601(transaction.expiresAt)), "intent": .string(transaction.intent),
            "messages": ["type": "array", "value": [message(consentRefused)]],
        ]
    }
}

extension IDXWire.DocumentBuilder {
    /// `consent` with the scopes asked for and a boolean `consent` ("Allow Access" / "Don't Allow").
    mutating func consentStep(_ scopes: [String]) {
        let consent: OrderedJSON = [
            "name": "consent", "type": "boolean", "required": true,
            "options": [["label": "Allow Access", "value": true], ["label": "Don't Allow", "value": false]],
        ]
        let stateHandleField: OrderedJSON = [
            "name": "stateHandle", "required": true, "value": .string(stateHandle), "visible": false, "mutable": false,
        ]
        forms.append(
            .object(
                JSONObject([
                    ("rel", ["create-form"]), ("name", "consent"), ("href", .string(href("consent"))), ("method", "POST"),
                    ("accepts", .string(IDXWire.contentType)), ("produces", .string(IDXWire.contentType)),
                    ("scopes", .array(scopes.map(IDXWire.consentScope))), ("value", [consent, stateHandleField]),
                ])))
    }
}
