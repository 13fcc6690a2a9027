import Foundation

/// The query parameters of `GET /api/v1/users`: `limit`, `after`, `search`, `filter`, `q`.
struct UserListQuery: Sendable {
    static let defaultLimit = 200
    static let maximumLimit = 200

    var limit = defaultLimit
    var after: String?
    var search: UserFilterExpression?
    var filter: UserFilterExpression?
    var q: String?

    /// Parses the request's query; a `search`/`filter` the sandbox cannot read is E0000031.
    init(_ parameters: FormParameters) throws {
        if let raw = parameters["limit"] {
            guard let value = Int(raw), value > 0 else {
                throw OktaErrorResponse.validation("limit", causes: ["limit: must be a positive integer"])
            }
            limit = min(value, Self.maximumLimit)
        }
        after = parameters["after"].flatMap { $0.isEmpty ? nil : $0 }
        search = try parameters["search"].map(UserFilterExpression.init(parsing:))
        filter = try parameters["filter"].map(UserFilterExpression.init(parsing:))
        q = parameters["q"].flatMap { $0.isEmpty ? nil : $0.lowercased() }
    }

    func matches(_ user: UserRecord) -> Bool {
        // Like Okta, a plain listing leaves out DEPROVISIONED users; a search or filter can ask for them.
        if search == nil, filter == nil, user.status == .deprovisioned { return false }
        if let search, !search.matches(user) { return false }
        if let filter, !filter.matches(user) { return false }
        if let q {
            let fields = ["login", "email", "firstName", "lastName"].compactMap { user.profile[$0]?.stringValue }
            if !fields.contains(where: { $0.lowercased().hasPrefix(q) }) { return false }
        }
        return true
    }
}

/// A SCIM-like expression such as `profile.login eq "a@b.c" and status eq "STAGED"`.
///
/// Supports `eq`, `ne`, `sw` (starts with), `co` (contains), `pr` (present), `and`, `or` (`and`
/// binds tighter) and parentheses. Attributes: `id`, `status`, `created`, `lastUpdated`,
/// `profile.<name>`. String comparisons ignore case, as Okta's do for logins and e-mails.
indirect enum UserFilterExpression: Sendable {
    case comparison(attribute: String, op: String, value: String?)
    case and(UserFilterExpression, UserFilterExpression)
    case or(UserFilterExpression, UserFilterExpression)

    init(parsing text: String) throws {
        var parser = Parser(tokens: try Self.tokenize(text), text: text)
        self = try parser.parseOr()
        guard parser.atEnd else { throw parser.error("unexpected \"\(parser.peek ?? "")\"") }
    }

    func matches(_ user: UserRecord) -> Bool {
        switch self {
        case .and(let lhs, let rhs): return lhs.matches(user) && rhs.matches(user)
        case .or(let lhs, let rhs): return lhs.matches(user) || rhs.matches(user)
        case .comparison(let attribute, let op, let value):
            let actual = Self.value(of: attribute, in: user)?.lowercased()
            let expected = value?.lowercased() ?? ""
            switch op {
            case "pr": return actual != nil
            case "eq": return actual == expected
            case "ne": return actual != expected
            case "sw": return actual?.hasPrefix(expected) ?? false
            case "co": return actual?.contains(expected) ?? false
            default: return false
            }
        }
    }

    private static func value(of attribute: String, in user: UserRecord) -> String? {
        switch attribute {
        case "id": return user.id
        case "status": return user.status.rawValue
        case "created": return Timestamps.iso8601(user.created)
        case "lastUpdated": return Timestamps.iso8601(user.lastUpdated)
        default:
            guard attribute.hasPrefix("profile.") else { return nil }
            switch user.profile[String(attribute.dropFirst("profile.".count))] {
            case .string(let value): return value
            case .int(let value): return String(value)
            case .double(let value): return String(value)
            case .bool(let value): return String(value)
            default: return nil
            }
        }
    }

    private static let operators: Set<String> = ["eq", "ne", "sw", "co", "pr"]

    private enum Token: Equatable {
        case word(String)
        case quoted(String)
        case open, close
    }

    private static func tokenize(_ text: String) throws -> [Token] {
        var tokens: [Token] = []
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character.isWhitespace {
                index = text.index(after: index)
            } else if character == "(" || character == ")" {
                tokens.append(character == "(" ? .open : .close)
                index = text.index(after: index)
            } else if character == "\"" {
                var value = ""
                index = text.index(after: index)
                while index < text.endIndex, text[index] != "\"" {
                    if text[index] == "\\", text.index(after: index) < text.endIndex {
                        index = text.index(after: index)
                    }
                    value.append(text[index])
                    index = text.index(after: index)
                }
                guard index < text.endIndex else {
                    throw OktaErrorResponse.invalidSearch("Unterminated string in \(text)")
                }
                tokens.append(.quoted(value))
                index = text.index(after: index)
            } else {
                var word = ""
                while index < text.endIndex, !text[index].isWhitespace, !"()\"".contains(text[index]) {
                    word.append(text[index])
                    index = text.index(after: index)
                }
                tokens.append(.word(word))
            }
        }
        return tokens
    }

    private struct Parser {
        let tokens: [Token]
        let text: String
        var position = 0

        var atEnd: Bool { position == tokens.count }

        var peek: String? {
            guard position < tokens.count else { return nil }
            switch tokens[position] {
            case .word(let word): return word
            case .quoted(let value): return "\"\(value)\""
            case .open: return "("
            case .close: return ")"
            }
        }

        func error(_ detail: String) -> OktaErrorResponse {
            .invalidSearch("Cannot parse \"\(text)\": \(detail)")
        }

        mutating func keyword(_ word: String) -> Bool {
            guard position < tokens.count, tokens[position] == .word(word) || tokens[position] == .word(word.uppercased())
            else { return false }
            position += 1
            return true
        }

        mutating func parseOr() throws -> UserFilterExpression {
            var expression = try parseAnd()
            while keyword("or") { expression = .or(expression, try parseAnd()) }
            return expression
        }

        mutating func parseAnd() throws -> UserFilterExpression {
            var expression = try parseTerm()
            while keyword("and") { expression = .and(expression, try parseTerm()) }
            return expression
        }

        mutating func parseTerm() throws -> UserFilterExpression {
            guard position < tokens.count else { throw error("expression ends too early") }
            if tokens[position] == .open {
                position += 1
                let inner = try parseOr()
                guard position < tokens.count, tokens[position] == .close else { throw error("missing \")\"") }
                position += 1
                return inner
            }
            guard case .word(let attribute) = tokens[position] else { throw error("expected an attribute") }
            position += 1
            guard position < tokens.count, case .word(let rawOperator) = tokens[position],
                UserFilterExpression.operators.contains(rawOperator.lowercased())
            else { throw error("expected one of eq, ne, sw, co, pr after \(attribute)") }
            position += 1
            let op = rawOperator.lowercased()
            if op == "pr" { return .comparison(attribute: attribute, op: op, value: nil) }
            guard position < tokens.count else { throw error("missing value after \(op)") }
            switch tokens[position] {
            case .quoted(let value), .word(let value):
                position += 1
                return .comparison(attribute: attribute, op: op, value: value)
            default:
                throw error("missing value after \(op)")
            }
        }
    }
}
