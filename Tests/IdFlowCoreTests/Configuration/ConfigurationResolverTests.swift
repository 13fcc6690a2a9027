import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

struct ConfigurationResolverTests: ConfigurationHomeFixture {
    @Test func flagBeatsEnvironmentBeatsProfileBeatsOktaYAML() throws {
        let home = try home(
            profileYAML: "profiles:\n  default:\n    orgUrl: https://profile.okta.com\n    clientId: fromprofile\n    scope: openid\n",
            oktaYAML: "okta:\n  client:\n    orgUrl: https://oktayaml.okta.com\n    token: yamltoken\n")
        let base = ["HOME": home.path]

        let fromFiles = try resolver(base).resolve(ConfigurationFlags())
        #expect(fromFiles.orgURL?.absoluteString == "https://profile.okta.com")
        #expect(fromFiles.apiToken == Secret("yamltoken"))
        #expect(fromFiles.clientID == "fromprofile")
        #expect(fromFiles.scope == "openid")

        let fromEnv = try resolver(base.merging(["OKTA_CLIENT_ORGURL": "https://env.okta.com/", "OKTA_CLIENT_TOKEN": "envtoken"]) { $1 })
            .resolve(ConfigurationFlags())
        #expect(fromEnv.orgURL?.absoluteString == "https://env.okta.com", "a trailing slash is dropped")
        #expect(fromEnv.apiToken == Secret("envtoken"))

        let fromFlag = try resolver(base.merging(["OKTA_CLIENT_ORGURL": "https://env.okta.com"]) { $1 })
            .resolve(ConfigurationFlags([.orgURL: "https://flag.okta.com"]))
        #expect(fromFlag.orgURL?.absoluteString == "https://flag.okta.com")
    }

    /// Any provider is configured without an `OKTA_` name: the neutral names are read first, Okta's as aliases.
    @Test func providerNeutralNamesComeFirstAndOktasAreAliases() throws {
        let home = try home(profileYAML: "profiles:\n  default:\n    clientId: fromprofile\n")
        let neutral = try resolver([
            "HOME": home.path, "IDFLOW_ISSUER": "https://id.example.com/realms/x", "IDFLOW_CLIENT_ID": "neutral",
            "IDFLOW_REDIRECT_URI": "http://127.0.0.1:8765/callback", "IDFLOW_CLIENT_SECRET_FILE": "~/secret.txt",
            "OKTA_OAUTH2_ISSUER": "https://okta.example.com/oauth2/default", "OKTA_OAUTH2_CLIENTID": "okta",
            "OKTA_OAUTH2_REDIRECTURI": "com.okta.example:/callback",
        ]).resolve(ConfigurationFlags())
        #expect(neutral.issuer?.absoluteString == "https://id.example.com/realms/x")
        #expect(neutral.clientID == "neutral")
        #expect(neutral.redirectURI == "http://127.0.0.1:8765/callback")
        #expect(neutral.clientSecretSource == .file(home.path + "/secret.txt"), "a file, with ~ expanded")

        let okta = try resolver([
            "HOME": home.path, "OKTA_OAUTH2_ISSUER": "https://okta.example.com/oauth2/default", "OKTA_OAUTH2_CLIENTID": "okta",
            "OKTA_OAUTH2_CLIENTSECRET": "the-secret-itself",
        ]).resolve(ConfigurationFlags())
        #expect(okta.issuer?.absoluteString == "https://okta.example.com/oauth2/default")
        #expect(okta.clientID == "okta")
        #expect(okta.clientSecretSource == .environment("OKTA_OAUTH2_CLIENTSECRET"))
        #expect(EnvironmentVariableTypos.warnings(in: ["IDFLOW_ISSUER": "x", "IDFLOW_CLIENT_SECRET_FILE": "y"]).isEmpty)
    }

    @Test func oktaYAMLAloneIsEnough() throws {
        let home = try home(oktaYAML: "okta:\n  client:\n    orgUrl: https://dev-1.okta.com\n    token: t0k\n")
        let configuration = try resolver(["HOME": home.path]).resolve(ConfigurationFlags())
        #expect(configuration.orgURL?.absoluteString == "https://dev-1.okta.com")
        #expect(try configuration.requireIssuer().absoluteString == "https://dev-1.okta.com/oauth2/default")
    }

    @Test func aNamedProfileThatDoesNotExistIsAnError() throws {
        let home = try home(profileYAML: "profiles:\n  staging:\n    orgUrl: https://staging.okta.com\n")
        #expect(throws: IdFlowError.self) { try resolver(["HOME": home.path]).resolve(ConfigurationFlags(profile: "prod")) }
        let staging = try resolver(["HOME": home.path, "IDFLOW_PROFILE": "staging"]).resolve(ConfigurationFlags())
        #expect(staging.orgURL?.absoluteString == "https://staging.okta.com")
        #expect(staging.profileDirectory.path.hasSuffix("profiles/staging"))
    }

    @Test func brokenYAMLIsReportedNotIgnored() throws {
        let home = try home(profileYAML: "profiles: [unclosed\n")
        do {
            _ = try resolver(["HOME": home.path]).resolve(ConfigurationFlags())
            Issue.record("expected an error")
        } catch {
            #expect(error.exitStatus == .usage)
            #expect(error.message.contains("config.yaml"))
        }
    }

