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
    /// Company networks: a CA bundle trusted besides the system's, a TLS client certificate and key, a proxy URL.
    public var caFile: String?
    public var clientCert: String?
    public var clientKey: String?
    public var proxy: String?
    /// The service app of management calls without an API token, and DPoP (`authorizationMode: PrivateKey`).
    public var authorizationMode: String?
    public var serviceClientId: String?
    public var serviceScopes: String?
    public var privateKeyFile: String?
    public var privateKeyId: String?
    public var dpop: Bool?
}

/// `config.yaml`: `profiles: {name: {orgUrl: …, clientId: …}}`.
package struct ProfileFile: Decodable {
    package var profiles: [String: ProfileEntry]?
}

/// Okta's own `~/.okta/okta.yaml`, read so an existing SDK setup works unchanged.
package struct OktaYAMLFile: Decodable {
    package struct Okta: Decodable {
        package struct Client: Decodable {
            var orgUrl: String?
            var token: String?
            var proxy: Proxy?
            /// PrivateKey mode, as okta-sdk-python reads it (okta-core.md §H6).
            var authorizationMode: String?
            var clientId: String?
            var scopes: Scopes?
            var privateKey: String?
            var kid: String?
            var dpopEnabled: Flag?
        }
        /// `scopes`: a YAML list, or one string of space- or comma-separated scopes.
        struct Scopes: Decodable {
            var text: String
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let list = try? container.decode([String].self) {
                    text = list.joined(separator: " ")
                } else {
                    text = try container.decode(String.self)
                }
            }
        }
        /// A boolean written as one or as the string `"true"`/`"false"` (how the SDK's environment spells it).
        struct Flag: Decodable {
            var value: Bool
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let flag = try? container.decode(Bool.self) {
                    value = flag
                } else {
                    value = try container.decode(String.self).lowercased() == "true"
                }
            }
        }
        /// `okta.client.proxy`, as Okta's SDKs read it.
        struct Proxy: Decodable {
            var host: String?
            var port: PortNumber?
            var username: String?
            var password: String?
        }
        /// A port written as a number or as a quoted string.
        struct PortNumber: Decodable {
            var value: Int
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let number = try? container.decode(Int.self) {
                    value = number
                } else if let number = Int(try container.decode(String.self)) {
                    value = number
                } else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "a port is a number")
                }
            }
        }
        package var client: Client?
    }
    package var okta: Okta?
}

package enum YAMLFile {
    /// Decodes a YAML file, nil when it does not exist; a file that exists but cannot be parsed is an error,
    /// because silently ignoring it would send requests to the wrong place.
    package static func load<T: Decodable>(_ type: T.Type, at url: URL) throws(IdFlowError) -> T? {
        guard let data = InputFile.read(exactly: url.path) else { return nil }
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
