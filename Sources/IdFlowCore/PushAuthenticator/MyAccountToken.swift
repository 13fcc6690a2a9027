import Foundation
import IdFlowFoundation

/// The user's access token for the MyAccount calls (enroll, update, delete) and the OAuth client it was
/// issued to.
enum MyAccountToken {
    /// From stdin, or the profile's store, whose issuer must be on the org and whose token must not have expired.
    static func resolve(_ context: IdFlowContext, org: URL, fromStandardInput: Bool) throws(IdFlowError) -> (
        token: Secret, clientID: String?
    ) {
        if fromStandardInput {
            let token = try context.secrets.read("access token", from: .standardInput).value.trimmingCharacters(in: .whitespacesAndNewlines)
            return (Secret(token), context.configuration.clientID)
        }
        let stored = try TokenStore(directory: context.configuration.profileDirectory).loadRequired(
            profile: context.configuration.profile,
            hint:
                "log in first with `idflow login-pkce --scope \"openid profile offline_access okta.myAccount.appAuthenticator.manage\" …`, or pass --access-token-stdin"
        )
        guard let issuer = URL(string: stored.issuer), OrgEndpoint(orgURL: org).contains(issuer) else {
            throw .configuration(
                "the tokens stored for profile \(context.configuration.profile) were issued by \(stored.issuer), not by the org \(org.absoluteString); refusing to send them there",
                hint: "log in against this org, pass --access-token-stdin, or choose another --profile")
        }
        guard let access = stored.token(.access) else {
            throw .localState("no access token is stored for profile \(context.configuration.profile)", hint: "log in again")
        }
        if let expiry = stored.expiresAt, expiry <= context.now() {
            throw .authentication(
                "the access token stored for profile \(context.configuration.profile) expired at \(ISO8601.string(expiry))",
                hint: "run `idflow refresh`, or log in again")
        }
        return (Secret(access), context.configuration.clientID ?? stored.clientId)
    }
}
