import HTTPTypes
import Hummingbird

/// An Okta management/Authn API error, rendered exactly as real orgs do:
/// `{"errorCode","errorSummary","errorLink","errorId","errorCauses":[{"errorSummary"}]}`.
///
/// It is an `HTTPResponseError`, so a handler just throws it; Hummingbird's own
/// `HTTPError` would render `{"error":{"message"}}`, which no Okta client understands.
struct OktaErrorResponse: HTTPResponseError, Sendable {
    let status: HTTPResponse.Status
    let errorCode: String
    let errorSummary: String
    let errorCauses: [String]
    /// Extra headers for this error only (a 429 forces `X-Rate-Limit-Remaining: 0`).
    var headers: HTTPFields = [:]
    /// Leaves `errorCauses` out when there are none, as the MyAccount app-authenticator API's
    /// recorded errors do (`okta-devices/error-*.json`).
    var omitsEmptyCauses = false

    init(_ status: HTTPResponse.Status, _ code: String, _ summary: String, causes: [String] = []) {
        self.status = status
        self.errorCode = code
        self.errorSummary = summary
        self.errorCauses = causes
    }

    var body: OrderedJSON {
        var body: JSONObject = [
            "errorCode": .string(errorCode),
            "errorSummary": .string(errorSummary),
            "errorLink": .string(errorCode),
            "errorId": .string(RandomToken.errorID()),
        ]
        if !(omitsEmptyCauses && errorCauses.isEmpty) {
            body["errorCauses"] = .array(errorCauses.map { ["errorSummary": .string($0)] })
        }
        return .object(body)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = Response.json(body, status: status)
        response.headers.append(contentsOf: headers)
        return response
    }
}

extension OktaErrorResponse {
    /// E0000001: a field failed validation; each cause reads "field: reason".
    static func validation(_ field: String, causes: [String]) -> Self {
        Self(.badRequest, "E0000001", "Api validation failed: \(field)", causes: causes)
    }

    /// E0000003: the body is not JSON (or not the JSON the endpoint expects).
    static let malformedBody = Self(.badRequest, "E0000003", "The request body was not well-formed.")

    /// E0000004: bad credentials, or an unknown, used or expired activation token.
    static let authenticationFailed = Self(.unauthorized, "E0000004", "Authentication failed")

    /// E0000007: `Not found: Resource not found: {id} ({Type})`.
    static func notFound(_ id: String, type: String) -> Self {
        Self(.notFound, "E0000007", "Not found: Resource not found: \(id) (\(type))")
    }

    /// E0000009: an unexpected failure inside the sandbox (a bug); the cause says what.
    static func internalError(_ cause: String) -> Self {
        Self(.internalServerError, "E0000009", "Internal Server Error", causes: [cause])
    }

    /// E0000011: a missing or wrong SSWS token, or an unknown or expired state token.
    static let invalidToken = Self(.unauthorized, "E0000011", "Invalid token provided")

    /// E0000016: activating a user who is already ACTIVE (or PROVISIONED).
    static let alreadyActive = Self(.forbidden, "E0000016", "Activation failed because the user is already active")

    /// E0000022: the path exists but not for this method.
    static let methodNotAllowed = Self(
        .methodNotAllowed, "E0000022", "The endpoint does not support the provided HTTP method")

    /// E0000031: a `search` or `filter` expression the sandbox cannot parse.
    static func invalidSearch(_ cause: String) -> Self {
        Self(.badRequest, "E0000031", "Invalid search criteria.", causes: [cause])
    }

    /// E0000038: a lifecycle operation the user's status does not allow.
    static let operationNotAllowedForStatus = Self(
        .forbidden, "E0000038", "This operation is not allowed in the user's current status.")

    /// E0000047: the endpoint family's rate limit is exhausted.
    static let rateLimited = Self(.tooManyRequests, "E0000047", "API call exceeded rate limit due to too many requests.")

    /// E0000079: a state token used in a transaction state that does not allow the call.
    static let wrongAuthnState: Self = {
        let summary = "This operation is not allowed in the current authentication state."
        return Self(.forbidden, "E0000079", summary, causes: [summary])
    }()

    /// E0000080: a new password failed the policy. Worded as recorded (`error-E0000080-password-complexity.json`, "does
    /// meet" sic) with one cause listing every rule of the policy, not only the broken ones: what Okta sends.
    static let passwordPolicy = Self(
        .forbidden, "E0000080", "The password does meet the complexity requirements of the current password policy.",
        causes: [PasswordPolicy.requirements])

    /// E0000014: change_password with the wrong old password (`error-E0000014-change-password-wrong-old-password.json`).
    static let wrongOldPassword = Self(
        .forbidden, "E0000014", "Update of credentials failed", causes: ["oldPassword: The credentials provided were incorrect."])

    /// E0000032: `lifecycle/unlock` on a user who is not LOCKED_OUT (`error-E0000032-unlock-not-locked.json`).
    static let unlockNotAllowed = Self(
        .forbidden, "E0000032", "Unlock is not allowed for this user.", causes: ["The user is not locked out."])

    /// E0000034: `credentials/forgot_password` on a user who cannot reset a password (no password, not live).
    static let forgotPasswordNotAllowed = Self(.forbidden, "E0000034", "Forgot password not allowed on specified user.")

    /// E0000006: a recovery the password policy does not allow (the factor is not a recovery authenticator, or
    /// self-service unlock is off). Okta's exact answer was not recorded; this is its generic refusal.
    static let recoveryNotAllowed = Self(.forbidden, "E0000006", "You do not have permission to perform the requested action")

    /// E0000068: a wrong recovery code (`recovery/factors/{SMS|CALL}/verify`), worded as Okta's reference.
    static let invalidPasscode = Self(
        .forbidden, "E0000068", "Invalid Passcode/Answer", causes: ["Your token doesn't match our records. Please try again."])

    /// E0000087: a wrong recovery answer (`error-E0000087-wrong-recovery-answer.json`).
    static let wrongRecoveryAnswer = Self(.forbidden, "E0000087", "The recovery question answer did not match our records.")
}
