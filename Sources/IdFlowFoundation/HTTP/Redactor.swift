import Foundation

/// Masks secrets in everything the `--verbose` trace prints, so a trace can be pasted into a ticket.
public enum Redactor {
    public static let mask = "<redacted>"

    /// JSON keys, form fields and query parameters whose values are secrets.
    public static let secretKeys: Set<String> = [
        "password", "newpassword", "oldpassword", "passcode", "answer", "sessiontoken", "statetoken", "activationtoken",
        "token", "access_token", "refresh_token", "id_token", "id_token_hint", "code", "code_verifier", "client_secret",
        "device_secret", "device_code", "interaction_code", "interaction_handle", "interactionhandle", "apitoken", "clientsecret",
        "activationurl",
        "resetpasswordurl", "assertion", "temppassword", "client_assertion", "recoverytoken", "statehandle", "pin",
        // Push authenticator: the signed challenge answer and the device attestation are single-use assertions.
        "challengeresponse", "clientinstancekeyattestation",
        "transaction_id",
        // Authenticator apps: the seed an enrollment shows (`sharedSecret`, and `secret=` in an otpauth:// URI) and
        // Okta Verify's code.
        "sharedsecret", "secret", "totp",
        // Direct Authentication (direct-auth.md §3): the one-time code, the SMS or voice code, and the two handles
        // that, with the client id, buy the tokens of a sign-in in progress.
        "otp", "binding_code", "oob_code", "mfa_token",
        // Token exchange (native-sso.md §1.3, §2.2): the tokens traded, and the interclient token in the /authorize
        // link that signs a browser in. (`device_secret` and the JWT bearer `assertion` are above.)
        "subject_token", "actor_token", "interclient_token",
    ]

    /// Keys that are secret only on some endpoints: a custom registration's `data` carries what the identity
    /// provider's script checks (an invite code, a one-time code), while `data` elsewhere is harmless.
    package static func secretKeys(forURL url: String?) -> Set<String> {
        guard let url, url.contains("/custom-registration/") else { return [] }
        return ["data"]
    }

    /// Headers whose values are credentials; the auth scheme word is kept so the trace still shows which one was used.
    package static let secretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie", "dpop"]

    public static func isSecret(key: String) -> Bool { secretKeys.contains(key.lowercased()) }

    public static func header(name: String, value: String) -> String {
        let lower = name.lowercased()
        if secretHeaders.contains(lower) {
            if let space = value.firstIndex(of: " "), lower.hasSuffix("authorization") {
                return "\(value[..<space]) \(mask)"
            }
            if lower == "authorization", value.hasPrefix("SSWS") { return "SSWS \(mask)" }
            return mask
        }
        if lower == "location" || lower == "content-location" { return url(value) }
        return value
    }

    /// Masks secret query parameters and the token segment of activation links (`/welcome/{t}`, `/tokens/{t}/verify`).
    /// Works on the text, not on URLComponents, so the mask can be shown as it is and odd URLs pass through.
    public static func url(_ text: String) -> String {
        var rest = Substring(text)
        var fragment: Substring?
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        var query: Substring?
        if let question = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        let segments = rest.split(separator: "/", omittingEmptySubsequences: false)
        var result = segments.enumerated().map { index, segment -> String in
            let previous = index > 0 ? segments[index - 1] : ""
            let isToken = (previous == "welcome" || previous == "tokens" || previous == "reset_password") && !segment.isEmpty && index >= 2
            return isToken ? mask : String(segment)
        }.joined(separator: "/")
        if let query { result += "?" + parameters(query) }
        if let fragment { result += "#" + parameters(fragment) }
        return result
    }

