import Foundation

/// A JSON document whose objects keep their keys in the order they were written.
///
/// Foundation's `JSONEncoder` on Linux emits keys in hash order, so the sandbox builds its responses
/// from this type instead: the recorded Okta responses have a stable key order (`id, status, created,
/// …`) and matching it keeps diffs between a real and a sandbox response readable.
///
/// The client's `JSONValue` is a different type on purpose: it is for decoding and passing
/// payloads through (keys sorted on output), this one for writing them in Okta's order, which its name
/// says; the sandbox never shares the client's types (DESIGN.md).
enum OrderedJSON: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([OrderedJSON])
    case object(JSONObject)

    /// A string, or `null` when there is none (the shape of Okta's nullable timestamps).
    init(_ string: String?) {
        self = string.map(OrderedJSON.string) ?? .null
    }

    /// The value of `key` when this is an object.
    subscript(key: String) -> OrderedJSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var arrayValue: [OrderedJSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The compact serialization, without escaped slashes (as Okta writes URLs).
    func serialized() -> String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value):
            if value.rounded() == value, abs(value) < 1e15 {
                output += String(Int(value))
            } else {
                output += String(value)
            }
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.write(to: &output)
            }
            output += "]"
        case .object(let object):
            output += "{"
            for (index, member) in object.members.enumerated() {
                if index > 0 { output += "," }
                Self.writeString(member.key, to: &output)
                output += ":"
                member.value.write(to: &output)
            }
            output += "}"
        }
    }

    private static func writeString(_ string: String, to output: inout String) {
        output += "\""
        // Most strings (ids, tokens, URLs) need no escaping: copy them whole rather than scalar by scalar.
        if !string.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }) {
            output += string
            output += "\""
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                output +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

/// A JSON object that remembers insertion order; assigning an existing key replaces it in place.
struct JSONObject: Sendable {
    private(set) var members: [(key: String, value: OrderedJSON)] = []

    init() {}

    init(_ members: [(String, OrderedJSON)]) {
        for (key, value) in members { self[key] = value }
    }

    var keys: [String] { members.map(\.key) }

    subscript(key: String) -> OrderedJSON? {
        get { members.first { $0.key == key }?.value }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    init(dictionaryLiteral elements: (String, OrderedJSON)...) {
        self.init(elements)
    }
}

extension OrderedJSON: ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral, ExpressibleByStringLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    init(dictionaryLiteral elements: (String, OrderedJSON)...) { self = .object(JSONObject(elements)) }
    init(arrayLiteral elements: OrderedJSON...) { self = .array(elements) }
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(nilLiteral: ()) { self = .null }
}

/// Decoding accepts any JSON; object keys arrive sorted because decoding loses the sender's order.
extension OrderedJSON: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([OrderedJSON].self) {
            self = .array(value)
        } else {
            let dictionary = try container.decode([String: OrderedJSON].self)
            self = .object(JSONObject(dictionary.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        }
    }
}

extension JSONObject {
    /// The object as an `OrderedJSON`.
    var asValue: OrderedJSON { .object(self) }
}
