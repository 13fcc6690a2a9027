import Foundation
import IdFlowFoundation

/// Starts a primary out-of-band authentication (§3.2): `/primary-authenticate` with `challenge_hint`, or its older
/// name `/oob-authenticate` without it (§3.3). nil when the newer endpoint is not there (404), so the older is tried.
struct PrimaryAuthenticateRequest: APIRequest {
    var endpoints: DirectAuthEndpoints
    var client: ClientCredentials
    var username: String
    var channel: OOBChannel
    var acrValues: String?
    /// `/oob-authenticate`, the name older servers know.
    var legacy = false
    /// `intent=recovery` on every request of a password recovery; nil for a sign-in.
    var intent: DirectAuthIntent? = nil

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        var fields = [("login_hint", username), ("channel_hint", channel.rawValue)]
        if !legacy { fields.insert(("challenge_hint", DirectAuthGrant.oob.rawValue), at: 0) }
        if let acrValues { fields.append(("acr_values", acrValues)) }
        if let intent { fields.append(("intent", intent.rawValue)) }
        return client.formRequest(legacy ? endpoints.oobAuthenticate : endpoints.primaryAuthenticate, fields: fields)
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> OOBStart? {
        if response.status == 404, !legacy { return nil }
        guard response.isSuccess else { throw DirectAuthRefusal.error(response, grant: .oob, client: client) }
        return try OOBStart.parse(response.body)
    }
}

/// What `/challenge` answered: an out-of-band start, the acknowledgement that an OTP is awaited, or a passkey's
/// request options.
enum ChallengeAnswer: Sendable, Equatable {
    case oob(OOBStart)
    case otp
    case webAuthn(PasskeyStart)
}

/// Starts the second factor after `mfa_required` (§3.4), naming the one grant wanted.
struct ChallengeRequest: APIRequest {
    var endpoint: URL
    var client: ClientCredentials
    var mfaToken: String
    var grant: DirectAuthGrant
    var channel: OOBChannel?
    var acrValues: String?

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        var fields = [("mfa_token", mfaToken), ("challenge_types_supported", grant.rawValue)]
        if let channel { fields.append(("channel_hint", channel.rawValue)) }
        if let acrValues { fields.append(("acr_values", acrValues)) }
        return client.formRequest(endpoint, fields: fields)
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> ChallengeAnswer {
        guard response.isSuccess else { throw DirectAuthRefusal.error(response, grant: grant, client: client) }
        if grant == .mfaOTP { return .otp }
        if grant == .mfaWebAuthn { return .webAuthn(try PasskeyStart.parse(response.body)) }
        return .oob(try OOBStart.parse(response.body))
    }
}

/// One Direct Authentication grant at the token endpoint (§3.1). Waiting answers and `mfa_required` are
/// outcomes; every refusal is an error with what to do about it.
struct DirectTokenRequest: APIRequest {
    var endpoint: URL
    var client: ClientCredentials
    var grant: DirectAuthGrant
    var scope: String
    var acrValues: String?
    /// The grant's own fields (`username`/`password`, `login_hint`/`otp`, `oob_code`, `mfa_token`, `binding_code`).
    var fields: [(String, String)]
    /// `intent=recovery` on every request of a password recovery; nil for a sign-in.
    var intent: DirectAuthIntent? = nil

    enum Outcome: Sendable, Equatable {
        case tokens(TokenResponse)
        case mfaRequired(MFARequired)
        /// The push is not answered yet.
        case pending
        /// Polled too often: 5 s more between polls from now on.
        case slowDown
    }

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        var form = [("grant_type", grant.rawValue), ("scope", scope)] + fields
        if let acrValues { form.append(("acr_values", acrValues)) }
        if let intent { form.append(("intent", intent.rawValue)) }
        return TokenGrant.request(endpoint, client: client, fields: form)
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> Outcome {
        if let mfa = try MFARequired.parse(status: response.status, body: response.body) { return .mfaRequired(mfa) }
        if !response.isSuccess, case .oauth(_, let body, nil) = response.failure() {
            switch body.error {
            case "authorization_pending": return .pending
            case "slow_down": return .slowDown
            default: throw DirectAuthRefusal.error(response, grant: grant, client: client)
            }
        }
        if MFAAttestation.isAsked(acrValues), let attested = try MFAAttestation.tokens(response) { return .tokens(attested) }
        return .tokens(try TokenGrant.decode(response, client: client, hint: DirectAuthRefusal.retryHint(grant)))
    }
}

/// The refusals of Direct Authentication, each with what to change (§§2, 5.2, 7).
enum DirectAuthRefusal {
    static func error(_ response: HTTPResponse, grant: DirectAuthGrant, client: ClientCredentials) -> IdFlowError {
        let failure = response.failure()
        guard case .oauth(let status, let body, nil) = failure else { return failure }
        let description = body.errorDescription ?? body.error
        switch body.error {
        case "unsupported_grant_type", "unauthorized_client":
            return .authentication(
                "the app may not use the \(grant.consoleName) grant (\(body.error): \(description))",
                hint: grantHint(grant))
        case "invalid_grant" where description.lowercased().contains("reject"):
            return .denied("the push was rejected on the phone (\(description))", hint: "run login-direct again and approve it")
        case "access_denied" where description.lowercased().contains("expired"), "expired_token":
            return .timedOut("the sign-in expired before it was answered (\(description))", hint: "run login-direct again")
        case "access_denied":
            return .oauth(
                status: status, body: body,
                hint: "the push was denied, or the authentication policy does not allow this way in; run login-direct again or try another")
        case "invalid_request" where description.lowercased().contains("channel"):
            return .oauth(status: status, body: body, hint: "choose another --oob channel (push, sms or voice)")
        case "invalid_grant", "invalid_client", "invalid_dpop_proof":
            do {
                _ = try TokenGrant.decode(response, client: client, hint: retryHint(grant))
                return failure
            } catch { return error }
        default:
            return failure
        }
    }

    /// Which grant type to turn on, and where: the app's, and the authorization server's access policy rule.
    static func grantHint(_ grant: DirectAuthGrant) -> String {
        let needed =
            [DirectAuthGrant.mfaOTP, .mfaOOB, .mfaWebAuthn].contains(grant)
            ? "\"Resource Owner Password\" and \"\(grant.consoleName)\"" : "\"\(grant.consoleName)\""
        return
            "turn on the grant type \(needed) for the app in Okta's admin console (Applications > the app > General > Grant type), and allow it in the authorization server's access policy rule"
    }

    static func retryHint(_ grant: DirectAuthGrant) -> String {
        switch grant {
        case .otp, .mfaOTP: return "the code was wrong, expired or already used; run login-direct again with a fresh code"
        case .password: return "check the username and password"
        case .webAuthn, .mfaWebAuthn:
            return "the server did not accept the passkey (`idflow passkey list` shows those kept here; a copied one is "
                + "refused once the original has signed in); run login-direct again"
        default: return "run login-direct again"
        }
    }
}
