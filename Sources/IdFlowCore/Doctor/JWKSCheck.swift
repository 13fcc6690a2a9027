import Foundation
import IdFlowFoundation

/// The issuer's signing keys: the JWKS reachable, its keys and algorithms, and the stored ID token's `kid`
/// among them.
enum JWKSCheck {
    static func run(configuration: Configuration, http: HTTPClient) async -> DoctorCheck {
        let issuer: URL
        let document: OpenIDConfiguration
        do throws(IdFlowError) {
            issuer = try configuration.requireIssuer()
            document = try await DiscoveryCheck.fetch(issuer, http: http).0
        } catch {
            return DoctorCheck("jwks", .skipped, "needs the discovery document (see the discovery check)")
        }
        let keys: [JSONValue]
        do throws(IdFlowError) {
            let response = try await http.send(.get(document.jwksURI))
            guard response.isSuccess else { throw response.failure(hint: "the issuer's jwks_uri did not return its signing keys") }
            keys = try JSONWebKeySet(data: response.body, source: Redactor.url(document.jwksURI.absoluteString)).keys
        } catch {
            return .failed("jwks", error)
        }
        let kids = keys.compactMap { $0["kid"]?.stringValue }
        let listing = keys.map { key in
            "\(key["kid"]?.stringValue ?? "(no kid)") (\([key["alg"]?.stringValue, key["kty"]?.stringValue].compactMap { $0 }.joined(separator: ", ")))"
        }
        var detail =
            "\(keys.count) key\(keys.count == 1 ? "" : "s") at \(Redactor.url(document.jwksURI.absoluteString)): \(listing.joined(separator: "; "))"
        guard let stored = try? TokenStore(directory: configuration.profileDirectory).load(), let idToken = stored.tokens.idToken,
            let kid = try? DecodedJWT(idToken).keyID
        else {
            return DoctorCheck("jwks", .ok, detail + "; no stored ID token for profile \(configuration.profile)")
        }
        guard stored.issuer == issuer.absoluteString else {
            return DoctorCheck("jwks", .ok, detail + "; the stored ID token is from another issuer (\(stored.issuer)), not compared")
        }
        guard kids.contains(kid) else {
            return DoctorCheck(
                "jwks", .fail,
                detail
                    + "; the stored ID token of profile \(configuration.profile) names the key \(kid), which the issuer no longer publishes",
                fix: "log in again (idflow login-pkce) for a token signed with a current key", kind: .security)
        }
        detail += "; the stored ID token's key \(kid) is published"
        return DoctorCheck("jwks", .ok, detail)
    }
}
