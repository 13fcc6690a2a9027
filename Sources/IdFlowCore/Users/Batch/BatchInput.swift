import Foundation
import IdFlowFoundation

/// Where a batch reads its lines: a file, or all of standard input (`--batch -`).
public enum BatchSource: Sendable, Equatable {
    case file(String)
    case standardInput
    /// Lines given directly (tests, and callers that already hold the input).
    case data(Data)

    func read(_ context: IdFlowContext) throws(IdFlowError) -> Data {
        switch self {
        case .standardInput: return context.console.readStandardInput()
        case .data(let data): return data
        case .file(let path):
            guard let data = InputFile.read(path, environment: context.secrets.environment) else {
                throw .invalidInput(
                    "cannot read the batch file \(path): \(String(cString: strerror(errno)))", hint: "pass a readable file, or - for stdin")
            }
            return data
        }
    }

    /// The file's name, for telling its format by the extension.
    var fileName: String? {
        if case .file(let path) = self { return path }
        return nil
    }
}

/// One user to create, read from one line of a `register --batch` file.
public struct BatchUser: Sendable, Equatable {
    public var email: String
    public var firstName: String?
    public var lastName: String?
    public var login: String?
    /// Extra profile attributes (`attrs` in NDJSON, any other column in CSV), sent as given.
    public var attributes: [String: JSONValue]

    public init(
        email: String, firstName: String? = nil, lastName: String? = nil, login: String? = nil, attributes: [String: JSONValue] = [:]
    ) {
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.login = login
        self.attributes = attributes
    }
}

/// One input line: its 1-based line number in the file, and the user it names or why it names none.
public struct BatchLine: Sendable, Equatable {
    public var number: Int
    public var user: Result<BatchUser, IdFlowError>

    public init(number: Int, user: Result<BatchUser, IdFlowError>) {
        self.number = number
        self.user = user
    }
}

/// The two input formats of `register --batch`.
public enum BatchFormat: String, Sendable, CaseIterable {
    /// One JSON object a line: `{"email", "firstName"?, "lastName"?, "login"?, "attrs"?: {…}}`.
    case ndjson
    /// A header row naming the columns (`email`, `firstName`, `lastName`, `login`; any other column is a
    /// profile attribute), then one user a row; RFC 4180 quoting within a line.
    case csv

    /// The format a batch without `--format` is read in: by the file's extension (`.csv`; `.ndjson`, `.jsonl`,
    /// `.json`), else by its first non-blank line (a JSON object starts with `{`, anything else is a CSV header),
    /// so `--batch users.csv` and a CSV piped to `--batch -` need no flag.
    public static func detect(fileName: String?, data: Data) -> BatchFormat {
        switch fileName.map({ ($0 as NSString).pathExtension.lowercased() }) {
        case "csv": return .csv
        case "ndjson", "jsonl", "json": return .ndjson
        default: break
        }
        let firstLine = data.split(separator: 0x0A).first { !$0.allSatisfy { [0x20, 0x09, 0x0D].contains($0) } }
        let firstByte = firstLine?.first { ![0x20, 0x09, 0xEF, 0xBB, 0xBF].contains($0) }
        return firstByte == UInt8(ascii: "{") || firstByte == nil ? .ndjson : .csv
    }
}

/// Reads a batch file into lines. A malformed line becomes a line with an error, so it is reported for that
/// line and the rest still run; blank lines are skipped (they name no user), but keep the numbering.
public enum BatchInput {
    /// The keys an input line may use for the user itself; in CSV every other column is an attribute.
    static let userKeys: Set<String> = ["email", "firstName", "lastName", "login"]

    public static func parse(_ data: Data, format: BatchFormat) throws(IdFlowError) -> [BatchLine] {
        guard String(data: data, encoding: .utf8) != nil else {
            throw .invalidInput("the batch input is not UTF-8 text", hint: "save the file as UTF-8")
        }
        // Split on the bytes: as Characters, "\r\n" is one grapheme and would not split on "\n".
        let rows = data.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated().map { index, row in
            (number: index + 1, text: String(decoding: row.last == 0x0D ? row.dropLast() : row, as: UTF8.self))
        }
        switch format {
        case .ndjson:
            return rows.filter { !isBlank($0.text) }.map { BatchLine(number: $0.number, user: ndjsonUser($0.text)) }
        case .csv:
            guard let header = rows.first(where: { !isBlank($0.text) }) else { return [] }
            let columns: [String]
            switch csvFields(header.text) {
            case .success(let fields): columns = fields.map { $0.trimmingCharacters(in: .whitespaces) }
            case .failure(let error):
                throw .invalidInput("the CSV header (line \(header.number)) is malformed: \(error.message)", hint: csvHint)
            }
            guard columns.contains("email") else {
                throw .invalidInput("the CSV header (line \(header.number)) has no email column", hint: csvHint)
            }
            if let repeated = Dictionary(grouping: columns, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
                throw .invalidInput("the CSV header names the column \(repeated) twice", hint: csvHint)
            }
            return rows.filter { $0.number > header.number && !isBlank($0.text) }.map { row in
                BatchLine(number: row.number, user: csvUser(row.text, columns: columns))
            }
        }
    }

