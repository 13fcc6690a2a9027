import Foundation
import IdFlowCore
import IdFlowFoundation

/// A fake home (with config.yaml and okta.yaml when given) and a resolver over an environment: what the suites
/// that test how settings are chosen, and where they came from, set up alike.
protocol ConfigurationHomeFixture {}

extension ConfigurationHomeFixture {
    func home(profileYAML: String? = nil, oktaYAML: String? = nil) throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".config/idflow"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".okta"), withIntermediateDirectories: true)
        if let profileYAML {
            try profileYAML.write(to: home.appendingPathComponent(".config/idflow/config.yaml"), atomically: true, encoding: .utf8)
        }
        if let oktaYAML { try oktaYAML.write(to: home.appendingPathComponent(".okta/okta.yaml"), atomically: true, encoding: .utf8) }
        return home
    }

    func resolver(_ environment: [String: String]) -> ConfigurationResolver {
        ConfigurationResolver(
            environment: environment, secrets: SecretReader(readStandardInput: { Data() }, environment: environment, warn: { _ in }))
    }
}
