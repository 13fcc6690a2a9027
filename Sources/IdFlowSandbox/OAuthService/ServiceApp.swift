import Foundation
import JWTKit
import _CryptoExtras

/// A service app as the token endpoint knows it: its keys, granted scopes and DPoP setting.
struct ServiceApp: Sendable {
    let clientId: String
    let keys: [ClientPublicKey]
    let scopes: [String]
    let requireDPoP: Bool
}

/// The service apps of one sandbox, and the default app's private key when the sandbox made one.
struct ServiceAppRegistry: Sendable {
    let apps: [ServiceApp]
    /// Set only for the default app: its PKCS#8 private key PEM and key id, for `SandboxInfo.serviceApp`.
    let defaultKey: (pem: String, keyId: String)?

    func app(_ clientId: String) -> ServiceApp? {
        apps.first { $0.clientId == clientId }
    }

    /// The configured apps, or (when `serviceApps` is absent) one default app with a fresh RSA 2048 key: RS256 is
    /// what Okta's Python SDK signs with. Generating takes a moment, so it happens once, at start-up or first use.
    static func make(_ configuration: [ServiceAppConfiguration]?) throws -> ServiceAppRegistry {
        if let configuration {
            let apps = try configuration.map {
                ServiceApp(clientId: $0.clientId, keys: try $0.keys(), scopes: $0.scopes, requireDPoP: $0.requireDPoP)
            }
            return ServiceAppRegistry(apps: apps, defaultKey: nil)
        }
        let privateKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let publicKey = try ClientPublicKey(pem: privateKey.publicKey.pemRepresentation, kid: nil)
        let keyId = publicKey.thumbprint
        let key = ClientPublicKey(members: publicKey.members, kid: keyId)
        let app = ServiceApp(
            clientId: ServiceAppConfiguration.defaultClientId, keys: [key], scopes: ServiceAppConfiguration.defaultScopes,
            requireDPoP: false)
        return ServiceAppRegistry(apps: [app], defaultKey: (privateKey.pkcs8PEMRepresentation, keyId))
    }
}

/// `serviceApp` of `SandboxInfo`: the default service app, so a runbook can sign in as it with no API token.
public struct ServiceAppInfo: Codable, Sendable, Equatable {
    public var clientId: String
    /// The PKCS#8 PEM private key: mode 0600 in the temporary directory, removed when the sandbox stops.
    public var privateKeyFile: String
    public var keyId: String
    public var scopes: [String]

    public init(clientId: String, privateKeyFile: String, keyId: String, scopes: [String]) {
        self.clientId = clientId
        self.privateKeyFile = privateKeyFile
        self.keyId = keyId
        self.scopes = scopes
    }

    var json: OrderedJSON {
        [
            "clientId": .string(clientId), "privateKeyFile": .string(privateKeyFile), "keyId": .string(keyId),
            "scopes": .array(scopes.map(OrderedJSON.string)),
        ]
    }
}
