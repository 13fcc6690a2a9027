extension IdFlowContext {
    /// The client secret of a confidential client, one rule for every command that may send one:
    /// `--client-secret-file`, else `IDFLOW_CLIENT_SECRET_FILE`, else `OKTA_OAUTH2_CLIENTSECRET` (the secret itself,
    /// Okta's SDK name), else the profile's `clientSecretFile`; nil for a public client.
    public func clientSecret(file: String?) throws(IdFlowError) -> Secret? {
        if let file { return try secrets.read("client secret", from: .file(file)) }
        guard let source = configuration.clientSecretSource else { return nil }
        return try secrets.read("client secret", from: source)
    }

    /// How the client of a stored login authenticates at the token, revocation and introspection endpoints: the
    /// secret the caller gave (`--client-secret-file`), else the configured one, so `refresh`, `api`, `token get` and
    /// `logout` all send it (RFC 6749 §6: a server may retire the refresh token of a confidential client that came
    /// without it). The configured secret belongs to the configured client: it is sent only for that client's login.
    public func clientSecret(for storedClientID: String, given: Secret?) throws(IdFlowError) -> Secret? {
        if let given { return given }
        if let configured = configuration.clientID, !configured.isEmpty, configured != storedClientID { return nil }
        return try clientSecret(file: nil)
    }
}
