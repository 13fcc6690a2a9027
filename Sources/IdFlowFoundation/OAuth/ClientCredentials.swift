import Foundation

/// How the client proves itself to the authorization server's endpoints: a public native app sends only its
/// `client_id` (method `none`); a confidential client adds its secret with HTTP Basic (`client_secret_basic`) or
/// signs a client assertion with its private key (`private_key_jwt`, RFC 7523). A DPoP key (RFC 9449) makes every
/// token request carry a proof, so the tokens are bound to the key.
public struct ClientCredentials: Sendable, Equatable {
    public var clientID: String
    public var secret: Secret?
    /// `private_key_jwt`: the key the client assertion is signed with.
    public var assertionKey: ClientAssertionKey?
    /// Sign a DPoP proof on every request to the server's endpoints with this key.
    public var dpopKey: DPoPKey?
    /// What to do when the server answers a DPoP proof with a Bearer token.
    public var bearerInPlaceOfDPoP: BearerInPlaceOfDPoP

    public init(
        clientID: String, secret: Secret? = nil, assertionKey: ClientAssertionKey? = nil, dpopKey: DPoPKey? = nil,
        bearerInPlaceOfDPoP: BearerInPlaceOfDPoP = .refused
    ) {
        self.clientID = clientID
        self.secret = secret
        self.assertionKey = assertionKey
        self.dpopKey = dpopKey
        self.bearerInPlaceOfDPoP = bearerInPlaceOfDPoP
    }

    /// Adds a secret's credentials to a form request; never both Basic and a form `client_id` with a secret.
    public func apply(to fields: [(String, String)]) -> (fields: [(String, String)], headers: [String: String]) {
        guard let secret else { return (fields + [("client_id", clientID)], [:]) }
        // RFC 6749 §2.3.1: both parts are form-urlencoded before base64.
        let pair = "\(FormEncoding.escape(clientID)):\(FormEncoding.escape(secret.value))"
        return (fields, ["Authorization": "Basic \(Data(pair.utf8).base64EncodedString())"])
    }

    /// A form POST to one of the server's endpoints as this client: the secret applied, or the assertion and the
    /// DPoP proof left to be signed for each attempt (`RequestSigning`).
    package func formRequest(_ url: URL, fields: [(String, String)], isIdempotent: Bool = false) -> HTTPRequest {
        if let assertionKey {
            // Okta needs no client_id beside an assertion; RFC 7521 §4.2 allows it, and other servers look the client up by it.
            let form = fields + [("client_id", clientID)]
            var request = HTTPRequest.form(url, fields: form, isIdempotent: isIdempotent)
            request.signing = RequestSigning(
                dpopKey: dpopKey, assertion: ClientAssertion(clientID: clientID, key: assertionKey), formFields: form)
            return request
        }
        let (form, headers) = apply(to: fields)
        var request = HTTPRequest.form(url, fields: form, headers: headers, isIdempotent: isIdempotent)
        if let dpopKey { request.signing = RequestSigning(dpopKey: dpopKey) }
        return request
    }

    public static func == (lhs: ClientCredentials, rhs: ClientCredentials) -> Bool {
        lhs.clientID == rhs.clientID && lhs.secret == rhs.secret && lhs.assertionKey?.keyID == rhs.assertionKey?.keyID
            && (lhs.assertionKey == nil) == (rhs.assertionKey == nil) && lhs.dpopKey == rhs.dpopKey
    }
}

extension ClientCredentials {
    /// What to check when the server says `invalid_client`, for the way this client proves itself.
    static func refusalHint(_ client: ClientCredentials) -> String {
        if client.assertionKey != nil {
            return
                "check the client id, that the app's public key matches --private-key-file (and --private-key-id names it), and this machine's clock (`idflow doctor`)"
        }
        return "check --client-id (and --client-secret-file for a confidential client)"
    }
}
