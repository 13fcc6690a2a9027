/// `idflow sandbox --env`: the start-up information as `export NAME='value'` lines a runbook sources, instead
/// of five `jq -r` calls on the JSON line.
extension SandboxInfo {
    /// The variables idflow reads (docs/contract.md, "Configuration"), with this sandbox's values.
    /// `IDFLOW_CA_FILE` comes last, and only when there is a generated CA to trust (`--tls`).
    public var environment: [(name: String, value: String)] {
        var variables = [
            ("OKTA_CLIENT_ORGURL", orgUrl), ("OKTA_CLIENT_TOKEN", apiToken), ("OKTA_OAUTH2_ISSUER", issuer),
            ("OKTA_OAUTH2_CLIENTID", clientId), ("OKTA_OAUTH2_REDIRECTURI", redirectUri),
        ]
        if let caFile { variables.append(("IDFLOW_CA_FILE", caFile)) }
        return variables
    }

    /// One `export NAME='value'` line per variable, each value single-quoted for any POSIX shell (a `'` inside
    /// becomes `'\''`), so `--api-token` may hold anything and sourcing the lines runs nothing.
    public var shellExports: String {
        environment.map { "export \($0.name)=\(Self.shellQuoted($0.value))\n" }.joined()
    }

    static func shellQuoted(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
