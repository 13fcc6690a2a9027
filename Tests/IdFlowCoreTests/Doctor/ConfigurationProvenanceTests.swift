import Foundation
import IdFlowCore
import IdFlowFoundation
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
        let flags = ConfigurationFlags([.scope: "openid"])
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

    /// The form Okta's Admin Console hands a service app's private key out in.
    static let jwk =
        #"{"kty":"RSA","kid":"k1","n":"0vx7agoebGcQSuuPiLJXZpt","e":"AQAB","d":"X4cTteJY_gn4FYPsXB8rdXix5vwsg1FLN5E3EaG6RJoVH-HLLKD9M7dx5oo7GURknchnrRweUkC7hT5fJLM0WbFAKNLWY2vv7B6NqXSzUvxT0_YSfqijwp3RTzlBaCxWp4doFk5N2o8Gy_nHNKroADIkJ46pRUohsXywbReAdYaMwFs9tv8d_cPVY3i07a3t8MN6TNwm0dSawm9v47UiCl3Sk5ZiG7xojPLu4sbg1U2jx4IBTNBznbJSzFHK66jT8bgkuqsk0GjskDJk19Z4qwjwbsnn4j2WBii3RL-Us2lGVkY8fkFzme1z0HbIkfz0Y6mqnOYtqc0X4jfcKoAC8Q","p":"secret-prime-p","q":"secret-prime-q"}"#

    /// A setting that names a file is shown as a path only when it names one: an inline key (PEM or the JWK Okta's
    /// Admin Console hands out) is "(inline key)", a value that names no file is not repeated.
    @Test func anInlineKeyOrAValueThatNamesNoFileIsNeverShown() throws {
        let home = try home()
        let keyFile = home.appendingPathComponent("key.pem")
        try Data("x".utf8).write(to: keyFile)
        let environment = [
            "HOME": home.path, "OKTA_CLIENT_AUTHORIZATIONMODE": "PrivateKey", "OKTA_CLIENT_PRIVATEKEY": Self.jwk,
            "IDFLOW_CA_FILE": "MIIBsecretlookingvalue", "IDFLOW_CLIENT_CERT": keyFile.path,
        ]
        let found = settings(resolver(environment).provenance(ConfigurationFlags()))
        #expect(found["privateKey"]?.value == "(inline key)")
        #expect(found["caFile"]?.value.contains("not repeated") == true, "\(found["caFile"]?.value ?? "")")
        #expect(found["clientCert"]?.value == keyFile.path, "a path that names a file is shown")
        #expect(!found.values.contains { $0.value.contains("secret") || $0.value.contains("MIIB") })

        let pem = "-----BEGIN PRIVATE KEY-----\nMIIBsecret\n-----END PRIVATE KEY-----"
        for (name, value) in [("IDFLOW_CA_FILE", "MIIBsecretlookingvalue"), ("IDFLOW_CLIENT_CERT", pem)] {
            do {
                _ = try resolver(["HOME": home.path, name: value]).resolve(ConfigurationFlags())
                Issue.record("\(name) naming no file was accepted")
            } catch {
                #expect(error.message.contains(name), "\(error.message)")
                #expect(!error.message.contains("MIIB"), "the value is echoed as if it were a path: \(error.message)")
            }
        }
    }

    /// Without a scheme (`HTTPS_PROXY=user:secret@host:3128`, as many tools accept it) the password is masked too.
    @Test func aSchemeLessProxyIsNamedWithoutItsPassword() throws {
        let home = try home()
        let provenance = resolver(["HOME": home.path, "HTTPS_PROXY": "jo:s3cret@proxy.example.com:3128"]).provenance(ConfigurationFlags())
        let proxy = try #require(settings(provenance)["proxy"])
        #expect(proxy.value == "<redacted>@proxy.example.com:3128", "\(proxy.value)")
        do {
            _ = try resolver(["HOME": home.path]).resolve(ConfigurationFlags(proxy: "jo:s3cret@[bad"))
            Issue.record("an unparseable proxy was accepted")
        } catch {
            #expect(error.message.contains("--proxy") && !error.message.contains("s3cret"), "\(error.message)")
        }
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
