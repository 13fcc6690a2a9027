import Foundation
import URINormalization

/// The URI a DPoP proof's `htu` and a client assertion's `aud` name (RFC 9449 §4.2–4.3): the request's URL without
/// user info, query and fragment, in RFC 3986's normal form (`URINormalization`, the one the sandbox compares in).
/// It is also the path libcurl sends: libcurl removes dot segments before it sends a path, so `HTTP://h/a/../b` is a
/// request for `http://h/b`, and a proof must name that one.
enum NormalizedURI {
    static func of(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return components.string.flatMap(URINormalization.normalized) ?? url.absoluteString
    }
}
