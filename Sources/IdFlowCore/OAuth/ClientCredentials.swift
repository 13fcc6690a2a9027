import Foundation

/// How the client proves itself to the token endpoint: a public native app sends only its `client_id`
/// (method `none`); a confidential client adds its secret with HTTP Basic (`client_secret_basic`).
public struct ClientCredentials: Sendable, Equatable {
    public var clientID: String
    public var secret: Secret?

    public init(clientID: String, secret: Secret? = nil) {
        self.clientID = clientID
        self.secret = secret
    }

    /// Adds the credentials to a form request; never both Basic and a form `client_id` with a secret.
    public func apply(to fields: [(String, String)]) -> (fields: [(String, String)], headers: [String: String]) {
        guard let secret else { return (fields + [("client_id", clientID)], [:]) }
        // RFC 6749 §2.3.1: both parts are form-urlencoded before base64.
        let pair = "\(FormEncoding.escape(clientID)):\(FormEncoding.escape(secret.value))"
        return (fields, ["Authorization": "Basic \(Data(pair.utf8).base64EncodedString())"])
    }
}
