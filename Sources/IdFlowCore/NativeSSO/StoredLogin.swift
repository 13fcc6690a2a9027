import Foundation
import IdFlowFoundation

/// Another profile's store, for the commands that read one login and write another (`--from`, `--subject-from`,
/// `--store-as`): the same state directory, the profile's own folder.
package enum StoredLogin {
    package static func store(of profile: String, _ context: IdFlowContext) throws(IdFlowError) -> TokenStore {
        guard !profile.isEmpty, !profile.contains("/"), profile != ".", profile != ".." else {
            throw .invalidInput("\(profile.isEmpty ? "an empty name" : profile) is not a profile name")
        }
        var configuration = context.configuration
        if profile != "default", let defined = configuration.definedProfiles, !defined.contains(profile),
            let file = configuration.profileFile
        {
            // Saved there, a login could never be read: every command's --profile refuses an undefined profile.
            throw ConfigurationResolver.undefinedProfile(profile, known: defined, file: file, option: "the profile")
        }
        configuration.profile = profile
        return TokenStore(directory: configuration.profileDirectory)
    }

    package static func load(_ profile: String, _ context: IdFlowContext, hint: String) throws(IdFlowError) -> StoredTokens {
        try store(of: profile, context).loadRequired(profile: profile, hint: hint)
    }

    /// The issuer of a stored login, checked like any URL idflow sends to.
    package static func issuer(_ stored: StoredTokens) throws(IdFlowError) -> URL {
        guard let url = URL(string: stored.issuer) else { throw .localState("the stored issuer \(stored.issuer) is not a URL") }
        try TransportSecurity.check(url)
        return url
    }

    /// The audience of an Okta authorization server, which its token exchange must name (native-sso.md §1.3):
    /// `api://{id}` for a custom server (`{org}/oauth2/{id}`), the issuer itself for the org's.
    package static func defaultAudience(_ issuer: URL) -> String {
        let parts = issuer.pathComponents.filter { $0 != "/" }
        if parts.count == 2, parts[0] == "oauth2" { return "api://\(parts[1])" }
        return issuer.absoluteString.hasSuffix("/") ? String(issuer.absoluteString.dropLast()) : issuer.absoluteString
    }
}
