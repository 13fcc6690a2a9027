import Foundation
import Yams

/// One named profile in `$XDG_CONFIG_HOME/idflow/config.yaml`.
public struct ProfileEntry: Decodable, Sendable, Equatable {
    public var orgUrl: String?
    public var apiToken: String?
    public var apiTokenFile: String?
    public var issuer: String?
    public var clientId: String?
    public var redirectUri: String?
    public var scope: String?
    public var stateDir: String?
    public var timeout: Double?
    public var maxRetries: Int?
    public var tokenServer: String?
    public var clientSecretFile: String?
}

/// `config.yaml`: `profiles: {name: {orgUrl: …, clientId: …}}`.
struct ProfileFile: Decodable {
    var profiles: [String: ProfileEntry]?
}

/// Okta's own `~/.okta/okta.yaml`, read so an existing SDK setup works unchanged.
struct OktaYAMLFile: Decodable {
    struct Okta: Decodable {
        struct Client: Decodable {
            var orgUrl: String?
            var token: String?
        }
        var client: Client?
    }
    var okta: Okta?
}

enum YAMLFile {
    /// Decodes a YAML file, nil when it does not exist; a file that exists but cannot be parsed is an error,
    /// because silently ignoring it would send requests to the wrong place.
    static func load<T: Decodable>(_ type: T.Type, at url: URL) throws(IdFlowError) -> T? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .configuration("\(url.path) is not UTF-8 text", hint: "fix or remove the file")
        }
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return nil }
        do {
            return try YAMLDecoder().decode(T.self, from: text)
        } catch {
            throw .configuration("cannot read \(url.path): \(error)", hint: "fix the YAML, or remove the file")
        }
    }
}
