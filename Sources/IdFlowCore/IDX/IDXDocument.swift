import Foundation
import IdFlowFoundation

/// The Okta Identity Engine's interaction code flow (idx.md): the documents it answers with, and the one
/// generic remediation loop that walks them.
public enum IDX {
    /// The content type of every IDX answer, and the one a remediation is sent with when its form names none.
    public static let ionJSON = "application/ion+json; okta-version=1.0.0"

    /// One IDX response document (idx.md §5): what the user can do next, what the server said, and the
    /// success form once the sign-in is done. Unknown keys are kept in `raw` for `relatesTo` (§5.3).
    public struct Document: Sendable, Equatable {
        public var version: String?
        public var stateHandle: String?
        public var expiresAt: String?
        public var intent: String?
        /// In the server's order of preference; unknown names are kept.
        public var remediations: [Remediation]
        /// Top-level messages (errors, info).
        public var messages: [Message]
        public var cancel: Remediation?
        /// The form named `issue` that carries the interaction code; present only when the sign-in succeeded.
        public var successWithInteractionCode: Remediation?
        public var raw: JSONValue

        public init(json: JSONValue) throws(IdFlowError) {
            guard case .object = json else { throw .protocolViolation("an IDX response is not a JSON object") }
            raw = json
            version = json["version"]?.stringValue
            stateHandle = json["stateHandle"]?.stringValue
            expiresAt = json["expiresAt"]?.stringValue
            intent = json["intent"]?.stringValue
            remediations = try (json["remediation"]?["value"]?.arrayValue ?? []).map { (form) throws(IdFlowError) in
                try Remediation(json: form)
            }
            messages = Message.list(json["messages"])
            cancel = try json["cancel"].map { (form) throws(IdFlowError) in try Remediation(json: form) }
            successWithInteractionCode = try json["successWithInteractionCode"].map { (form) throws(IdFlowError) in
                try Remediation(json: form)
            }
        }

        public init(data: Data) throws(IdFlowError) {
            let json: JSONValue
            do { json = try JSONValue(data: data) } catch { throw .protocolViolation("an IDX response is not JSON") }
            try self.init(json: json)
        }

        /// The value a `relatesTo` path names, resolved literally (idx.md §5.3): `$.key`, `$.key.value`,
        /// `$.key.value[n]`; nil for anything else.
        public func resolve(_ path: String) -> JSONValue? {
            guard path.hasPrefix("$.") else { return nil }
            var current: JSONValue? = raw
            for segment in path.dropFirst(2).split(separator: ".") {
                var name = Substring(segment)
                var index: Int?
                if let open = name.firstIndex(of: "["), name.hasSuffix("]") {
                    index = Int(name[name.index(after: open)..<name.index(before: name.endIndex)])
                    name = name[..<open]
                }
                current = current?[String(name)]
                if let index {
                    guard let array = current?.arrayValue, array.indices.contains(index) else { return nil }
                    current = array[index]
                }
            }
            // `$.currentAuthenticator` names the wrapper `{type, value}`; its authenticator is the value.
            if let inner = current?["value"], current?["type"]?.stringValue == "object" { return inner }
            return current
        }

        /// Every ERROR message of the document: top level first, then the fields' own.
        public var errors: [Message] {
            messages.filter(\.isError) + remediations.flatMap { $0.fields.flatMap(\.allMessages) }.filter(\.isError)
        }
    }

    /// A form (idx.md §5.1): a remediation, an authenticator capability (`send`, `resend`, `poll`,
    /// `recover`), `cancel`, or the success form `issue`.
    public struct Remediation: Sendable, Equatable {
        public var name: String
        public var href: URL
        public var method: String
        /// The content type to send it with (§4).
        public var accepts: String
        public var fields: [Field]
        public var relatesTo: [String]
        /// Milliseconds to wait before polling (§8).
        public var refresh: Int?
        /// The identity provider a `redirect-idp` form sends the person to (§7).
        public var identityProvider: String?

        public init(json: JSONValue) throws(IdFlowError) {
            guard let name = json["name"]?.stringValue else { throw .protocolViolation("an IDX form has no name") }
            guard let href = json["href"]?.stringValue.flatMap(URL.init(string:)), href.scheme != nil else {
                throw .protocolViolation("the IDX form \(name) has no absolute href")
            }
            self.name = name
            self.href = href
            method = json["method"]?.stringValue ?? "POST"
            accepts = json["accepts"]?.stringValue ?? IDX.ionJSON
            fields = (json["value"]?.arrayValue ?? []).map(Field.init(json:))
            relatesTo = Self.strings(json["relatesTo"])
            refresh = json["refresh"]?.intValue
            identityProvider = json["idp"]?["name"]?.stringValue ?? json["type"]?.stringValue
        }

