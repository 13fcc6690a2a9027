import Foundation

/// Builds URLs under an org, escaping each path segment so an id or login can never change the path.
package struct OrgEndpoint: Sendable {
    package let orgURL: URL

    package init(orgURL: URL) { self.orgURL = orgURL }

    private static let segmentAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/;?#"))

    package func url(_ segments: [String], query: [(String, String)] = []) -> URL {
        var components = URLComponents(url: orgURL, resolvingAgainstBaseURL: false)!
        let base =
            components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath =
            base + "/" + segments.map { $0.addingPercentEncoding(withAllowedCharacters: Self.segmentAllowed) ?? $0 }.joined(separator: "/")
        if !query.isEmpty {
            components.percentEncodedQuery = FormEncoding.encode(query)
        }
        return components.url!
    }

    /// Whether `url` is on this org (same scheme, host and port), so a link from a response can be followed
    /// without sending a password or token to somewhere else.
    package func contains(_ url: URL) -> Bool {
        guard let origin = Origin(url) else { return false }
        return origin == Origin(orgURL)
    }
}
