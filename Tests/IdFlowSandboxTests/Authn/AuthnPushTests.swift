import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import Testing

@Suite("Authn with push MFA: MFA_REQUIRED, verify, poll, SUCCESS / REJECTED / TIMEOUT")
struct AuthnPushTests {
    static let password = "Correct-Horse-7"

    /// `POST /api/v1/authn` with the user's password.
    static func signIn(_ api: SandboxClient, _ login: String) async throws -> [String: Any] {
        let reply = try await api.send(
            .post, "/api/v1/authn", json: ["username": login, "password": password], headers: [.userAgent: "idflow/1.0 (Linux)"],
            auth: .none)
        #expect(reply.status == .ok, "\(reply.text)")
        return try reply.object()
    }

    /// POSTs the state token to an Authn link (verify, poll, resend, previous, cancel).
    static func post(_ api: SandboxClient, _ href: String, stateToken: String) async throws -> Reply {
        let path = try #require(URLComponents(string: href)?.path)
        return try await api.send(.post, path, json: ["stateToken": stateToken], headers: [.userAgent: "idflow/1.0 (Linux)"], auth: .none)
    }

    static func link(_ body: [String: Any], _ name: String) -> [String: Any]? {
        (body["_links"] as? [String: Any])?[name] as? [String: Any]
    }

    /// Signs in, picks the push factor and POSTs its verify link; returns the WAITING body.
    static func startPush(_ api: SandboxClient, _ device: EnrolledDevice) async throws -> (stateToken: String, body: [String: Any]) {
        let required = try await signIn(api, device.login)
        #expect(required["status"] as? String == "MFA_REQUIRED")
        let stateToken = try #require(required["stateToken"] as? String)
        let factors = try #require((required["_embedded"] as? [String: Any])?["factors"] as? [[String: Any]])
        #expect(factors.count == 1)
        let factor = try #require(factors.first)
        #expect(factor["id"] as? String == device.methodId && factor["factorType"] as? String == "push")
        let verify = try #require(((factor["_links"] as? [String: Any])?["verify"] as? [String: Any])?["href"] as? String)
        let waiting = try await post(api, verify, stateToken: stateToken)
        #expect(waiting.status == .ok, "\(waiting.text)")
        let body = try waiting.object()
        #expect(body["status"] as? String == "MFA_CHALLENGE" && body["factorResult"] as? String == "WAITING")
        #expect(link(body, "next")?["name"] as? String == "poll")
        return (stateToken, body)
    }

