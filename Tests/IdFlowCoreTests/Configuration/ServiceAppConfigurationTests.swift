import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// PrivateKey mode is configured with the names Okta's SDKs read (okta-core.md §H6), with idflow's usual weighing:
/// flag > environment > profile > okta.yaml.
struct ServiceAppConfigurationTests: ConfigurationHomeFixture {
    @Test func oktaYAMLAsOktasPythonSDKWritesItIsEnough() throws {
        let home = try home(
            oktaYAML: """
                okta:
                  client:
                    orgUrl: https://dev-1.okta.com
                    authorizationMode: PrivateKey
                    clientId: 0oaservice
                    scopes:
                      - okta.users.read
                      - okta.groups.read
                    privateKey: ~/keys/service.pem
                    kid: key-1
                    dpopEnabled: "true"
                """)
        let configuration = try resolver(["HOME": home.path]).resolve(ConfigurationFlags())
        #expect(configuration.managementMode == .privateKey)
        #expect(configuration.serviceApp.clientID == "0oaservice")
        #expect(configuration.serviceApp.scopes == ["okta.users.read", "okta.groups.read"])
        #expect(
            configuration.serviceApp.privateKey
                == .file(path: home.path + "/keys/service.pem", setting: "okta.client.privateKey in \(home.path)/.okta/okta.yaml"))
        #expect(configuration.serviceApp.keyID == "key-1")
        #expect(configuration.serviceApp.dpop)
        #expect(!configuration.bindsLoginsWithDPoP, "the SDK's DPoP setting is the service app's, not the logins'")
    }

    @Test func theEnvironmentBeatsTheFilesAndFlagsBeatTheEnvironment() throws {
        let home = try home(profileYAML: "profiles:\n  default:\n    serviceClientId: fromprofile\n    serviceScopes: okta.users.read\n")
        let environment = [
            "HOME": home.path, "OKTA_CLIENT_AUTHORIZATIONMODE": "privatekey", "OKTA_CLIENT_CLIENTID": "fromenv",
            "OKTA_CLIENT_SCOPES": "okta.users.read,okta.users.manage",
            "OKTA_CLIENT_PRIVATEKEY": "-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----",
            "OKTA_CLIENT_DPOPENABLED": "true",
        ]
        let fromEnvironment = try resolver(environment).resolve(ConfigurationFlags())
        #expect(fromEnvironment.managementMode == .privateKey, "the mode is matched without regard to case")
        #expect(fromEnvironment.serviceApp.clientID == "fromenv")
        #expect(fromEnvironment.serviceApp.scopes == ["okta.users.read", "okta.users.manage"], "the SDK's comma-separated form")
        guard case .pem(_, let setting) = fromEnvironment.serviceApp.privateKey else {
            Issue.record("a PEM in the environment was taken for a path")
            return
        }
        #expect(setting == "OKTA_CLIENT_PRIVATEKEY")
        #expect(fromEnvironment.serviceApp.dpop)

        var flags = ConfigurationFlags()
        flags.settings[.authorizationMode] = "SSWS"
        flags.settings[.serviceClientID] = "fromflag"
        flags.settings[.serviceScopes] = "okta.users.manage"
        flags.settings[.privateKey] = "/keys/k.pem"
        flags.settings[.dpop] = "true"
        let fromFlags = try resolver(environment).resolve(flags)
        #expect(fromFlags.managementMode == .apiToken)
        #expect(fromFlags.serviceApp.clientID == "fromflag")
        #expect(fromFlags.serviceApp.scopes == ["okta.users.manage"])
        #expect(fromFlags.serviceApp.privateKey == .file(path: "/keys/k.pem", setting: "--private-key-file"))
        #expect(fromFlags.bindsLoginsWithDPoP, "--dpop binds whatever the command gets, a login included")
    }

    @Test func anUnknownModeIsAUsageErrorNamingBoth() throws {
        let home = try home()
        do {
            _ = try resolver(["HOME": home.path, "OKTA_CLIENT_AUTHORIZATIONMODE": "Bearer"]).resolve(ConfigurationFlags())
            Issue.record("an unknown mode was accepted")
        } catch {
            #expect(error.exitStatus == .usage)
            #expect(error.message.contains("SSWS or PrivateKey"))
        }
    }

    @Test func doctorShowsWhereEachSettingCameFromButNeverAnInlineKey() throws {
        let home = try home()
        let provenance = resolver([
            "HOME": home.path, "OKTA_CLIENT_AUTHORIZATIONMODE": "PrivateKey",
            "OKTA_CLIENT_PRIVATEKEY": "-----BEGIN PRIVATE KEY-----\nsecret\n-----END PRIVATE KEY-----",
        ]).provenance(ConfigurationFlags([.orgURL: "https://dev-1.okta.com"]))
        let settings = Dictionary(uniqueKeysWithValues: provenance.settings.map { ($0.name, $0) })
        #expect(settings["authorizationMode"]?.summary == "authorizationMode=PrivateKey (env OKTA_CLIENT_AUTHORIZATIONMODE)")
        #expect(settings["privateKey"]?.value == "(inline key)")
        #expect(settings["serviceScopes"]?.summary == "serviceScopes=okta.users.read okta.users.manage (default)")
        #expect(!provenance.settings.contains { $0.value.contains("secret") })
    }
}
