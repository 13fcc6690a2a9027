import Foundation
import IdFlowFoundation

/// JSON bodies and answer paths as `jq` text.
///
/// A body that carries a secret is rebuilt by `jq -n` with the secret read from `$ENV`: jq escapes it as JSON
/// (a password may hold quotes or backslashes) and the value never becomes a program's argument. Every other
/// value is written as a JSON literal, which is also a jq literal: server text never becomes jq or shell code.
enum JQProgram {
    static func expression(
        _ value: JSONValue, url: String, bindings: inout ReplayBindings, usesVariable: inout Bool, secretContext: Bool,
        key: String = "value"
    ) -> String {
        switch value {
        case .object(let members):
            // An Identity Engine form field names its secret: `{"name": "passcode", "value": …}`.
            let namedSecret = members["name"]?.stringValue.map { ReplayBindings.isSecret(key: $0, url: url) } ?? false
            let fields = members.keys.sorted().map { member -> String in
                let secret = ReplayBindings.isSecret(key: member, url: url) || (namedSecret && member == "value")
                let memberKey = member == "value" && namedSecret ? (members["name"]?.stringValue ?? member) : member
                let inner = expression(
                    members[member] ?? .null, url: url, bindings: &bindings, usesVariable: &usesVariable, secretContext: secret,
                    key: memberKey)
                return stringLiteral(member) + ":" + inner
            }
            return "{" + fields.joined(separator: ",") + "}"
        case .array(let items):
            return "["
                + items.map {
                    expression($0, url: url, bindings: &bindings, usesVariable: &usesVariable, secretContext: secretContext, key: key)
                }.joined(separator: ",") + "]"
        case .string(let text):
            var name = bindings.existing(text)
            if name == nil, secretContext, !text.isEmpty { name = bindings.bind(text, key: key, url: url) }
            guard let name else { return stringLiteral(text) }
            usesVariable = true
            return "$ENV.\(name)"
        case .number where secretContext:
            let name = bindings.bind(literal(value), key: key, url: url)
            usesVariable = true
            return "($ENV.\(name)|tonumber)"
        default:
            return literal(value)
        }
    }

    /// A JSON string literal, valid jq too (JSON's escapes are jq's, and `\(` cannot appear: a backslash is `\\`).
    static func stringLiteral(_ text: String) -> String {
        literal(.string(text))
    }

    static func literal(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// A jq path to a member: `.stateToken`, `._embedded.user.id`, `.remediation.value[0]`, `.["odd key"]`.
    static func path(_ components: [PathComponent]) -> String {
        let text = components.map { component -> String in
            switch component {
            case .key(let key):
                let plain =
                    key.first.map { $0.isLetter || $0 == "_" } == true
                    && key.allSatisfy { ($0.isLetter || $0.isNumber || $0 == "_") && $0.isASCII }
                return plain ? "." + key : ".[" + stringLiteral(key) + "]"
            case .index(let index): return "[\(index)]"
            }
        }.joined()
        return text.hasPrefix(".") ? text : "." + text
    }

    enum PathComponent: Equatable {
        case key(String)
        case index(Int)
    }
}
