import Foundation
import IdFlowFoundation

/// How a confidential client proves itself, resolved once for `login-client`, `token exchange` and
/// `login-jwt-bearer`: a secret (client_secret_basic), else the configured private key (private_key_jwt), else
/// nothing but the client id (a public client, or mTLS through --client-cert, which the transport presents).
package enum ClientProof {
    /// The private key when no secret was given and one is configured (--private-key-file, OKTA_CLIENT_PRIVATEKEY).
    package static func key(_ context: IdFlowContext, clientSecret: Secret?) throws(IdFlowError) -> ClientAssertionKey? {
        guard clientSecret == nil, context.configuration.serviceApp.privateKey != nil else { return nil }
        return try context.configuration.serviceApp.requirePrivateKey()
    }

    /// `--client-id` as given; else the service app's with a key; else the configured client's.
    package static func clientID(_ given: String?, key: ClientAssertionKey?, _ context: IdFlowContext) -> String? {
        let configuration = context.configuration
        let resolved = given ?? (key != nil ? configuration.serviceApp.clientID : nil) ?? configuration.clientID
        return resolved.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The credentials of `clientID` with whichever proof the run was given.
    package static func credentials(
        _ context: IdFlowContext, clientID given: String?, clientSecret: Secret?, command: String
    ) throws(IdFlowError) -> ClientCredentials {
        let key = try key(context, clientSecret: clientSecret)
        guard let clientID = clientID(given, key: key, context) else {
            throw .configuration("no client id configured for \(command)", hint: "pass --client-id ID")
        }
        return ClientCredentials(
            clientID: clientID, secret: clientSecret, assertionKey: key, bearerInPlaceOfDPoP: context.bearerInPlaceOfDPoP)
    }
}
