import Foundation
import HTTPTypes
import Hummingbird

/// What the device grant's endpoints send: the device authorization response (RFC 8628 §3.2, keys in the
/// order of Okta's documented example) and the pages of `{org}/activate`.
enum DeviceAuthorizationWire {
    /// `POST {issuer}/v1/device/authorize` → 200, never cached (it carries the device code).
    static func authorization(_ record: DeviceAuthorizationRecord, orgURL: String, now: Date) -> Response {
        var response = Response.json([
            "device_code": .string(record.deviceCode),
            "user_code": .string(record.userCode),
            "verification_uri": .string(verificationURI(orgURL: orgURL)),
            "verification_uri_complete": .string(
                verificationURI(orgURL: orgURL) + "?" + FormParameters.encode([("user_code", record.userCode)])),
            "expires_in": .int(Int(record.expiresAt.timeIntervalSince(now).rounded())),
            "interval": .int(Int(record.interval)),
        ])
        response.headers[.cacheControl] = "no-store"
        response.headers[.pragma] = "no-cache"
        return response
    }

    /// Where the user goes: `{org}/activate`, for every authorization server (as at Okta).
    static func verificationURI(orgURL: String) -> String { orgURL + "/activate" }

    /// The page that asks for a code (`GET /activate` without one, or with one that cannot be used: 400).
    static func codeEntryPage(orgURL: String, error: String? = nil) -> Response {
        let message = error.map { #"<p class="error" role="alert">\#(AuthorizeWire.escape($0))</p>"# } ?? ""
        return .html(
            """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>Activate a device - idflow sandbox</title></head>
            <body>
            <h1>Activate a device</h1>
            \(message)
            <form method="get" action="\(AuthorizeWire.escape(verificationURI(orgURL: orgURL)))">
            <label>Code shown on the device <input type="text" name="user_code" autocomplete="off"></label>
            <button type="submit">Next</button>
            </form>
            </body></html>
            """, status: error == nil ? .ok : .badRequest)
    }

    /// The sign-in form of `/activate`, the same as `/authorize`'s; its `txn` is the user code. The first
    /// button approves.
    static func signInPage(orgURL: String, userCode: String, error: String? = nil, username: String = "") -> Response {
        AuthorizeWire.signInPage(
            action: verificationURI(orgURL: orgURL) + "/signin", txn: userCode, error: error, username: username,
            intro: "Sign in to let the device showing the code \(userCode) use your account.",
            choices: [(DeviceVerdict.approve.rawValue, "Sign in and allow"), (DeviceVerdict.deny.rawValue, "Deny")])
    }

    /// The page after the answer: `id="result"` holds `approved` or `denied` for scripts.
    static func resultPage(_ decision: DeviceDecision) -> Response {
        let approved = if case .approved = decision { true } else { false }
        let text =
            approved
            ? "Device activated. Return to your device; it will finish signing in."
            : "Sign-in denied. The device will not be signed in."
        return .html(
            """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>\(approved ? "Device activated" : "Sign-in denied") - idflow sandbox</title></head>
            <body>
            <h1 id="result">\(approved ? "approved" : "denied")</h1>
            <p>\(text)</p>
            </body></html>
            """)
    }
}
