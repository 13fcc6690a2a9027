import Foundation
import IdFlowFoundation

/// The resolved configuration: every setting with its value (secrets as present or absent) and where it came
/// from; a configuration that cannot be resolved is a failed check, with the resolver's own message and fix.
enum ConfigurationCheck {
    static func run(settings: [SettingProvenance], resolved: Result<IdFlowContext, IdFlowError>) -> DoctorCheck {
        let listing = settings.map(\.summary).joined(separator: "; ")
        switch resolved {
        case .failure(let error):
            return DoctorCheck("configuration", .fail, "\(error.message); \(listing)", fix: error.hint, kind: .rejected)
        case .success(let context):
            let configuration = context.configuration
            if configuration.orgURL == nil, configuration.issuer == nil {
                return DoctorCheck(
                    "configuration", .warn, "no org URL or issuer configured; \(listing)",
                    fix: "for any OpenID provider set its issuer (--issuer, IDFLOW_ISSUER or the profile's issuer); "
                        + "for an Okta org --org-url https://dev-123.okta.com or OKTA_CLIENT_ORGURL")
            }
            let kind = configuration.isOpenIDProviderProfile ? "a profile for any OpenID provider (an issuer, no org URL)" : "an Okta org"
            return DoctorCheck("configuration", .ok, "\(kind); \(listing)")
        }
    }
}