    @Test func stateDirectoryFollowsXDGThenFlag() throws {
        let home = try home()
        let xdg = try resolver(["HOME": home.path, "XDG_STATE_HOME": "/tmp/xdg-state"]).resolve(ConfigurationFlags())
        #expect(xdg.stateDirectory.path == "/tmp/xdg-state/idflow")
        let fallback = try resolver(["HOME": home.path]).resolve(ConfigurationFlags())
        #expect(fallback.stateDirectory.path == home.appendingPathComponent(".local/state/idflow").path)
        let flag = try resolver(["HOME": home.path, "IDFLOW_STATE_DIR": "/tmp/env-state"]).resolve(
            ConfigurationFlags([.stateDir: "/tmp/flag-state"]))
        #expect(flag.stateDirectory.path == "/tmp/flag-state")
    }

    @Test func numbersAreValidated() throws {
        let home = try home()
        #expect(throws: IdFlowError.self) { try resolver(["HOME": home.path, "IDFLOW_TIMEOUT": "soon"]).resolve(ConfigurationFlags()) }
        #expect(throws: IdFlowError.self) { try resolver(["HOME": home.path]).resolve(ConfigurationFlags([.maxRetries: "-1"])) }
        let configuration = try resolver(["HOME": home.path, "IDFLOW_TIMEOUT": "2.5", "IDFLOW_MAX_RETRIES": "0", "IDFLOW_VERBOSE": "1"])
            .resolve(ConfigurationFlags())
        #expect(configuration.timeout == .milliseconds(2500))
        #expect(configuration.maxRetries == 0)
        #expect(configuration.verbose)
    }

    @Test func missingOrgAndTokenSayHowToSetThem() throws {
        let configuration = try resolver(["HOME": try home().path]).resolve(ConfigurationFlags())
        do {
            _ = try configuration.requireOrgURL()
            Issue.record("expected an error")
        } catch {
            #expect(error.hint?.contains("OKTA_CLIENT_ORGURL") == true)
            #expect(error.exitStatus == .usage)
        }
        #expect(throws: IdFlowError.self) { try configuration.requireAPIToken() }
    }

    @Test func anOrgURLThatIsNotAURLIsRejected() throws {
        #expect(throws: IdFlowError.self) {
            try resolver(["HOME": try home().path]).resolve(ConfigurationFlags([.orgURL: "dev-123.okta.com"]))
        }
    }

    /// The issuer pasted as the org URL is named as such at once (exit 64), from a flag, the environment or a file,
    /// instead of a later 404 that reads like a wrong id or login.
    @Test func anOrgURLWithAPathAsksWhetherTheOriginWasMeant() throws {
        let home = try home(oktaYAML: "okta:\n  client:\n    orgUrl: https://yaml.okta.com/oauth2/default\n")
        let sources: [(environment: [String: String], flags: ConfigurationFlags)] = [
            ([:], ConfigurationFlags([.orgURL: "https://x.okta.com/oauth2/default"])),
            (["OKTA_CLIENT_ORGURL": "https://x.okta.com/oauth2/default/"], ConfigurationFlags()),
        ]
        for source in sources {
            let error = #expect(throws: IdFlowError.self) {
                try resolver(["HOME": home.path].merging(source.environment) { $1 }).resolve(source.flags)
            }
            #expect(error?.message == "the org URL has a path (/oauth2/default); did you mean https://x.okta.com?")
            #expect(error?.hint?.contains("--issuer") == true)
            #expect(error?.exitStatus == .usage)
        }
        let fromFile = #expect(throws: IdFlowError.self) { try resolver(["HOME": home.path]).resolve(ConfigurationFlags()) }
        #expect(fromFile?.message.contains("did you mean https://yaml.okta.com?") == true)
        let origin = try resolver(["HOME": home.path]).resolve(ConfigurationFlags([.orgURL: "https://x.okta.com/"]))
        #expect(origin.orgURL?.absoluteString == "https://x.okta.com")
    }

    @Test func apiTokenFileIsRead() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("token-\(UUID().uuidString)")
        try "00filetoken\n".write(to: file, atomically: true, encoding: .utf8)
        let configuration = try resolver(["HOME": try home().path, "OKTA_CLIENT_TOKEN": "env"]).resolve(
            ConfigurationFlags([.apiToken: file.path]))
        #expect(configuration.apiToken == Secret("00filetoken"))
    }
}

struct SecretReaderTests {
    @Test func stdinDropsOneTrailingNewlineOnly() throws {
        let reader = SecretReader(readStandardInput: { Data("pa ss\n".utf8) }, environment: [:], warn: { _ in })
        #expect(try reader.read("password", from: .standardInput) == Secret("pa ss"))
    }

    @Test func argvWarns() throws {
        let warnings = Locked<[String]>([])
        let reader = SecretReader(readStandardInput: { Data() }, environment: [:], warn: { line in warnings.withLock { $0.append(line) } })
        #expect(try reader.read("password", from: .argument("x1")) == Secret("x1"))
        #expect(warnings.current.count == 1)
        #expect(warnings.current[0].contains("ps"))
    }

    @Test func emptyAndMissingAreErrors() {
        let reader = SecretReader(readStandardInput: { Data("\n".utf8) }, environment: [:], warn: { _ in })
        #expect(throws: IdFlowError.self) { try reader.read("password", from: .standardInput) }
        #expect(throws: IdFlowError.self) { try reader.read("password", from: .environment("NOPE")) }
        #expect(throws: IdFlowError.self) { try reader.read("password", from: .file("/nonexistent/file")) }
    }
}
