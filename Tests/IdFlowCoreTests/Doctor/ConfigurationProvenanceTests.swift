import Foundation
import IdFlowCore
import Testing

/// What `doctor` says about each setting: its value, where it came from (the same choice `resolve` makes), and
/// secrets only as present or absent.
struct ConfigurationProvenanceTests: ConfigurationHomeFixture {
    func settings(_ provenance: ConfigurationProvenance) -> [String: SettingProvenance] {
        Dictionary(uniqueKeysWithValues: provenance.settings.map { ($0.name, $0) })
    }

    @Test func eachSettingNamesTheSourceResolveTookItFrom() throws {
        let home = try home(
            profileYAML: "profiles:\n  default:\n    clientId: fromprofile\n    timeout: 5\n",
            oktaYAML: "okta:\n  client:\n    orgUrl: https://oktayaml.okta.com\n    token: yamltoken\n")
        let environment = ["HOME": home.path, "OKTA_OAUTH2_ISSUER": "https://env.okta.com/oauth2/aus1"]
        let flags = ConfigurationFlags(scope: "openid")
        let provenance = resolver(environment).provenance(flags)
        let configuration = try resolver(environment).resolve(flags)
        let found = settings(provenance)
        let profileFile = home.appendingPathComponent(".config/idflow/config.yaml").path
        let oktaFile = home.appendingPathComponent(".okta/okta.yaml").path

        #expect(found["profile"] == SettingProvenance(name: "profile", value: "default", origin: "default"))
        #expect(
            found["orgURL"]
                == SettingProvenance(name: "orgURL", value: "https://oktayaml.okta.com", origin: "\(oktaFile) (okta.client.orgUrl)"))
        #expect(configuration.orgURL?.absoluteString == found["orgURL"]?.value)
        #expect(found["issuer"]?.origin == "env OKTA_OAUTH2_ISSUER")
        #expect(configuration.issuer?.absoluteString == found["issuer"]?.value)
        #expect(
            found["clientID"]
                == SettingProvenance(name: "clientID", value: "fromprofile", origin: "profile default in \(profileFile) (clientId)"))
        #expect(found["scope"]?.origin == "--scope")
        #expect(found["timeout"]?.value == "5")
        #expect(configuration.timeout == .seconds(5))
        #expect(found["maxRetries"] == SettingProvenance(name: "maxRetries", value: "3", origin: "default"))
        #expect(found["redirectURI"]?.origin == "unset")
        #expect(provenance.problems.isEmpty)
    }

    @Test func secretsAreOnlyPresentOrAbsent() throws {
        let home = try home()
        let present = resolver(["HOME": home.path, "OKTA_CLIENT_TOKEN": "sekr1t-token-value"]).provenance(ConfigurationFlags())
        #expect(settings(present)["apiToken"] == SettingProvenance(name: "apiToken", value: "present", origin: "env OKTA_CLIENT_TOKEN"))
        #expect(!present.settings.map(\.summary).joined().contains("sekr1t"))
        let absent = resolver(["HOME": home.path]).provenance(ConfigurationFlags())
        #expect(settings(absent)["apiToken"]?.value == "absent")
        #expect(settings(absent)["clientSecret"]?.value == "absent")
    }

    @Test func anUnknownProfileIsAProblemNotAThrow() throws {
        let home = try home(profileYAML: "profiles:\n  staging:\n    orgUrl: https://staging.okta.com\n")
        let environment = ["HOME": home.path, "IDFLOW_PROFILE": "stagng", "IDFLOW_STATE_DIR": "/tmp/somewhere"]
        let provenance = resolver(environment).provenance(ConfigurationFlags())
        #expect(settings(provenance)["profile"] == SettingProvenance(name: "profile", value: "stagng", origin: "env IDFLOW_PROFILE"))
        #expect(provenance.problems.count == 1)
        #expect(provenance.problems.first?.message.contains("profile \"stagng\" is not defined") == true)
        #expect(provenance.stateDirectory.path == "/tmp/somewhere")
        #expect(settings(provenance)["stateDir"]?.origin == "env IDFLOW_STATE_DIR")
    }

    @Test func theProxyIsNamedWithoutItsPassword() throws {
        let home = try home()
        let provenance = resolver(["HOME": home.path, "https_proxy": "http://jo:pa55@proxy.example.com:3128"]).provenance(
            ConfigurationFlags())
        let proxy = try #require(settings(provenance)["proxy"])
        #expect(proxy.origin == "env https_proxy")
        #expect(proxy.value.contains("proxy.example.com:3128") && !proxy.value.contains("pa55"), "\(proxy.value)")
        let none = resolver(["HOME": home.path, "https_proxy": "http://proxy.example.com:3128"]).provenance(ConfigurationFlags(proxy: ""))
        #expect(settings(none)["proxy"] == SettingProvenance(name: "proxy", value: "none", origin: "--proxy"))
    }
}
