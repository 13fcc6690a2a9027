import IdFlowFoundation

/// One challenge of a `WWW-Authenticate` header (RFC 9110 §11.6.1): its scheme and auth parameters, as a
/// protected resource sends them with a 401 or 403 (RFC 6750 §3: `error`, `error_description`, `scope`; RFC 9728
/// §5.1: `resource_metadata`).
public struct BearerChallenge: Sendable, Equatable {
    /// The scheme, lower-cased (`bearer`, `dpop`).
    public var scheme: String
    /// The parameters by lower-cased name; a repeated one keeps its first value.
    public var parameters: [String: String]

    public var error: String? { parameters["error"] }
    public var errorDescription: String? { parameters["error_description"] }
    /// The scope the resource asks for (RFC 6750 §3), space-separated.
    public var scope: String? { parameters["scope"] }
    /// Where the resource's RFC 9728 metadata is.
    public var resourceMetadata: String? { parameters["resource_metadata"] }

    /// The Bearer challenge of a header, nil when it has none. A header may hold several challenges
    /// (`DPoP algs="ES256", Bearer realm="api"`); only Bearer's parameters are read, since idflow presents Bearer tokens.
    public static func bearer(in header: String?) -> BearerChallenge? {
        guard let header else { return nil }
        return parse(header).first { $0.scheme == "bearer" }
    }

    /// Every challenge in `header`, in order. Parameters are `name=token` or `name="quoted string"` (with `\`
    /// escapes); a `token68` value and anything malformed are skipped rather than fail, since a hint is all
    /// idflow takes from them.
    public static func parse(_ header: String) -> [BearerChallenge] {
        var challenges: [BearerChallenge] = []
        let characters = Array(header)
        var index = 0

        func skip(_ set: Set<Character>) {
            while index < characters.count, set.contains(characters[index]) { index += 1 }
        }
        func token() -> String {
            let start = index
            while index < characters.count, !" \t,=\"".contains(characters[index]) { index += 1 }
            return String(characters[start..<index])
        }
        func quoted() -> String {
            var value = ""
            index += 1  // the opening quote
            while index < characters.count, characters[index] != "\"" {
                if characters[index] == "\\", index + 1 < characters.count { index += 1 }
                value.append(characters[index])
                index += 1
            }
            index += 1  // the closing quote
            return value
        }

        while index < characters.count {
            skip([" ", "\t", ","])
            let word = token()
            guard !word.isEmpty else {
                index += 1
                continue
            }
            let afterWord = index
            skip([" ", "\t"])
            if index < characters.count, characters[index] == "=", !challenges.isEmpty {
                index += 1
                skip([" ", "\t"])
                let value: String
                if index < characters.count, characters[index] == "\"" {
                    value = quoted()
                } else {
                    value = token()
                    // A token68 ends in `=` padding; it is not a parameter.
                    skip(["="])
                }
                let name = word.lowercased()
                if challenges[challenges.count - 1].parameters[name] == nil {
                    challenges[challenges.count - 1].parameters[name] = value
                }
            } else {
                index = afterWord
                challenges.append(BearerChallenge(scheme: word.lowercased(), parameters: [:]))
            }
        }
        return challenges
    }
}