        static func strings(_ value: JSONValue?) -> [String] {
            if let single = value?.stringValue { return [single] }
            return (value?.arrayValue ?? []).compactMap(\.stringValue)
        }
    }

    /// One field of a form (idx.md §5.2) with Swift's defaults: visible, mutable, optional, not secret.
    public struct Field: Sendable, Equatable {
        public var name: String?
        public var label: String?
        public var type: String?
        public var value: JSONValue?
        public var required: Bool
        public var secret: Bool
        public var visible: Bool
        public var mutable: Bool
        /// A nested form (`credentials`, `userProfile`), from `form.value`.
        public var form: [Field]?
        public var options: [Option]?
        public var relatesTo: [String]
        public var messages: [Message]

        public init(json: JSONValue) {
            name = json["name"]?.stringValue
            label = json["label"]?.stringValue
            type = json["type"]?.stringValue
            required = json["required"]?.boolValue ?? false
            secret = json["secret"]?.boolValue ?? false
            mutable = json["mutable"]?.boolValue ?? true
            let rawValue = json["value"]
            // A nested form sits in `form.value`, or (inside an option) in `value.form.value`.
            if let nested = json["form"]?["value"]?.arrayValue ?? rawValue?["form"]?["value"]?.arrayValue {
                form = nested.map(Field.init(json:))
                value = nil
            } else {
                form = nil
                value = rawValue
            }
            let listed = json["options"]?.arrayValue
            // An enum profile attribute (idx.md §5.2) lists one option whose value holds the real choices.
            if let listed, listed.count == 1, listed[0]["value"]?["value"]?["inputType"] != nil,
                let choices = listed[0]["value"]?["value"]?["options"]?.arrayValue
            {
                options = choices.map(Option.init(json:))
            } else {
                options = listed?.map(Option.init(json:))
            }
            relatesTo = Remediation.strings(json["relatesTo"])
            messages = Message.list(json["messages"])
            // Swift's rule: an immutable field that carries a value is hidden even without `visible:false`.
            visible = json["visible"]?.boolValue ?? !(mutable == false && rawValue != nil)
        }

        /// Whether a person fills it in (rather than it being copied through as given).
        public var isInput: Bool { visible && mutable && name != nil }

        /// Its own messages, its nested form's, and those inside its options' forms (the security question's answer
        /// too short sits in an option, `error-security-question-enroll-answer-too-short.json`).
        var allMessages: [Message] {
            messages + (form ?? []).flatMap(\.allMessages) + (options ?? []).flatMap { ($0.form ?? []).flatMap(\.allMessages) }
        }
    }

    /// One choice of a field with options: a scalar value, or a nested form of pre-filled fields to copy
    /// through (`{"authenticator":{"id","methodType"}}`).
    public struct Option: Sendable, Equatable {
        public var label: String?
        public var value: JSONValue?
        public var form: [Field]?
        public var relatesTo: [String]

        public init(json: JSONValue) {
            label = json["label"]?.stringValue
            if let nested = json["value"]?["form"]?["value"]?.arrayValue {
                form = nested.map(Field.init(json:))
                value = nil
            } else {
                form = nil
                value = json["value"]
            }
            relatesTo = Remediation.strings(json["relatesTo"])
        }
    }

    /// A message (idx.md §5.4): `class` ERROR, INFO or WARNING, the text, and its i18n key.
    public struct Message: Sendable, Equatable, Encodable {
        public var severity: String
        public var message: String
        public var key: String?

        init?(json: JSONValue) {
            guard let message = json["message"]?.stringValue else { return nil }
            self.message = message
            severity = json["class"]?.stringValue ?? "INFO"
            key = json["i18n"]?["key"]?.stringValue
        }

        static func list(_ value: JSONValue?) -> [Message] {
            (value?["value"]?.arrayValue ?? []).compactMap(Message.init(json:))
        }

        public var isError: Bool { severity == "ERROR" }

        enum CodingKeys: String, CodingKey {
            case severity = "class"
            case message
            case key = "i18nKey"
        }
    }
}
