import Foundation

@testable import IdFlowCore
@testable import IdFlowFoundation

extension FuzzTargets {
    /// The configuration files a user or another tool wrote: the state folder's `config.yaml` (profiles) and
    /// okta-sdk's `okta.yaml`, each written where idflow reads it and read by the same loader.
    static let configurationFiles = FuzzTarget(
        name: "config",
        summary: "config.yaml profiles and okta.yaml, read from disk by idflow's loader",
        prepare: { try? FileManager.default.createDirectory(at: scratchFolder, withIntermediateDirectories: true) }
    ) { input in
        let file = scratchFolder.appendingPathComponent("config.yaml")
        guard (try? input.write(to: file)) != nil else { return }
        if let profiles = try? YAMLFile.load(ProfileFile.self, at: file) {
            for entry in (profiles.profiles ?? [:]).values {
                _ = entry.orgUrl.flatMap(URL.init(string:))
                _ = entry.proxy.flatMap(URL.init(string:))
            }
        }
        _ = try? YAMLFile.load(OktaYAMLFile.self, at: file)
    }
}
