import Foundation

@testable import IdFlowCore
@testable import IdFlowFoundation

extension FuzzTargets {
    /// An answer of Okta's management and Authn APIs, status, headers and body all arbitrary: each endpoint's reading
    /// of it (users, lifecycle calls, Authn transactions, factor polls), the error it becomes and the error document
    /// printed for it, the rate-limit headers a batch paces by, `Retry-After`, `WWW-Authenticate` and `DPoP-Nonce`.
    static let oktaResponse = FuzzTarget(
        name: "okta-response",
        summary: "Okta users and Authn answers, error bodies, rate-limit, Retry-After, WWW-Authenticate and DPoP-Nonce headers"
    ) { input in
        let org = URL(string: "https://example.okta.com")!
        let response = FuzzInput.response(input, url: org.appendingPathComponent("api/v1/users"))
        let authorization = ManagementAuthorization.apiToken(Secret("fuzz-api-token"))
        var reader = AnswerReader(response)
        reader.record(response.failure())
        reader.record(response.failure(hint: "a hint"))
        func read<R: APIRequest>(_ request: R) -> R.Response? { reader.read(request) }

        _ = read(CreateUserRequest(orgURL: org, authorization: authorization, profile: [:], activate: false))
        _ = read(GetUserRequest(orgURL: org, authorization: authorization, user: "jo@example.com"))
        _ = read(ActivateUserRequest(orgURL: org, authorization: authorization, userID: "00u1", sendEmail: false))
        _ = read(LifecycleRequest(orgURL: org, authorization: authorization, userID: "00u1", path: ["lifecycle", "unlock"], query: []))
        if let token = try? ActivationToken("fuzzActivationToken1"), let transaction = read(RedeemTokenRequest(orgURL: org, token: token)) {
            _ = try? AuthnRequests.stateToken(of: transaction)
            _ = try? AuthnRequests.link(transaction.links?.skip, orgURL: org, default: ["api", "v1", "authn", "skip"])
            _ = try? ResetPasswordRequest(orgURL: org, transaction: transaction, newPassword: Secret("n3w-Passw0rd")).httpRequest()
        }
        _ = read(PrimaryAuthenticationRequest(orgURL: org, username: "jo@example.com", password: Secret("s3cret")))
        _ = read(FactorVerifyRequest(orgURL: org, link: "https://example.okta.com/api/v1/authn/factors/f1/verify", stateToken: "st"))
        _ = read(UsersProbeRequest(orgURL: org, authorization: authorization))

        reader.showErrors()

        // Headers every call reads.
        _ = RetryPolicy(maxRetries: 3).delay(before: 1, after: response, jitter: .zero)
        var pacer = RateLimitPacer()
        let now = ContinuousClock.now
        _ = pacer.reserve(now: now)
        pacer.observe(RateLimitPacer.Observation(headers: response.headers, now: Date()), now: now)
        _ = pacer.reserve(now: now)
        let challenges = BearerChallenge.parse(response.header("WWW-Authenticate") ?? "")
        _ = BearerChallenge.bearer(in: response.header("WWW-Authenticate"))
        if let challenge = ManagementRefusal.challenge(response, authorization) {
            _ = ManagementRefusal.tokenRefused(challenge, status: response.status)
            _ = ManagementRefusal.error(challenge, status: response.status, method: "POST", url: response.url)
        }
        _ = challenges.count
        _ = DPoPNonces.challenge(in: response)
    }
}
