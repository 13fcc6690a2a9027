import Foundation
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// The push-authenticator answers have the key paths (recursively) of the recordings in
/// `okta-devices/` and of the Authn MFA recordings in `okta-core/`; errors also their code and text.
///
/// Deliberate differences, each asserted: the jwt-bearer token response has no `refresh_token`
/// (a maintenance token is not refreshable), a WAITING push has no number challenge
/// (`_embedded.challenge.correctAnswer`), and MFA_REQUIRED / MFA_ENROLL list only push factors,
/// so those two are compared on the push factor of the recording.
@Suite(
    "Push-authenticator responses match the recorded fixtures")
struct DevicesFixtureContractTests {
    static func fixture(_ path: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Fixtures.data(path))
    }

    static func json(_ reply: Reply) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(reply.text.utf8), options: [.fragmentsAllowed])
    }

    static func expectSameKeys(
        _ actual: Any, _ expected: Any, _ name: String, renaming: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        func normalized(_ paths: Set<String>) -> Set<String> {
            Set(paths.map { path in renaming.reduce(path) { $0.replacingOccurrences(of: $1.key, with: $1.value) } })
        }
        let got = normalized(keyPaths(actual))
        let want = normalized(keyPaths(expected))
        #expect(
            got == want, "\(name): missing \(want.subtracting(got).sorted()), extra \(got.subtracting(want).sorted())",
            sourceLocation: sourceLocation)
    }

    @Test func wellKnownOrganization() async throws {
        try await withSandbox { api in
            let reply = try await api.send(.get, "/.well-known/okta-organization", auth: .none)
            Self.expectSameKeys(
                try Self.json(reply), try Self.fixture("okta-devices/well-known-okta-organization.json"), "okta-organization")
        }
    }

    @Test func appAuthenticatorConfiguration() async throws {
        try await withSandbox { api in
            let (_, token) = try await api.accessToken(email: "conf@example.com")
            let reply = try await api.send(
                .get, "/.well-known/app-authenticator-configuration?oauthClientId=0oaidflowsandbox0000", auth: api.bearer(token))
            Self.expectSameKeys(
                try Self.json(reply), try Self.fixture("okta-devices/app-authenticator-configuration.json"), "configuration")
            let none = try await api.send(
                .get, "/.well-known/app-authenticator-configuration?oauthClientId=0oanother", auth: api.bearer(token))
            #expect(try Self.json(none) as? [Any] != nil && none.text == "[]")
            #expect((try Self.fixture("okta-devices/app-authenticator-configuration-empty-array.json") as? [Any])?.isEmpty == true)
        }
    }

    @Test("enroll and PATCH answer the enrollment shape")
    func enrollmentResponse() async throws {
        try await withSandbox { api in
            let (_, token) = try await api.accessToken(email: "shape@example.com")
            let body = SandboxClient.enrollmentBody(clientInstanceKey: DeviceKey(), proofOfPossession: DeviceKey())
            let enroll = try await api.send(.post, "/idp/myaccount/app-authenticators", json: body, auth: api.bearer(token))
            let recorded = try Self.fixture("okta-devices/enrollment-response.json")
            // `methods.totp` is the Okta Verify TOTP method the recording does not have: its seed (`sharedSecret`,
            // only in the enrollment's answer) in okta-devices-swift's `EnrolledAuthenticatorModel` field names.
            func withoutTOTP(_ reply: Reply) throws -> (rest: [String: Any], totp: [String: Any]?) {
                var object = try reply.object()
                var methods = object["methods"] as? [String: Any] ?? [:]
                let totp = methods.removeValue(forKey: "totp") as? [String: Any]
                object["methods"] = methods
                return (object, totp)
            }
            let enrolled = try withoutTOTP(enroll)
            Self.expectSameKeys(enrolled.rest, recorded, "enroll")
            #expect(Set(enrolled.totp?.keys ?? [:].keys) == ["id", "type", "status", "sharedSecret", "createdDate", "lastUpdated"])
            let id = try #require(try enroll.object()["id"] as? String)
            let patch = try await api.send(
                .patch, "/idp/myaccount/app-authenticators/\(id)",
                json: ["methods": ["push": ["keys": ["userVerification": DeviceKey().jwk]]]], auth: api.bearer(token))
            let patched = try withoutTOTP(patch)
            Self.expectSameKeys(patched.rest, recorded, "patch")
            #expect(patched.totp?["sharedSecret"] == nil, "the seed is handed over once, at enrollment")
        }
    }

    @Test("the pending list, its entries and the challenge JWT")
    func pendingChallenges() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "list@example.com")
            _ = try await api.push(device)
            let reply = try await api.send(.get, device.pendingPath, auth: api.bearer(device.accessToken))
            Self.expectSameKeys(try Self.json(reply), try Self.fixture("okta-devices/pending-challenges.json"), "pending")
            let entry = try #require(try reply.array().first)
            Self.expectSameKeys(entry, try Self.fixture("okta-devices/push-notification-userinfo.json"), "userInfo")

            let realistic = try #require(try Self.fixture("okta-devices/push-challenge-jwt-realistic.decoded.json") as? [String: Any])
            let jwt = try #require(entry["challenge"] as? String)
            Self.expectSameKeys(try jwtHeader(jwt), try #require(realistic["header"]), "challenge header")
            Self.expectSameKeys(try jwtClaims(jwt), try #require(realistic["payload"]), "challenge claims")
        }
    }

    @Test("the jwt-bearer token response (no refresh token for a maintenance token)")
    func maintenanceTokenResponse() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "tok@example.com")
            let reply = try await api.maintenanceToken(assertion: try await api.assertion(for: device))
            var recorded = try #require(try Self.fixture("okta-devices/oauth2-token-response.json") as? [String: Any])
            recorded["refresh_token"] = nil
            Self.expectSameKeys(try Self.json(reply), recorded, "token response")
        }
    }

    static func expectRecordedError(
        _ reply: Reply, fixture name: String, status: HTTPResponse.Status, sameSummary: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(reply.status == status, "\(reply.text)", sourceLocation: sourceLocation)
        let recorded = try #require(try fixture("okta-devices/\(name)") as? [String: Any])
        expectSameKeys(try json(reply), recorded, name, sourceLocation: sourceLocation)
        let body = try reply.object()
        #expect(body["errorCode"] as? String == recorded["errorCode"] as? String, sourceLocation: sourceLocation)
        if sameSummary {
            #expect(body["errorSummary"] as? String == recorded["errorSummary"] as? String, sourceLocation: sourceLocation)
        }
    }

    @Test func errorE0000011() async throws {
        try await withSandbox { api in
            let reply = try await api.send(
                .post, "/idp/myaccount/app-authenticators",
                json: SandboxClient.enrollmentBody(clientInstanceKey: DeviceKey(), proofOfPossession: DeviceKey()),
                auth: .header("Bearer expired.or.bogus"))
            try Self.expectRecordedError(reply, fixture: "error-E0000011-invalid-token.json", status: .unauthorized)
        }
    }

    @Test func errorE0000153() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "dev@example.com")
            let (body, _) = try DevicesControllerTests.secondEnrollmentBody(
                device, deviceId: "guo00000000000000000", orgURL: await api.state.orgURL)
            let reply = try await api.send(.post, "/idp/myaccount/app-authenticators", json: body, auth: api.bearer(device.accessToken))
            try Self.expectRecordedError(reply, fixture: "error-E0000153-device-deleted.json", status: .gone)
        }
    }

    @Test func errorE0000154() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "gone@example.com")
            _ = try await api.send(.delete, device.path, auth: api.bearer(device.accessToken))
            let reply = try await api.send(.delete, device.path, auth: api.bearer(device.accessToken))
            try Self.expectRecordedError(reply, fixture: "error-E0000154-enrollment-deleted.json", status: .gone, sameSummary: false)
            #expect(try reply.oktaError().summary == "Not found: Resource not found: \(device.enrollmentId) (GenericUDObject)")
        }
    }

    // MARK: Authn MFA (okta-core)

    /// The recording with only its push factor kept in `_embedded.factors`.
    static func pushOnly(_ name: String) throws -> (body: [String: Any], factorId: String?) {
        var body = try Fixtures.object("okta-core/\(name)")
        var embedded = try #require(body["_embedded"] as? [String: Any])
        let factors = try #require(embedded["factors"] as? [[String: Any]])
        let push = try #require(factors.first { $0["factorType"] as? String == "push" })
        embedded["factors"] = [push]
        body["_embedded"] = embedded
        return (body, push["id"] as? String)
    }

    @Test func authnMFARequired() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "req@example.com")
            let reply = try await AuthnPushTests.signIn(api, device.login)
            let (recorded, recordedId) = try Self.pushOnly("authn-mfa-required.json")
            Self.expectSameKeys(
                reply, recorded, "MFA_REQUIRED", renaming: [device.methodId: "{factorId}", try #require(recordedId): "{factorId}"])
        }
    }

    @Test func authnMFAEnroll() async throws {
        try await withSandbox(configure: { $0.mfaPolicy = .always }) { api in
            _ = try await api.registerActiveUser(email: "enr@example.com")
            let reply = try await AuthnPushTests.signIn(api, "enr@example.com")
            Self.expectSameKeys(reply, try Self.pushOnly("authn-mfa-enroll.json").body, "MFA_ENROLL")
        }
    }

    @Test func authnPushWaitingRejectedTimeout() async throws {
        try await withSandbox(configure: { $0.pushChallengeSeconds = 60 }) { api in
            let device = try await api.enrollDevice(email: "wait@example.com")
            let (stateToken, waiting) = try await AuthnPushTests.startPush(api, device)
            var recorded = try Fixtures.object("okta-core/authn-mfa-challenge-push-waiting.json")
            var embedded = try #require(recorded["_embedded"] as? [String: Any])
            var factor = try #require(embedded["factor"] as? [String: Any])
            factor["_embedded"] = nil  // the number challenge is not emulated
            embedded["factor"] = factor
            recorded["_embedded"] = embedded
            Self.expectSameKeys(waiting, recorded, "WAITING")

            let poll = try #require(AuthnPushTests.link(waiting, "next")?["href"] as? String)
            let challenge = try #require(try await api.pendingChallenges(device).first)
            _ = try await api.respond(to: challenge, device: device, consent: "DENIED_CONSENT_PROMPT")
            let rejected = try await AuthnPushTests.post(api, poll, stateToken: stateToken).object()
            Self.expectSameKeys(rejected, try Fixtures.object("okta-core/authn-mfa-challenge-push-rejected.json"), "REJECTED")

            #expect(try await AuthnPushTests.post(api, poll, stateToken: stateToken).object()["factorResult"] as? String == "WAITING")
            try await api.advanceClock(seconds: 61)
            let timedOut = try await AuthnPushTests.post(api, poll, stateToken: stateToken).object()
            #expect(timedOut["factorResult"] as? String == "TIMEOUT")
            Self.expectSameKeys(timedOut, try Fixtures.object("okta-core/authn-mfa-challenge-push-timeout.json"), "TIMEOUT")
        }
    }
}
