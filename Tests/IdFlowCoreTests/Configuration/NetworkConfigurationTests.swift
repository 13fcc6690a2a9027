import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// Company-network settings: where the CA bundle, the client certificate and the proxy come from, and what
/// is refused before a request is made.
struct NetworkConfigurationTests {
    static let pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
    static let keyPEM = "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n"

    /// A home as `ConfigurationResolverTests` makes it, plus files written with the given modes.
    func home(profileYAML: String? = nil, oktaYAML: String? = nil, files: [String: (String, Int)] = [:]) throws -> URL {
        let home = try ConfigurationResolverTests().home(profileYAML: profileYAML, oktaYAML: oktaYAML)
        for (name, (text, mode)) in files {
            let url = home.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        }
        return home
    }

    func resolve(_ environment: [String: String], _ flags: ConfigurationFlags = ConfigurationFlags()) throws(IdFlowError) -> Configuration {
        try ConfigurationResolverTests().resolver(environment).resolve(flags)
    }

    @Test func theCAFileComesFromTheFlagThenTheEnvironmentThenTheProfileWithTildeAsHome() throws {
        let home = try home(
            profileYAML: "profiles:\n  default:\n    caFile: ~/profile.pem\n",
            files: ["profile.pem": (Self.pem, 0o644), "env.pem": (Self.pem, 0o644), "flag.pem": (Self.pem, 0o644)])
        let base = ["HOME": home.path]
        #expect(try resolve(base).transportOptions.caFile == home.path + "/profile.pem")
        let environment = base.merging(["IDFLOW_CA_FILE": home.path + "/env.pem"]) { $1 }
        #expect(try resolve(environment).transportOptions.caFile == home.path + "/env.pem")
        #expect(try resolve(environment, ConfigurationFlags([.caFile: "~/flag.pem"])).transportOptions.caFile == home.path + "/flag.pem")
    }

    @Test func sslCertFileReplacesTheSystemBundleAndSSLCertDirIsTheDirectory() throws {
        let home = try home(files: ["system.pem": (Self.pem, 0o644)])
        let options = try resolve(["HOME": home.path, "SSL_CERT_FILE": home.path + "/system.pem", "SSL_CERT_DIR": "/etc/ssl/certs"])
            .transportOptions
        #expect(options.systemCAFile == home.path + "/system.pem")
        #expect(options.caDirectory == "/etc/ssl/certs")
        #expect(options.caFile == nil)
    }