    /// Masks the secret values of `key=value&…`, leaving everything else byte for byte.
    private static func parameters(_ text: Substring) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let key = pair[..<equals].removingPercentEncoding ?? String(pair[..<equals])
            return isSecret(key: key) ? "\(pair[..<equals])=\(mask)" : String(pair)
        }.joined(separator: "&")
    }

    /// Masks the user info (`user:password@`) of a URL or of a proxy setting in the raw text, so it works on what
    /// does not parse as a URL too (`user:secret@host:3128` without a scheme, an unencoded `/` or `#` in a
    /// password): everything from the authority's start to the last `@` is masked, erring towards masking more.
    /// The one function every message, trace, script and doctor line that shows a proxy or URL setting goes through.
    public static func userInfo(_ text: String) -> String {
        guard let range = userInfoRange(in: text) else { return text }
        return text.replacingCharacters(in: range, with: mask)
    }

    /// Where `userInfo(_:)` finds the user info: from after `scheme://` (or the start) to before the last `@`.
    package static func userInfoRange(in text: String) -> Range<String.Index>? {
        guard let at = text.lastIndex(of: "@") else { return nil }
        var start = text.startIndex
        if let separator = text.range(of: "://"), separator.lowerBound < at {
            let scheme = text[..<separator.lowerBound]
            let isScheme =
                scheme.first?.isLetter == true
                && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
            if isScheme { start = separator.upperBound }
        }
        return start..<at
    }

    /// Masks a body according to its content type: JSON members, form fields. A body that is neither is shown
    /// only as its size: nothing says which of its bytes are secret (a proxy's page may echo the request).
    /// `url`, when given, adds the keys secret on that endpoint (`secretKeys(forURL:)`).
    public static func body(_ data: Data, contentType: String?, limit: Int = 4096, url: String? = nil) -> String {
        if data.isEmpty { return "" }
        let type = contentType?.lowercased() ?? ""
        if let document = try? JSONValue(data: data) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let masked = json(document, alsoSecret: secretKeys(forURL: url))
            if let encoded = try? encoder.encode(masked), let text = String(data: encoded, encoding: .utf8) {
                return truncate(text, limit)
            }
        }
        if type.contains("x-www-form-urlencoded"), let text = String(data: data, encoding: .utf8) {
            return truncate(form(text), limit)
        }
        return "<\(data.count) bytes\(type.isEmpty ? "" : " of \(type)")>"
    }

    public static func form(_ text: String) -> String {
        parameters(Substring(text))
    }

    /// Masks every member whose key is secret, at any depth; URL-looking strings get `url(_:)`. An Identity
    /// Engine form field (`{"name": "stateHandle", "value": …}`) whose name is secret has its value masked too.
    public static func json(_ value: JSONValue, alsoSecret extra: Set<String> = []) -> JSONValue {
        switch value {
        case .object(let members):
            var result: [String: JSONValue] = [:]
            // A form field the server itself marks secret (`"secret": true`) is masked whatever its name.
            let secretField =
                members["secret"]?.boolValue == true
                || (members["name"]?.stringValue.map { isSecret(key: $0) || extra.contains($0.lowercased()) } ?? false)
            for (key, member) in members {
                if isSecret(key: key) || extra.contains(key.lowercased()) || (secretField && key == "value"), member != .null {
                    result[key] = .string(mask)
                } else {
                    result[key] = json(member, alsoSecret: extra)
                }
            }
            return .object(result)
        case .array(let items):
            return .array(items.map { json($0, alsoSecret: extra) })
        case .string(let text) where text.hasPrefix("http://") || text.hasPrefix("https://"):
            return .string(url(text))
        case .string(let text) where text.hasPrefix("data:"):
            // An enrollment's QR code picture carries the seed; a trace shows only what kind of data it was.
            return .string("data:\(text.dropFirst(5).prefix { $0 != "," && $0 != ";" });\(mask)")
        case .string(let text) where text.lowercased().hasPrefix("otpauth:"):
            return .string(url(text))
        default:
            return value
        }
    }

    private static func truncate(_ text: String, _ limit: Int) -> String {
        text.utf8.count <= limit ? text : String(text.utf8.prefix(limit)).map { "\($0)… (\(text.utf8.count) bytes)" } ?? text
    }
}
