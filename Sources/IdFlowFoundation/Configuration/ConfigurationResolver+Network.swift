import Foundation

extension ConfigurationResolver {
    /// The environment variables of company networks: idflow's own, then the ones OpenSSL, curl, Go and Python
    /// read, so a machine already set up for those works unchanged.
    public enum NetworkVariable {
        public static let caFile = "IDFLOW_CA_FILE"
        public static let systemCAFile = "SSL_CERT_FILE"
        public static let caDirectory = "SSL_CERT_DIR"
        public static let clientCertificate = "IDFLOW_CLIENT_CERT"
        public static let clientKey = "IDFLOW_CLIENT_KEY"
        /// Read in this order; curl prefers the lower-case spelling, and so does idflow.
        public static let proxy = ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
        public static let noProxy = ["no_proxy", "NO_PROXY"]
    }

    /// CA bundle, client certificate and proxy: flag > environment > profile > `okta.yaml` (the proxy only).
    /// Every file named is checked now, so a typo fails before the first request with the setting's name.
    func transportOptions(
        _ chosen: SettingChoices, _ flags: ConfigurationFlags, profile entry: ProfileEntry?, okta: OktaYAMLFile.Okta.Client?
    ) throws(IdFlowError) -> CurlTransport.Options {
        var options = CurlTransport.Options()
        if let choice = chosen[.caFile] {
            options.caFile = try certificateBundle(expand(choice.text), setting: choice.source.settingName)
        }
        if let path = env(NetworkVariable.systemCAFile) {
            options.systemCAFile = try certificateBundle(path, setting: NetworkVariable.systemCAFile)
        }
        options.caDirectory = env(NetworkVariable.caDirectory).map(expand)
        if let choice = chosen[.clientCert] {
            options.clientCertificate = try readable(expand(choice.text), setting: choice.source.settingName)
        }
        if let choice = chosen[.clientKey] {
            let (path, setting) = (expand(choice.text), choice.source.settingName)
            guard options.clientCertificate != nil else {
                throw .configuration(
                    "\(setting) needs a client certificate", hint: "give the certificate the key belongs to with --client-cert PATH")
            }
            options.clientKey = try readable(path, setting: setting)
            try PrivateKeyPermissions.check(path, setting: setting)
        } else if let certificate = options.clientCertificate {
            // A certificate file that holds its own key is held to the same rule as a key file.
            guard String(decoding: InputFile.read(exactly: certificate) ?? Data(), as: UTF8.self).contains("PRIVATE KEY-----")
            else {
                throw .configuration(
                    "the client certificate \(certificate) holds no private key",
                    hint: "give its key with --client-key PATH (env IDFLOW_CLIENT_KEY, profile key clientKey)")
            }
            try PrivateKeyPermissions.check(certificate, setting: "--client-cert")
        }
        try resolveProxy(flags, profile: entry, okta: okta, into: &options)
        return options
    }

    private func resolveProxy(
        _ flags: ConfigurationFlags, profile entry: ProfileEntry?, okta: OktaYAMLFile.Okta.Client?,
        into options: inout CurlTransport.Options
    ) throws(IdFlowError) {
        options.noProxy = NetworkVariable.noProxy.lazy.compactMap { self.env($0) }.first
        guard let choice = proxyChoice(flags, profile: entry, okta: okta) else { return }
        switch choice.source {
        case .flag:
            // `--proxy ""` means none, whatever the environment says.
            options.proxy = choice.text.isEmpty ? nil : try Self.proxyURL(choice.text, setting: "--proxy")
        case .environment(let name):
            options.proxy = try Self.proxyURL(choice.text, setting: name)
        case .profile:
            options.proxy = try Self.proxyURL(choice.text, setting: "profile key proxy")
        case .oktaYAML:
            options.proxy = try Self.proxyURL(choice.text, setting: "okta.client.proxy in \(oktaYAMLURL.path)")
            if let username = okta?.proxy?.username, !username.isEmpty {
                options.proxyCredentials = .init(username: username, password: okta?.proxy?.password ?? "")
            }
        }
    }

    /// The proxy as given: `--proxy` (the empty string: none) > `https_proxy`… > the profile > `okta.yaml`'s host and port.
    func proxyChoice(_ flags: ConfigurationFlags, profile entry: ProfileEntry?, okta: OktaYAMLFile.Okta.Client?) -> SettingChoice? {
        if let proxy = flags.proxy { return SettingChoice(text: proxy, source: .flag("--proxy")) }
        if let (name, value) = NetworkVariable.proxy.lazy.compactMap({ name in self.env(name).map { (name, $0) } }).first {
            return SettingChoice(text: value, source: .environment(name))
        }
        if let proxy = entry?.proxy, !proxy.isEmpty { return SettingChoice(text: proxy, source: .profile(key: "proxy")) }
        if let proxy = okta?.proxy, let host = proxy.host, !host.isEmpty {
            return SettingChoice(text: proxy.port.map { "\(host):\($0.value)" } ?? host, source: .oktaYAML(key: "okta.client.proxy"))
        }
        return nil
    }

    /// A proxy as curl accepts it: `host:port` means `http://host:port`; the schemes libcurl speaks to a proxy.
    static func proxyURL(_ text: String, setting: String) throws(IdFlowError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let candidate = trimmed.contains("://") ? trimmed : "http://" + trimmed
        guard let components = URLComponents(string: candidate), let scheme = components.scheme?.lowercased(),
            ["http", "https", "socks4", "socks4a", "socks5", "socks5h"].contains(scheme), let host = components.host, !host.isEmpty
        else {
            throw .invalidInput(
                "the proxy \(Redactor.userInfo(trimmed)) given by \(setting) is not a proxy URL",
                hint: "for example http://proxy.example.com:3128 (credentials as http://USER:PASSWORD@HOST:PORT)")
        }
        return candidate
    }

    /// A path as given, with `~` expanded.
    func expand(_ path: String) -> String { HomeDirectory.expand(path, environment: environment) }

    private func readable(_ path: String, setting: String) throws(IdFlowError) -> String {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .configuration(
                "cannot read \(SettingPath.shown(path, path: path, setting: setting)), given by \(setting)",
                hint: "check the path and its permissions")
        }
        return path
    }

    /// A PEM file with at least one certificate in it.
    private func certificateBundle(_ path: String, setting: String) throws(IdFlowError) -> String {
        _ = try readable(path, setting: setting)
        // Searched as bytes: a system bundle (SSL_CERT_FILE) is some 200 KB, read by every command that runs.
        let bundle = InputFile.read(exactly: path) ?? Data()
        guard bundle.range(of: Data("-----BEGIN CERTIFICATE-----".utf8)) != nil else {
            throw .configuration(
                "\(path), given by \(setting), holds no PEM certificate", hint: "give a PEM bundle (-----BEGIN CERTIFICATE----- blocks)")
        }
        return path
    }
}