    static let csvHint = "the first row names the columns, e.g. email,firstName,lastName,login"
    static let ndjsonHint = #"one JSON object a line, e.g. {"email":"jo@example.com","firstName":"Jo"}"#

    private static func isBlank(_ text: String) -> Bool { text.allSatisfy(\.isWhitespace) }

    static func ndjsonUser(_ text: String) -> Result<BatchUser, IdFlowError> {
        guard let value = try? JSONValue(data: Data(text.utf8)), case .object(let members) = value else {
            return .failure(.invalidInput("not a JSON object", hint: ndjsonHint))
        }
        var fields: [String: String] = [:]
        for key in userKeys {
            switch members[key] {
            case nil, .null?: continue
            case .string(let text)?: fields[key] = text
            default: return .failure(.invalidInput("\(key) is not a string", hint: ndjsonHint))
            }
        }
        var attributes: [String: JSONValue] = [:]
        switch members["attrs"] {
        case nil, .null?: break
        case .object(let attrs)?: attributes = attrs
        default: return .failure(.invalidInput("attrs is not an object", hint: ndjsonHint))
        }
        if let unknown = members.keys.filter({ !userKeys.contains($0) && $0 != "attrs" }).sorted().first {
            return .failure(.invalidInput("unknown key \(unknown)", hint: "put extra profile attributes in attrs: {\"\(unknown)\": …}"))
        }
        return user(fields, attributes: attributes)
    }

    static func csvUser(_ text: String, columns: [String]) -> Result<BatchUser, IdFlowError> {
        let values: [String]
        switch csvFields(text) {
        case .success(let fields): values = fields
        case .failure(let error): return .failure(error)
        }
        guard values.count == columns.count else {
            return .failure(.invalidInput("\(values.count) fields where the header has \(columns.count)", hint: csvHint))
        }
        var fields: [String: String] = [:]
        var attributes: [String: JSONValue] = [:]
        // An empty cell means "not given", as an absent key does in NDJSON.
        for (column, value) in zip(columns, values) where !value.isEmpty {
            if userKeys.contains(column) { fields[column] = value } else { attributes[column] = .string(value) }
        }
        return user(fields, attributes: attributes)
    }

    private static func user(_ fields: [String: String], attributes: [String: JSONValue]) -> Result<BatchUser, IdFlowError> {
        guard let email = fields["email"] else { return .failure(.invalidInput("no email", hint: "every line needs an email")) }
        if let repeated = attributes.keys.filter(userKeys.contains).sorted().first {
            return .failure(.invalidInput("attrs.\(repeated) repeats a dedicated field", hint: "give \(repeated) at the top level"))
        }
        let user = BatchUser(
            email: email, firstName: fields["firstName"], lastName: fields["lastName"], login: fields["login"], attributes: attributes)
        do throws(IdFlowError) {
            try RegisterUser.checkEmail(email)
        } catch {
            return .failure(error)
        }
        return .success(user)
    }

    /// Splits one CSV record: commas separate fields, a field in double quotes may hold commas, and `""`
    /// inside quotes is one quote.
    static func csvFields(_ text: String) -> Result<[String], IdFlowError> {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var index = text.startIndex
        var fieldStart = true
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            if quoted {
                if character == "\"" {
                    if index < text.endIndex, text[index] == "\"" {
                        field.append("\"")
                        index = text.index(after: index)
                    } else {
                        quoted = false
                        if index < text.endIndex, text[index] != "," {
                            return .failure(.invalidInput("text after a closing quote", hint: csvHint))
                        }
                    }
                } else {
                    field.append(character)
                }
            } else if character == "," {
                fields.append(field)
                field = ""
                fieldStart = true
                continue
            } else if character == "\"", fieldStart {
                quoted = true
            } else {
                field.append(character)
            }
            fieldStart = false
        }
        guard !quoted else { return .failure(.invalidInput("a quoted field is not closed on its line", hint: csvHint)) }
        fields.append(field)
        return .success(fields)
    }
}
