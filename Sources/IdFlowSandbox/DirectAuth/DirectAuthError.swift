import HTTPTypes
import Hummingbird

/// An OAuth error of the Direct Authentication endpoints and grants: `{"error","error_description"}` plus, for
/// `mfa_required`, `mfa_token` and `supported_challenge_types`; `Content-Type: application/json` with no charset,
/// which the Kotlin SDK insists on (direct-auth.md §1). Texts are Okta's error catalogue's (direct-auth.md §§4.4,
/// 5.2, 5.3, 6.3, 7), and only standard `error` values go on the wire.
struct DirectAuthError: HTTPResponseError, Sendable {
    let status: HTTPResponse.Status
    let error: String
    let errorDescription: String
    var extra: [(String, OrderedJSON)] = []

    init(_ status: HTTPResponse.Status, _ error: String, _ description: String) {
        self.status = status
        self.error = error
        self.errorDescription = description
    }

    /// The same error as the sandbox's other OAuth errors give it (client authentication, DPoP, scopes).
    init(_ other: OAuthErrorResponse) {
        self.init(other.status, other.error, other.errorDescription)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        DirectAuthWire.json(
            .object(JSONObject([("error", .string(error)), ("error_description", .string(errorDescription))] + extra)), status: status)
    }

    /// Runs `body`, giving any OAuth error it throws this shape.
    static func reshaping<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as OAuthErrorResponse { throw DirectAuthError(error) }
    }

    // MARK: The catalogue

    static func mfaRequired(mfaToken: String, challengeTypes: [DirectAuthGrant]) -> Self {
        var error = Self(.forbidden, "mfa_required", "Verify with an additional authenticator to complete the sign-in process.")
        error.extra = [
            ("mfa_token", .string(mfaToken)),
            ("supported_challenge_types", .string(challengeTypes.map(\.rawValue).joined(separator: " "))),
        ]
        return error
    }

    static let authorizationPending = Self(
        .badRequest, "authorization_pending",
        "No user response received on the out-of-band authenticator yet. Continue polling to wait for a response.")
    static let slowDown = Self(.badRequest, "slow_down", "Slow down the polling frequency. Please try again later.")
    static let oobRejected = Self(.badRequest, "invalid_grant", "User rejected out-of-band authentication prompt.")
    static func expired(_ name: String) -> Self {
        Self(.forbidden, "access_denied", "'\(name)' has expired. Use a new '\(name)' and try again.")
    }
    static let notAssociated = Self(
        .badRequest, "invalid_request",
        "The 'oob_code' and the 'mfa_token' provided are not associated with each other. Review the values and try again.")
    static let invalidOTP = Self(
        .badRequest, "invalid_grant", "The 'otp' provided is either empty or incorrect. Use the correct OTP and try again.")
    static let invalidCredentials = Self(.badRequest, "invalid_grant", "The credentials provided were invalid.")
    static let invalidLoginHint = Self(.badRequest, "invalid_grant", "The 'login_hint' does not uniquely identify a user.")
    static let missingLoginHint = Self(.badRequest, "invalid_request", "A 'login_hint' is required for the request.")
    static func invalidChallengeHint(_ value: String) -> Self {
        Self(.badRequest, "invalid_request", "'\(value)' is not supported as a 'challenge_hint'. Try again with another value.")
    }
    static func invalidChannelHint(_ value: String) -> Self {
        Self(.badRequest, "invalid_request", "'\(value)' is not supported as a 'channel_hint'. Try again with another value.")
    }
    static func invalidChallengeType(_ value: String) -> Self {
        Self(.badRequest, "invalid_request", "\(value) is not supported as a 'challenge_type'. Try again with another value.")
    }
    static func invalidGrantTypeSupported(_ value: String) -> Self {
        Self(
            .badRequest, "invalid_request",
            "\(value) is not supported as a 'grant_type'. Remove or replace the value and try again.")
    }
    static func grantTypesNotSufficient(_ value: String) -> Self {
        Self(
            .forbidden, "access_denied",
            "The 'grant_types_supported' '\(value)' are not sufficient to satisfy the authentication policy. Configure additional "
                + "grant types for the client or revise the authentication policy to allow the user to sign-in.")
    }
    static let promptedGrantDisabled = Self(
        .forbidden, "access_denied", "The grant types required to satisfy sign on policy are disabled for the client.")
    static let policyDenied = Self(
        .forbidden, "access_denied",
        "User couldn't be signed-in through direct authentication because authentication policy wasn't satisfied.")
    static let enrollmentRequired = Self(
        .forbidden, "access_denied",
        "The required authenticator cannot be used. Check if it is required by policy and the user is enrolled in the "
            + "authenticator and try again.")
    static func clientChanged(_ given: String, original: String) -> Self {
        Self(
            .unauthorized, "invalid_client",
            "The client_id '\(given)' does not match the client_id in the original request '\(original)'. Use the original "
                + "client id and try again.")
    }
    static func serverChanged(_ given: String, original: String) -> Self {
        Self(
            .badRequest, "invalid_request",
            "The authorization server id '\(given)' in the url_path parameter does not match the authorization server id in the "
                + "original request '\(original)'. Use the original authorization server id and try again.")
    }
    static func scopesChanged(_ given: [String], original: [String]) -> Self {
        Self(
            .badRequest, "invalid_scope",
            "The requested scopes '\(given.joined(separator: " "))' do not match the scopes requested in the original request "
                + "'\(original.joined(separator: " "))'. Use the originally requested scopes and try again.")
    }
    // MARK: Passkeys (direct-auth.md §6.3)

    static let webAuthnFieldsMissing = Self(
        .badRequest, "invalid_request", "WebAuthn requests must contain 'authenticatorData', 'clientDataJSON', and 'signature'.")
    static let webAuthnClientDataUnreadable = Self(
        .badRequest, "invalid_request", "'clientDataJSON' is not a Base64 encoded JSON string containing a 'challenge'.")
    static let noPendingWebAuthnChallenge = Self(.badRequest, "invalid_grant", "There is no pending WebAuthn challenge for the request.")
    static let webAuthnNotAssociated = Self(
        .badRequest, "invalid_request",
        "The 'challenge' and the 'mfa_token' provided are not associated with each other. Review the values and try again.")

    /// A refused assertion: Okta's one message whatever check failed (the reason stays in the sandbox).
    init(_ failure: WebAuthnFailure) {
        let (error, description) = failure.directAuthError
        self.init(.badRequest, error, description)
    }

    // MARK: The recovery intent (direct-auth.md §9.1)

    static func invalidIntent(_ value: String) -> Self {
        Self(.badRequest, "invalid_request", "'\(value)' is an invalid intent.")
    }
    static let intentRequired = Self(.badRequest, "invalid_request", "The intent parameter is required.")
    static func scopeNotForIntent(_ scope: String, intent: String) -> Self {
        Self(.badRequest, "invalid_scope", "scope '\(scope)' cannot be requested with intent '\(intent)'.")
    }
    /// A recovery with a factor the password policy's recovery authenticators do not name (the password, which
    /// is never one, included). Which of the catalogue's recovery refusals Okta sends for each case was not
    /// recorded; this one says what is wrong in every case *(inferred)*.
    static let recoveryAuthenticatorNotEnabled = Self(
        .forbidden, "access_denied", "Authenticators required by recovery policy are not enabled authenticators.")

    /// A grant the app does not have: Okta's answer for an app whose grant types lack it (the same shape as the
    /// device grant's), naming the grants it has.
    static func unauthorizedClient(configured: [String]) -> Self {
        Self(
            .badRequest, "unauthorized_client",
            "The client is not authorized to use the provided grant type. Configured grant types: [\(configured.joined(separator: ", "))].")
    }
}
