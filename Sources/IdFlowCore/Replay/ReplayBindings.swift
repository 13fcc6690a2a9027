import Foundation
import IdFlowFoundation

/// Which secret value each variable of a `--curl` script stands for, so that a value is declared once and
/// named the same wherever it is sent again (a state token from one answer in the next three requests).
///
/// What counts as a secret is `Redactor`'s list (JSON keys, form fields, query parameters, headers): the
/// script and the `--verbose` trace hide the same values.
struct ReplayBindings {
    private(set) var variables: [ReplayVariable] = []
    private var byValue: [String: String] = [:]
    /// Variables declared since the caller last took them (a stream declares each just before its first use).
    private(set) var undeclared: [ReplayVariable] = []
    /// The values idflow itself made for the run (the PKCE code verifier), by variable name: nobody can export them
    /// from anywhere else, so `CurlScript` writes them out once the request that spends them has been answered.
    private(set) var madeByRun: [String: String] = [:]

    static func isSecret(key: String, url: String) -> Bool {
        Redactor.isSecret(key: key) || Redactor.secretKeys(forURL: url).contains(key.lowercased())
    }

    /// Whether the variable `name` is set from an answer: its value is the server's choice, not the person's.
    func isFromAnswer(_ name: String) -> Bool {
        variables.contains { variable in
            if case .answer = variable.source { variable.name == name } else { false }
        }
    }

    /// The variable already standing for `value`, if any.
    func existing(_ value: String) -> String? { byValue[value] }

    /// The variable for a value the run sends: the existing one, else a new one read from the environment.
    mutating func bind(_ value: String, key: String, url: String) -> String {
        if let name = byValue[value] { return name }
        let (base, origin) = Self.describe(key: key, url: url)
        let variable = ReplayVariable(name: unique(base), origin: origin, source: .environment)
        add(variable, value: value)
        if Self.isMadeByRun(key: key) { madeByRun[variable.name] = value }
        return variable.name
    }

    /// The variables that stand for no secret (the id of what a POST created): a URL naming only those is one
    /// argv word, not a `-K` config.
    private(set) var notSecret: Set<String> = []

    /// Binds a value first met in the answer to request `step`; nil when it already has a variable.
    mutating func bindAnswer(_ value: String, key: String, origin: String, extraction: String, step: Int, secret: Bool = true)
        -> ReplayVariable?
    {
        guard byValue[value] == nil, !value.isEmpty else { return nil }
        let variable = ReplayVariable(
            name: unique(ReplayVariable.name(forKey: key)), origin: origin, source: .answer(step: step, extraction: extraction))
        add(variable, value: value)
        if !secret { notSecret.insert(variable.name) }
        return variable
    }

    /// A secret idflow makes for each run rather than reads from somewhere: the PKCE code verifier (of a
    /// redirect's code exchange, and of the Identity Engine's interaction code).
    static func isMadeByRun(key: String) -> Bool { key.lowercased() == "code_verifier" }

    mutating func takeUndeclared() -> [ReplayVariable] {
        defer { undeclared = [] }
        return undeclared
    }

    /// `text` with every known secret of eight characters or more cut out as its variable (a body of a kind
    /// whose secret members cannot be told apart still never carries one).
    func replacingKnownSecrets(in text: String) -> [ShellWord.Segment] {
        var segments: [ShellWord.Segment] = [.literal(text)]
        for (value, name) in byValue.sorted(by: { $0.key.count > $1.key.count }) where value.count >= 8 {
            segments = segments.flatMap { segment -> [ShellWord.Segment] in
                guard case .literal(let literal) = segment, literal.contains(value) else { return [segment] }
                let parts = literal.components(separatedBy: value)
                return parts.enumerated().flatMap { index, part -> [ShellWord.Segment] in
                    index == 0 ? [ShellWord.Segment.literal(part)] : [.variable(name), .literal(part)]
                }
            }
        }
        return ShellWord.merge(segments)
    }

    private mutating func add(_ variable: ReplayVariable, value: String) {
        byValue[value] = variable.name
        variables.append(variable)
        if variable.source == .environment { undeclared.append(variable) }
    }

    private func unique(_ base: String) -> String {
        let taken = Set(variables.map(\.name))
        // Names the script itself uses, and ones the shell gives a meaning of its own.
        let reserved = Set("IDFLOW_OUT PATH HOME IFS PWD SECONDS RANDOM UID SHELL TERM".split(separator: " ").map(String.init))
        var name = base
        var number = 2
        while taken.contains(name) || reserved.contains(name) {
            name = "\(base)_\(number)"
            number += 1
        }
        return name
    }

    /// The variable name and origin for a secret sent under `key` (a header is `authorization:<scheme>`).
    static func describe(key: String, url: String) -> (String, String) {
        switch key.lowercased() {
        case "authorization:ssws": return ("OKTA_CLIENT_TOKEN", "the API token (env OKTA_CLIENT_TOKEN)")
        case "authorization:bearer", "authorization:dpop":
            return ("ACCESS_TOKEN", "the access token of the stored login (the profile in the state directory)")
        case "authorization:basic": return ("CLIENT_BASIC_CREDENTIALS", "base64 of client_id:client_secret")
        // Single-use by design: a replay needs a new one, which only the key's holder can sign.
        case "dpop":
            return (
                "DPOP_PROOF", "a DPoP proof for this one request (RFC 9449); servers refuse one seen before, so sign a fresh one to replay"
            )
        case "client_assertion":
            return (
                "CLIENT_ASSERTION",
                "a client assertion signed with the private key (private_key_jwt); single-use, so sign a fresh one to replay"
            )
        case let header where header.hasPrefix("authorization"): return ("AUTHORIZATION_CREDENTIALS", "the credential idflow sent")
        case "proxy:userinfo":
            return (
                "PROXY_USERINFO", "the user name and password of the proxy as its URL gives them, user:password (--proxy or HTTPS_PROXY)"
            )
        default: return (ReplayVariable.name(forKey: key), ReplayVariable.origin(forKey: key, url: url))
        }
    }
}
