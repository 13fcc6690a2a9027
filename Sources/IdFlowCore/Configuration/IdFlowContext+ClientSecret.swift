extension IdFlowContext {
    /// The client secret of a confidential client, one rule for every command that may send one:
    /// `--client-secret-file`, else `OKTA_OAUTH2_CLIENTSECRET` (the secret itself, beside
    /// `OKTA_OAUTH2_CLIENTID`), else the profile's `clientSecretFile`; nil for a public client.
    public func clientSecret(file: String?) throws(IdFlowError) -> Secret? {
        if let file { return try secrets.read("client secret", from: .file(file)) }
        guard let source = configuration.clientSecretSource else { return nil }
        return try secrets.read("client secret", from: source)
    }
}
