import Foundation
import IdFlowFoundation

/// The relying party a passkey is made for and signs for (webauthn.md §3): its RP ID, and the origin idflow
/// actually talked to. Okta's documents carry no `rp.id`, so the RP ID is derived; whatever a document names is
/// accepted only when it is the org's own host or a registrable suffix of it, the rule a browser applies (W3C
/// §5.1.3), so that a document cannot borrow another site's passkeys.
public struct RelyingParty: Sendable, Equatable {
    /// The RP ID whose SHA-256 opens every authenticator data.
    public let id: String
    /// `scheme://host[:port]` of the org or custom domain the requests went to: `clientDataJSON.origin`.
    public let origin: Origin

    /// `requestedId` is `rp.id` (enrolment) or `rpId` (challenge) when the document has one; `appId` is
    /// `u2fParams.appid` or `extensions.appid`. Without either, the RP ID is the host of `origin`.
    public init(origin url: URL, requestedId: String? = nil, appId: String? = nil) throws(IdFlowError) {
        guard let origin = Origin(url) else {
            throw .invalidInput("the org URL \(url.absoluteString) has no host")
        }
        let candidate: String
        let source: String
        if let requestedId, !requestedId.isEmpty {
            (candidate, source) = (requestedId, "the RP ID \(requestedId)")
        } else if let appId, !appId.isEmpty {
            guard let host = Origin(string: appId)?.host else {
                throw .security(
                    "the WebAuthn app id \(appId) names no host",
                    hint: "the org's document is not one idflow can make a passkey for")
            }
            (candidate, source) = (host, "the app id \(appId)")
        } else {
            (candidate, source) = (origin.host, "the org host")
        }
        let id = Self.normalized(candidate)
        guard Self.isRegistrableSuffix(id, of: origin.host) else {
            throw .security(
                "\(source) is not \(origin.host) or a domain it belongs to; "
                    + "a passkey made or used for \(id) could sign in elsewhere",
                hint: "idflow signs only for the site it talks to: check the org URL (--org-url)")
        }
        self.id = id
        self.origin = origin
    }

    /// SHA-256 of the RP ID's UTF-8 bytes: the first 32 bytes of authenticator data (W3C §6.1).
    public var idHash: [UInt8] { Digests.sha256(Array(id.utf8)) }

    /// `clientDataJSON.origin`: the origin's URL with no path and no trailing slash.
    public var originText: String { origin.description }

    private static func normalized(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasSuffix("."), host.count > 1 { host.removeLast() }
        return host
    }

    /// Whether `id` is `host` itself or a parent domain of it that could be registered: on a label boundary, at
    /// least two labels (a bare `com` is a public suffix), and never a suffix of an IP address, whose parts are no
    /// domains.
    static func isRegistrableSuffix(_ id: String, of host: String) -> Bool {
        guard !id.isEmpty else { return false }
        if id == host { return true }
        let isAddress = host.contains(":") || host.split(separator: ".").allSatisfy { $0.allSatisfy(\.isNumber) }
        guard !isAddress, host.hasSuffix("." + id) else { return false }
        let labels = id.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
    }
}
