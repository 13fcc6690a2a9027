import Foundation

/// The OAuth `RequestSigner`: a DPoP proof (RFC 9449; its `jti` is single-use and it names the server's latest
/// nonce) and a client assertion (RFC 7523; its `jti` is single-use too). Kept as the inputs, not the signed
/// strings, so a retry after a 429, a refused connection or a `use_dpop_nonce` answer signs again.
public struct RequestSigning: RequestSigner, Equatable {
    /// Signs a DPoP proof with this key.
    var dpopKey: DPoPKey?
    /// A resource request's access token: hashed into the proof's `ath`, and it makes the resource's nonce apply.
    var accessToken: String?
    /// `private_key_jwt`: the form fields without the assertion, and who signs it; the body is rebuilt per attempt.
    var assertion: ClientAssertion?
    var formFields: [FormField] = []

    /// One `name=value` pair of a form body.
    struct FormField: Sendable, Equatable {
        var name: String
        var value: String
    }

    package init(dpopKey: DPoPKey?, accessToken: String? = nil, assertion: ClientAssertion? = nil, formFields: [(String, String)] = []) {
        self.dpopKey = dpopKey
        self.accessToken = accessToken
        self.assertion = assertion
        self.formFields = formFields.map { FormField(name: $0.0, value: $0.1) }
    }

    /// The nonce slot this request uses: an authorization server's and a resource server's nonces differ even on one
    /// origin (RFC 9449 §8, §9), so they are kept apart.
    func nonceKey(for url: URL) -> DPoPNonces.Key {
        DPoPNonces.Key(url, resource: accessToken != nil)
    }

    /// Writes this attempt's proof and assertion into `request`.
    public func sign(_ request: inout HTTPRequest, nonces: ServerNonces, now: Date) throws(IdFlowError) {
        let url = request.url
        let nonce = nonces.nonce(for: nonceKey(for: url).slot)
        if let assertion {
            let fields =
                formFields.map { ($0.name, $0.value) } + [
                    ("client_assertion_type", ClientAssertion.type), ("client_assertion", try assertion.make(audience: url, now: now)),
                ]
            request.body = Data(FormEncoding.encode(fields).utf8)
        }
        if let dpopKey {
            let proof = try DPoPProof.make(
                key: dpopKey, method: request.method, url: url, accessToken: accessToken, nonce: nonce, now: now)
            request.setHeader("DPoP", proof)
        }
    }

    /// Keeps the `DPoP-Nonce` an answer brings; true when the answer refused the request for want of it.
    public func read(_ response: HTTPResponse, url: URL, nonces: ServerNonces) -> Bool {
        guard let challenge = DPoPNonces.challenge(in: response) else { return false }
        nonces.remember(challenge.nonce, for: nonceKey(for: url).slot)
        return challenge.refused
    }

    public static func == (lhs: RequestSigning, rhs: RequestSigning) -> Bool {
        lhs.dpopKey == rhs.dpopKey && lhs.accessToken == rhs.accessToken && lhs.formFields == rhs.formFields
            && lhs.assertion?.clientID == rhs.assertion?.clientID
    }
}

/// The slots of DPoP nonces in an `HTTPClient`'s `ServerNonces`, and how an answer asks for one.
public enum DPoPNonces {
    /// An authorization server's endpoints, or a resource server's, on one origin.
    public struct Key: Hashable, Sendable {
        var origin: String
        package var resource: Bool

        init(_ url: URL, resource: Bool) {
            origin = Origin(url)?.description ?? url.absoluteString
            self.resource = resource
        }

        /// The slot of requests to an authorization server's endpoints at `url`.
        public static func authorizationServer(_ url: URL) -> Key { Key(url, resource: false) }

        /// The name of the slot in `ServerNonces`.
        public var slot: String { "dpop \(resource ? "resource" : "authorization") \(origin)" }
    }

    /// The nonce a response asks to be used from now on (`DPoP-Nonce`), and whether the response refused the
    /// request for want of it (400 `use_dpop_nonce` from a token endpoint, 401 with `error="use_dpop_nonce"` in
    /// `WWW-Authenticate` from a resource), in which case the request is signed again with it.
    static func challenge(in response: HTTPResponse) -> (nonce: String, refused: Bool)? {
        guard let nonce = response.header("DPoP-Nonce"), !nonce.isEmpty else { return nil }
        var refused = false
        if response.status == 400 || response.status == 401 {
            let authenticate = response.header("WWW-Authenticate") ?? ""
            refused =
                authenticate.contains("use_dpop_nonce")
                || (try? JSONDecoder().decode(OAuthErrorBody.self, from: response.body))?.error == "use_dpop_nonce"
        }
        return (nonce, refused)
    }
}