    @Test func aCAFileThatIsMissingOrHoldsNoCertificateIsAConfigurationErrorNamingTheSetting() throws {
        let home = try home(files: ["empty.pem": ("not a certificate\n", 0o644)])
        let missing = #expect(throws: IdFlowError.self) {
            try resolve(["HOME": home.path], ConfigurationFlags([.caFile: home.path + "/nope.pem"]))
        }
        #expect(missing?.exitStatus == .usage)
        #expect(missing?.message.contains("--ca-file") == true)
        let empty = #expect(throws: IdFlowError.self) { try resolve(["HOME": home.path, "IDFLOW_CA_FILE": home.path + "/empty.pem"]) }
        #expect(empty?.message.contains("holds no PEM certificate") == true)
        #expect(empty?.message.contains("IDFLOW_CA_FILE") == true)
    }

    @Test func aClientKeyOthersCanReadIsRefusedWithSshsWords() throws {
        let home = try home(files: ["client.pem": (Self.pem, 0o644), "open.key": (Self.keyPEM, 0o644), "closed.key": (Self.keyPEM, 0o600)])
        let refused = #expect(throws: IdFlowError.self) {
            try resolve(
                ["HOME": home.path], ConfigurationFlags([.clientCert: home.path + "/client.pem", .clientKey: home.path + "/open.key"]))
        }
        #expect(refused?.exitStatus == .security)
        #expect(
            refused?.message
                == "Permissions 0644 for '\(home.path)/open.key' are too open. It is required that your private key files are NOT accessible by others. This private key will be ignored."
        )
        #expect(refused?.hint == "chmod 600 \(home.path)/open.key")

        let accepted = try resolve(
            ["HOME": home.path, "IDFLOW_CLIENT_CERT": home.path + "/client.pem", "IDFLOW_CLIENT_KEY": home.path + "/closed.key"])
        #expect(accepted.transportOptions.clientCertificate == home.path + "/client.pem")
        #expect(accepted.transportOptions.clientKey == home.path + "/closed.key")
    }

    @Test func aCertificateWithoutAKeyNeedsOneAndAKeyAloneNeedsItsCertificate() throws {
        let home = try home(files: [
            "client.pem": (Self.pem, 0o644), "combined.pem": (Self.pem + Self.keyPEM, 0o640), "closed.key": (Self.keyPEM, 0o600),
        ])
        let noKey = #expect(throws: IdFlowError.self) {
            try resolve(["HOME": home.path], ConfigurationFlags([.clientCert: home.path + "/client.pem"]))
        }
        #expect(noKey?.message.contains("holds no private key") == true)
        let openCombined = #expect(throws: IdFlowError.self) {
            try resolve(["HOME": home.path], ConfigurationFlags([.clientCert: home.path + "/combined.pem"]))
        }
        #expect(openCombined?.exitStatus == .security, "a certificate file holding its key is checked as a key file")
        let keyAlone = #expect(throws: IdFlowError.self) {
            try resolve(["HOME": home.path], ConfigurationFlags([.clientKey: home.path + "/closed.key"]))
        }
        #expect(keyAlone?.message.contains("needs a client certificate") == true)
    }

    @Test func theProxyComesFromTheFlagThenTheEnvironmentThenTheProfileThenOktaYAML() throws {
        let home = try home(
            oktaYAML:
                "okta:\n  client:\n    proxy:\n      host: yaml-proxy.corp\n      port: 3128\n      username: alice\n      password: s3cret\n"
        )
        let base = ["HOME": home.path]
        let fromYAML = try resolve(base).transportOptions
        #expect(fromYAML.proxy == "http://yaml-proxy.corp:3128")
        #expect(fromYAML.proxyCredentials == .init(username: "alice", password: "s3cret"))
        #expect(!"\(fromYAML)".contains("s3cret"))

        let fromEnv = try resolve(base.merging(["HTTPS_PROXY": "env-proxy.corp:8080", "NO_PROXY": ".internal"]) { $1 }).transportOptions
        #expect(fromEnv.proxy == "http://env-proxy.corp:8080")
        #expect(fromEnv.proxyCredentials == nil)
        #expect(fromEnv.noProxy == ".internal")

        let lowerCaseFirst = try resolve(base.merging(["HTTPS_PROXY": "upper:1", "https_proxy": "http://lower:2"]) { $1 }).transportOptions
        #expect(lowerCaseFirst.proxy == "http://lower:2", "curl prefers https_proxy, and so does idflow")

        let fromFlag = try resolve(base.merging(["HTTPS_PROXY": "env-proxy.corp:8080"]) { $1 }, ConfigurationFlags(proxy: "http://flag:1"))
        #expect(fromFlag.transportOptions.proxy == "http://flag:1")
        let none = try resolve(base.merging(["HTTPS_PROXY": "env-proxy.corp:8080"]) { $1 }, ConfigurationFlags(proxy: ""))
        #expect(none.transportOptions.proxy == nil, "--proxy \"\" means no proxy whatever the environment says")
    }

    @Test func aProxyThatIsNoURLIsAUsageErrorThatHidesItsPassword() throws {
        let home = try home()
        let error = #expect(throws: IdFlowError.self) {
            try resolve(["HOME": home.path], ConfigurationFlags(proxy: "ftp://bob:hunter2@proxy.corp:21"))
        }
        #expect(error?.exitStatus == .usage)
        #expect(error?.message.contains("hunter2") == false)
        #expect(error?.message.contains("--proxy") == true)
    }

    @Test func loopbackAndNoProxyHostsAreReachedDirectly() {
        let options = CurlTransport.Options(proxy: "http://proxy.corp:3128", noProxy: "internal.corp, .example.org,*.lab:443")
        #expect(options.proxy(for: URL(string: "https://dev-1.okta.com")) == "http://proxy.corp:3128")
        #expect(options.proxy(for: URL(string: "http://127.0.0.1:8080")) == nil)
        #expect(options.proxy(for: URL(string: "http://localhost:8080")) == nil)
        #expect(options.proxy(for: URL(string: "https://internal.corp")) == nil)
        #expect(options.proxy(for: URL(string: "https://sso.internal.corp")) == nil)
        #expect(options.proxy(for: URL(string: "https://a.example.org")) == nil)
        #expect(options.proxy(for: URL(string: "https://x.lab")) == nil)
        #expect(options.proxy(for: URL(string: "https://notinternal.corp")) == "http://proxy.corp:3128")
        #expect(CurlTransport.Options(proxy: "http://p:1", noProxy: "*").proxy(for: URL(string: "https://dev-1.okta.com")) == nil)
        #expect(CurlTransport.Options(proxy: "http://p:1", noProxy: "a.b, *").proxy(for: URL(string: "https://dev-1.okta.com")) == nil)
    }

    /// CIDR blocks (as libcurl 7.86+ reads them) match IP literals only; a name is never taken for an address.
    @Test func noProxyCIDRBlocksMatchAddressesInside() {
        let options = CurlTransport.Options(proxy: "http://proxy.corp:3128", noProxy: "10.0.0.0/8, 192.168.1.0/24, fd00::/8, [2001:db8::1]")
        #expect(options.proxy(for: URL(string: "https://10.20.30.40")) == nil)
        #expect(options.proxy(for: URL(string: "https://192.168.1.200:8443")) == nil)
        #expect(options.proxy(for: URL(string: "https://192.168.2.1")) == "http://proxy.corp:3128")
        #expect(options.proxy(for: URL(string: "https://11.0.0.1")) == "http://proxy.corp:3128")
        #expect(options.proxy(for: URL(string: "https://[fd12::1]")) == nil)
        #expect(options.proxy(for: URL(string: "https://[2001:db8::1]:443")) == nil)
        #expect(options.proxy(for: URL(string: "https://[2001:db8::2]")) == "http://proxy.corp:3128")
        #expect(options.proxy(for: URL(string: "https://10.example.com")) == "http://proxy.corp:3128")
    }
}
