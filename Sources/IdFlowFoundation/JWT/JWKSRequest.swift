import Foundation

/// Fetches an issuer's signing keys from its `jwks_uri`.
struct JWKSRequest: APIRequest {
    var jwksURI: URL

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        .get(jwksURI)
    }

    /// Returns the document as received once it parses as a key set, so what is cached is exactly what the
    /// issuer published and a broken answer is never cached.
    package func decode(_ response: HTTPResponse) throws(IdFlowError) -> Data {
        guard response.isSuccess else {
            throw response.failure(hint: "the issuer's jwks_uri \(Redactor.url(jwksURI.absoluteString)) did not return its signing keys")
        }
        _ = try JSONWebKeySet(data: response.body, source: Redactor.url(jwksURI.absoluteString))
        return response.body
    }
}