    @Test("approved on the device: the poll answers SUCCESS with a session token that /authorize accepts")
    func approved() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "mfa@example.com")
            let (stateToken, waiting) = try await Self.startPush(api, device)
            let poll = try #require(Self.link(waiting, "next")?["href"] as? String)
            let still = try await Self.post(api, poll, stateToken: stateToken).object()
            #expect(still["factorResult"] as? String == "WAITING")

            let challenge = try #require(try await api.pendingChallenges(device).first)
            let context = try #require(try jwtClaims(challenge)["challengeContext"] as? [String: Any])
            #expect(context["clientOS"] as? String == "Linux")
            #expect(try await api.respond(to: challenge, device: device).status == .ok)

            let success = try await Self.post(api, poll, stateToken: stateToken).object()
            #expect(success["status"] as? String == "SUCCESS")
            let sessionToken = try #require(success["sessionToken"] as? String)
            _ = try await api.accessToken(sessionToken: sessionToken, scope: "openid")
            // The transaction is over.
            let after = try await Self.post(api, poll, stateToken: stateToken)
            #expect(after.status == .forbidden)
            #expect(try after.oktaError().code == "E0000079")
        }
    }

    @Test("denied: REJECTED with a verify link; verifying again sends a new push")
    func rejected() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "no@example.com")
            let (stateToken, waiting) = try await Self.startPush(api, device)
            let poll = try #require(Self.link(waiting, "next")?["href"] as? String)
            let challenge = try #require(try await api.pendingChallenges(device).first)
            #expect(try await api.respond(to: challenge, device: device, consent: "DENIED_CONSENT_PROMPT").status == .noContent)
            let rejected = try await Self.post(api, poll, stateToken: stateToken).object()
            #expect(rejected["status"] as? String == "MFA_CHALLENGE" && rejected["factorResult"] as? String == "REJECTED")
            #expect(Self.link(rejected, "next")?["name"] as? String == "verify")
            let retry = try await Self.post(api, poll, stateToken: stateToken).object()
            #expect(retry["factorResult"] as? String == "WAITING")
            #expect(try await api.pendingChallenges(device).count == 1)
        }
    }

    @Test("nobody answers: TIMEOUT once the challenge expires on the sandbox clock")
    func timeout() async throws {
        try await withSandbox(configure: { $0.pushChallengeSeconds = 120 }) { api in
            let device = try await api.enrollDevice(email: "slow@example.com")
            let (stateToken, waiting) = try await Self.startPush(api, device)
            let poll = try #require(Self.link(waiting, "next")?["href"] as? String)
            try await api.advanceClock(seconds: 100)
            #expect(try await Self.post(api, poll, stateToken: stateToken).object()["factorResult"] as? String == "WAITING")
            try await api.advanceClock(seconds: 30)
            let timedOut = try await Self.post(api, poll, stateToken: stateToken).object()
            #expect(timedOut["factorResult"] as? String == "TIMEOUT")
            #expect(Self.link(timedOut, "next")?["name"] as? String == "verify")
        }
    }

    @Test("REQUIRED user verification from the config reaches sign-in challenges")
    func configuredUserVerification() async throws {
        try await withSandbox(configure: { $0.pushUserVerification = .required }) { api in
            let device = try await api.enrollDevice(email: "strictmfa@example.com", userVerification: true)
            let (stateToken, waiting) = try await Self.startPush(api, device)
            let challenge = try #require(try await api.pendingChallenges(device).first)
            #expect(try jwtClaims(challenge)["userVerification"] as? String == "REQUIRED")
            let uv = try #require(device.userVerification)
            #expect(try await api.respond(to: challenge, device: device, consent: "APPROVED_USER_VERIFICATION", key: uv).status == .ok)
            let poll = try #require(Self.link(waiting, "next")?["href"] as? String)
            #expect(try await Self.post(api, poll, stateToken: stateToken).object()["status"] as? String == "SUCCESS")
        }
    }

    @Test("mfaPolicy: never skips MFA; whenEnrolled only for enrolled users; always asks unenrolled users to enroll")
    func policies() async throws {
        try await withSandbox(configure: { $0.mfaPolicy = .never }) { api in
            let device = try await api.enrollDevice(email: "never@example.com")
            #expect(try await Self.signIn(api, device.login)["status"] as? String == "SUCCESS")
        }
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "plain@example.com", password: Self.password)
            #expect(try await Self.signIn(api, "plain@example.com")["status"] as? String == "SUCCESS")
        }
        try await withSandbox(configure: { $0.mfaPolicy = .always }) { api in
            _ = try await api.registerActiveUser(email: "enroll@example.com", password: Self.password)
            let enroll = try await Self.signIn(api, "enroll@example.com")
            #expect(enroll["status"] as? String == "MFA_ENROLL")
            let factors = try #require((enroll["_embedded"] as? [String: Any])?["factors"] as? [[String: Any]])
            #expect(factors.first?["factorType"] as? String == "push" && factors.first?["status"] as? String == "NOT_SETUP")
        }
    }

    @Test("previous goes back to MFA_REQUIRED, cancel ends the sign-in; both withdraw the push")
    func previousAndCancel() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "back@example.com")
            let (stateToken, waiting) = try await Self.startPush(api, device)
            let prev = try #require(Self.link(waiting, "prev")?["href"] as? String)
            let back = try await Self.post(api, prev, stateToken: stateToken).object()
            #expect(back["status"] as? String == "MFA_REQUIRED")
            #expect(try await api.pendingChallenges(device).isEmpty)

            let (second, again) = try await Self.startPush(api, device)
            let resend = try #require((((again["_links"] as? [String: Any])?["resend"] as? [[String: Any]])?.first)?["href"] as? String)
            #expect(try await Self.post(api, resend, stateToken: second).object()["factorResult"] as? String == "WAITING")
            #expect(try await api.pendingChallenges(device).count == 1, "a resend replaces the push")
            let cancel = try #require(Self.link(again, "cancel")?["href"] as? String)
            #expect(try await Self.post(api, cancel, stateToken: second).status == .ok)
            #expect(try await api.pendingChallenges(device).isEmpty)
        }
    }

    @Test("verify errors: unknown state token E0000011, unknown factor E0000007, wrong state E0000079")
    func verifyErrors() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "verr@example.com")
            let verify = "/api/v1/authn/factors/\(device.methodId)/verify"
            let unknown = try await api.send(.post, verify, json: ["stateToken": "00nope"], auth: .none)
            #expect(unknown.status == .unauthorized)
            #expect(try unknown.oktaError().code == "E0000011")
            let required = try await Self.signIn(api, device.login)
            let stateToken = try #require(required["stateToken"] as? String)
            let factor = try await api.send(.post, "/api/v1/authn/factors/opfunknown/verify", json: ["stateToken": stateToken], auth: .none)
            #expect(factor.status == .notFound)
            #expect(try factor.oktaError().code == "E0000007")
            let previous = try await api.send(.post, "/api/v1/authn/previous", json: ["stateToken": stateToken], auth: .none)
            #expect(previous.status == .forbidden)
            #expect(try previous.oktaError().code == "E0000079")
        }
    }
}
