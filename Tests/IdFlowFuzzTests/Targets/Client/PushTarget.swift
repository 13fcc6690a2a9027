import Foundation

@testable import IdFlowCore
@testable import IdFlowFoundation

extension FuzzTargets {
    /// The push authenticator's side of an org: its MyAccount answers (organization, authenticator configuration,
    /// enrollment, maintenance token, the pending-challenge list) and a push challenge JWT, checked as `resolve` checks
    /// one: decoded, its binding to an enrollment, its times, and its signature against a key set.
    static let push = FuzzTarget(
        name: "push",
        summary: "device enrollment and pending-challenge answers, push challenge JWTs checked against a JWKS"
    ) { input in
        let parts = FuzzInput.parts(input, 3)
        let org = URL(string: "https://example.okta.com")!
        let response = FuzzInput.response(parts[0], url: org.appendingPathComponent("idp/myaccount/app-authenticators"))
        let token = Secret("fuzz-access-token")
        let enrollmentURL = org.appendingPathComponent("idp/myaccount/app-authenticators/aen1")
        var reader = AnswerReader(response)
        func read<R: APIRequest>(_ request: R) -> R.Response? { reader.read(request) }

        _ = read(OktaOrganizationRequest(orgURL: org))
        _ = read(AppAuthenticatorConfigurationRequest(orgURL: org, clientID: "0oafuzz", accessToken: token))
        if let enrollment = read(EnrollAuthenticatorRequest(url: enrollmentURL, accessToken: token, body: [:])) {
            _ = EnrollmentOutput(pushRecord(org: org, enrollment: enrollment.id))
        }
        _ = read(UpdateEnrollmentRequest(url: enrollmentURL, accessToken: token, push: [:]))
        _ = read(DeleteEnrollmentRequest(url: enrollmentURL, accessToken: token))
        let maintenance = "okta.myAccount.appAuthenticator.maintenance.read"
        _ = read(MaintenanceTokenRequest(orgURL: org, clientID: "0oafuzz", scope: maintenance, assertion: "a"))
        let verifyURL = org.appendingPathComponent("idp/authenticators/verify")
        _ = read(ChallengeVerifyRequest(url: verifyURL, method: "POST", challengeResponse: "r"))
        var challenges = read(PendingChallengesRequest(url: enrollmentURL.appendingPathComponent("pending"), accessToken: token)) ?? []
        if let challenge = try? PushChallenge(FuzzInput.text(parts[1])) { challenges.append(challenge) }

        reader.showErrors()

        let verifier = ChallengeVerifier(keys: StaticKeySet(jwks: parts[2]))
        for challenge in challenges {
            let record = pushRecord(org: org, enrollment: challenge.authenticatorEnrollmentId ?? "aen1")
            _ = try? ChallengeVerifier.checkBinding(challenge, to: record, org: org)
            blocking {
                _ = try? await verifier.verify(challenge, now: challenge.issuedAt)
            }
        }
    }

    private static func pushRecord(org: URL, enrollment: String) -> EnrollmentRecord {
        EnrollmentRecord(
            enrollmentId: enrollment, authenticatorId: "aut1", orgUrl: org.absoluteString, orgId: "00o1", oauthClientId: "0oafuzz",
            userId: "00u1", username: "jo@example.com", displayName: "fuzz", deviceId: "guo1", clientInstanceId: "cli1",
            methodEnrollmentId: "pfd1", pendingUrl: org.appendingPathComponent("pending").absoluteString, selfUrl: nil,
            pushToken: "push-token", proofOfPossessionKeyId: "kid1", userVerificationKeyId: nil, createdAt: Date(timeIntervalSince1970: 0))
    }
}
