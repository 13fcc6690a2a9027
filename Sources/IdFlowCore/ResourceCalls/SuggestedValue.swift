import Foundation
import IdFlowFoundation

/// The grammar a value a server names must have before idflow puts it into a command it suggests (a hint's
/// `idflow login-pkce --issuer … --scope …`). A resource's 403 names its scopes and its metadata its
/// authorization servers: text a hostile server chooses. Quoting (`ShellWord.quote`) keeps it from running;
/// this keeps a value that is no scope or issuer at all out of the suggestion, which then leaves that flag out.
enum SuggestedValue {
    /// RFC 6749 §3.3: `scope = scope-token *( SP scope-token )`, `scope-token = 1*( %x21 / %x23-5B / %x5D-7E )`.
    static func isScope(_ text: String) -> Bool {
        text.split(separator: " ", omittingEmptySubsequences: false).allSatisfy { token in
            !token.isEmpty
                && token.unicodeScalars.allSatisfy {
                    $0.value == 0x21 || (0x23...0x5B).contains($0.value) || (0x5D...0x7E).contains($0.value)
                }
        }
    }

    /// An issuer identifier (RFC 8414 §2, OpenID Connect Discovery): an https URL, or http to a loopback host
    /// (the sandbox), with a host, and no user info, query or fragment.
    static func isIssuer(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty, components.user == nil, components.password == nil,
            components.query == nil, components.fragment == nil,
            text.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) })
        else { return false }
        return scheme == "https" || (scheme == "http" && TransportSecurity.isLoopback(host: host))
    }
}
