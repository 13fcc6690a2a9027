import Foundation
import IdFlowFoundation

/// Redeems an activation (or recovery) token: a user without a password gets PASSWORD_RESET.
struct RedeemTokenRequest: APIRequest {
    var orgURL: URL
    var token: ActivationToken

    private struct Body: Encodable { var token: String }

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        try AuthnRequests.post(OrgEndpoint(orgURL: orgURL).url(["api", "v1", "authn"]), Body(token: token.secret.value))
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> AuthnTransaction {
        try AuthnRequests.decode(response, hint: token.purpose.refusedHint)
    }
}

/// Primary authentication with a username and password.
struct PrimaryAuthenticationRequest: APIRequest {
    var orgURL: URL
    var username: String
    var password: Secret

    private struct Body: Encodable {
        struct Options: Encodable {
            /// Ask for PASSWORD_WARN when the password is about to expire, so the user hears of it (okta-core.md §F1).
            var warnBeforePasswordExpired = true
        }
        var username: String
        var password: String
        var options = Options()
    }

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        try AuthnRequests.post(OrgEndpoint(orgURL: orgURL).url(["api", "v1", "authn"]), Body(username: username, password: password.value))
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> AuthnTransaction {
        // Only Okta has the Authn API; another provider answers 404 (often with a body of its own), which is no
        // rejected request but the wrong way in for this provider.
        if response.status == 404 || response.status == 405 {
            throw .invalidInput(
                "--username signs in through Okta's Authn API (POST /api/v1/authn), and \(orgURL.absoluteString) has none (HTTP \(response.status))",
                hint:
                    "against a provider that is not Okta, sign in with `idflow login-pkce --browser`, `--manual`, or `idflow login-device`")
        }
        return try AuthnRequests.decode(response, hint: "check the username and password")
    }
}

/// Sets the password of a PASSWORD_RESET transaction, at the `next` link the server gave.
struct ResetPasswordRequest: APIRequest {
    var orgURL: URL
    var transaction: AuthnTransaction
    var newPassword: Secret

    private struct Body: Encodable {
        var stateToken: String
        var newPassword: String
    }

    /// Refuses a `next` link off the org: the link comes from a response, and the password must only ever
    /// go to the org the user configured.
    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        let stateToken = try AuthnRequests.stateToken(of: transaction)
        let url = try AuthnRequests.link(
            transaction.links?.next, orgURL: orgURL, default: ["api", "v1", "authn", "credentials", "reset_password"])
        return try AuthnRequests.post(url, Body(stateToken: stateToken, newPassword: newPassword.value))
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> AuthnTransaction {
        try AuthnRequests.decode(response, hint: "if the transaction expired, start again with a new activation token or reset link")
    }
}

/// Ends an Authn transaction: POST `{"stateToken"}` to its `cancel` link (on the org), which also withdraws a
/// push it sent. Any 2xx is success whatever the body: Okta documents an empty answer for some flows and a
/// transaction for others, and nothing in it is needed.
struct CancelTransactionRequest: APIRequest {
    var orgURL: URL
    var link: String
    var stateToken: String

    private struct Body: Encodable { var stateToken: String }

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        guard let url = URL(string: link), OrgEndpoint(orgURL: orgURL).contains(url) else {
            throw .security(
                "the server's cancel link \(Redactor.url(link)) is not on the org \(orgURL.absoluteString); refusing to send the state token there"
            )
        }
        return try AuthnRequests.post(url, Body(stateToken: stateToken))
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) {
        guard response.isSuccess else { throw response.failure() }
    }
}

/// What the Authn requests share: a JSON POST without an API token, and the hints on a 401.
enum AuthnRequests {
    static func post(_ url: URL, _ body: some Encodable) throws(IdFlowError) -> HTTPRequest {
        do {
            return try .json("POST", url, body: body)
        } catch {
            throw .internalFailure("cannot encode an Authn request: \(error)")
        }
    }

    static func stateToken(of transaction: AuthnTransaction) throws(IdFlowError) -> String {
        guard let stateToken = transaction.stateToken else {
            throw .protocolViolation("the \(transaction.status) transaction carries no stateToken")
        }
        return stateToken
    }

    /// Where a transaction's link points, when it is on the org; else (no link) the documented path. A link comes
    /// from a response, and the state token and passwords must only ever go to the org the user configured.
    static func link(_ link: AuthnTransaction.Link?, orgURL: URL, default path: [String]) throws(IdFlowError) -> URL {
        let org = OrgEndpoint(orgURL: orgURL)
        guard let href = link?.href, let url = URL(string: href) else { return org.url(path) }
        guard org.contains(url) else {
            throw .security(
                "the server's \(link?.name ?? "next") link \(Redactor.url(href)) is not on the org \(org.orgURL.absoluteString); refusing to send the transaction there"
            )
        }
        return url
    }

    static func decode(_ response: HTTPResponse, hint: String) throws(IdFlowError) -> AuthnTransaction {
        guard response.isSuccess else {
            throw withHint(response.failure(), hint: hint)
        }
        return try response.decode(AuthnTransaction.self)
    }

    /// Adds a hint to authentication failures (401), where the server's summary alone says little.
    private static func withHint(_ error: IdFlowError, hint: String) -> IdFlowError {
        if case .okta(let status, let body, nil) = error, status == 401 {
            return .okta(
                status: status, body: body,
                hint: body.errorCode == "E0000011" ? "the transaction expired or was cancelled; start again" : hint)
        }
        return error
    }
}

/// Starts or polls a factor's verification: POST `{"stateToken"}` to the factor's `verify` link, then to
/// `_links.next` while the push is WAITING (okta-core.md §C4). The link must be on the org. The server's
/// `Retry-After`, when it sends one, says how long to wait before the next poll.
struct FactorVerifyRequest: APIRequest {
    var orgURL: URL
    var link: String
    var stateToken: String

    struct Answer: Sendable {
        var transaction: AuthnTransaction
        var retryAfter: Duration?
    }

    private struct Body: Encodable { var stateToken: String }

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        let org = OrgEndpoint(orgURL: orgURL)
        guard let url = URL(string: link), org.contains(url) else {
            throw .security(
                "the server's factor link \(Redactor.url(link)) is not on the org \(orgURL.absoluteString); refusing to send the state token there"
            )
        }
        return try AuthnRequests.post(url, Body(stateToken: stateToken))
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> Answer {
        let transaction = try AuthnRequests.decode(response, hint: "the sign-in transaction expired; start the login again")
        let retryAfter = response.header("Retry-After").flatMap(Int.init).map { Duration.seconds(max(0, min($0, 60))) }
        return Answer(transaction: transaction, retryAfter: retryAfter)
    }
}
