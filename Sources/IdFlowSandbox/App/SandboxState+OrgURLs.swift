import Foundation
import URINormalization

/// The URLs a client's signed claims may name for this org: a DPoP proof's `htu` and a client assertion's `aud`.
/// Only the org URL and its configured host aliases (`orgHostAliases`) count, never the request's `Host` header:
/// a server that received a token and proof could otherwise replay them here by sending the Host its proof names.
extension SandboxState {
    /// The normalised URLs of `path` (query and fragment left out) at the org URL and at each alias, which is the
    /// org URL with another host.
    func endpointURLs(path: String) -> Set<String> {
        let path = VerifiedDPoPProof.withoutQuery(path)
        var origins = [orgURL]
        if let components = URLComponents(string: orgURL), let scheme = components.scheme {
            let port = components.port.map { ":\($0)" } ?? ""
            for alias in configuration.orgHostAliases {
                let host = alias.contains(":") && !alias.hasPrefix("[") ? "[\(alias)]" : alias
                origins.append("\(scheme)://\(host)\(port)")
            }
        }
        return Set(origins.compactMap { URINormalization.normalized($0 + path) })
    }

    /// Whether `url`, as a client signed it, names `path` at this org (after RFC 3986 normalisation of both).
    func names(_ url: String, path: String) -> Bool {
        URINormalization.normalized(url).map(endpointURLs(path: path).contains) ?? false
    }
}
