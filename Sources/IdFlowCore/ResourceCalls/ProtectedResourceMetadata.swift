import Foundation
import IdFlowFoundation

/// A protected resource's metadata (RFC 9728 §2): which authorization servers issue its tokens, and which
/// scopes it knows. Only what idflow acts on is read; the rest of the document is ignored.
public struct ProtectedResourceMetadata: Decodable, Sendable, Equatable {
    /// The resource identifier: an https (or loopback http) URL without a fragment.
    public var resource: String
    /// The issuers whose tokens the resource accepts.
    public var authorizationServers: [String]
    public var scopesSupported: [String]?
    public var bearerMethodsSupported: [String]?

    enum CodingKeys: String, CodingKey {
        case resource
        case authorizationServers = "authorization_servers"
        case scopesSupported = "scopes_supported"
        case bearerMethodsSupported = "bearer_methods_supported"
    }

    public init(resource: String, authorizationServers: [String], scopesSupported: [String]? = nil, bearerMethodsSupported: [String]? = nil)
    {
        self.resource = resource
        self.authorizationServers = authorizationServers
        self.scopesSupported = scopesSupported
        self.bearerMethodsSupported = bearerMethodsSupported
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        resource = try container.decode(String.self, forKey: .resource)
        authorizationServers = try container.decodeIfPresent([String].self, forKey: .authorizationServers) ?? []
        scopesSupported = try container.decodeIfPresent([String].self, forKey: .scopesSupported)
        bearerMethodsSupported = try container.decodeIfPresent([String].self, forKey: .bearerMethodsSupported)
    }

    /// Whether this document may speak for `url`, the URL idflow called. RFC 9728 §3.3 wants `resource` to be
    /// exactly that URL; idflow also accepts a resource identifier that is the same origin and a path prefix of
    /// it at a segment boundary (`https://api.example.com/v1` for `…/v1/orders`), as the update of that rule
    /// in draft-mcguinness-oauth-rfc9728bis does, because one API serves many paths under one identifier.
    /// Anything else is a metadata document for another resource, which must not decide where tokens go.
    public func describes(_ url: URL) -> Bool {
        guard let identifier = URL(string: resource), identifier.fragment == nil,
            Origin(identifier) == Origin(url)
        else { return false }
        let prefix = identifier.path.hasSuffix("/") ? String(identifier.path.dropLast()) : identifier.path
        let path = url.path
        guard path == prefix || prefix.isEmpty || path.hasPrefix(prefix + "/") else { return false }
        // A resource identifier with a query names that exact URL only.
        if let query = identifier.query { return path == prefix && url.query == query }
        return true
    }

    /// Whether `issuer` is one of the authorization servers (a trailing slash aside).
    public func trusts(issuer: String) -> Bool {
        authorizationServers.contains { Self.normalized($0) == Self.normalized(issuer) }
    }

    static func normalized(_ issuer: String) -> String {
        issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
    }
}

/// Fetches a resource's metadata document (RFC 9728 §3), without any credential.
struct ProtectedResourceMetadataRequest: APIRequest {
    var url: URL

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        .get(url)
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> ProtectedResourceMetadata {
        guard response.isSuccess else {
            throw .protocolViolation(
                "the resource's metadata at \(Redactor.url(url.absoluteString)) could not be read (HTTP \(response.status))")
        }
        return try response.decode(ProtectedResourceMetadata.self)
    }
}
