import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import JWTKit
import Testing

@Suite("MyAccount app authenticators: discovery, enroll, update, delete, maintenance tokens")
struct DevicesControllerTests {
    @Test("the org document needs no token; the authenticator configuration needs a Bearer token")
    func discovery() async throws {
        try await withSandbox { api in
            let org = try await api.send(.get, "/.well-known/okta-organization", auth: .none)
            #expect(org.status == .ok)
            #expect(try org.object()["id"] as? String == "00oidflowsandbox0000")
            let link = (try org.object()["_links"] as? [String: Any])?["organization"] as? [String: Any]
            #expect(link?["href"] as? String == (await api.state.orgURL))

            let path = "/.well-known/app-authenticator-configuration?oauthClientId=0oaidflowsandbox0000"
            let anonymous = try await api.send(.get, path, auth: .none)
            #expect(anonymous.status == .unauthorized)
            #expect(try anonymous.oktaError().code == "E0000011")
            #expect(anonymous.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)

            let (_, token) = try await api.accessToken(email: "discover@example.com", scope: "openid")
            let config = try await api.send(.get, path, auth: api.bearer(token))
            #expect(config.status == .ok)
            let authenticator = try #require(try config.array().first)
            #expect(authenticator["authenticatorId"] as? String == "autidflowsandbox0000")
            #expect(
                authenticator["appAuthenticatorEnrollEndpoint"] as? String == (await api.state.orgURL) + "/idp/myaccount/app-authenticators"
            )
            let method = try #require((authenticator["supportedMethods"] as? [[String: Any]])?.first)
            #expect(method["type"] as? String == "push")

            let other = try await api.send(
                .get, "/.well-known/app-authenticator-configuration?oauthClientId=0oaunknown", auth: api.bearer(token))
            #expect(other.status == .ok && other.text == "[]")
            let missing = try await api.send(.get, "/.well-known/app-authenticator-configuration", auth: api.bearer(token))
            #expect(missing.status == .badRequest)
            #expect(try missing.oktaError().code == "E0000001")
        }
    }

    @Test("the manage scope can be requested at both authorization servers")
    func manageScopeRequestable() async throws {
        try await withSandbox { api in
            for base in ["/oauth2/default/v1", "/oauth2/v1"] {
                let (_, token) = try await api.accessToken(email: "scope\(base.count)@example.com", base: base)
                #expect(
                    try jwtClaims(token)["scp"] as? [String] == [
                        "openid", "profile", "offline_access", "okta.myAccount.appAuthenticator.manage",
                    ])
                _ = try await api.enrollDevice(accessToken: token, login: "scope\(base.count)@example.com")
            }
        }
    }

    @Test("enroll answers the whole enrollment and stores every key by kid")
    func enroll() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "jo@example.com", userVerification: true)
            #expect(device.enrollmentId.hasPrefix("pfd") && device.enrollmentId.count == 20)
            #expect(device.methodId.hasPrefix("opf") && device.deviceId.hasPrefix("guo") && device.clientInstanceId.hasPrefix("cli"))
            // The keys work: a maintenance token from the PoP key, then the pending list.
            let grant = try await api.maintenanceToken(assertion: try await api.assertion(for: device))
            #expect(grant.status == .ok, "\(grant.text)")
        }
    }

    @Test("enroll needs the manage scope and a valid token")
    func enrollScopes() async throws {
        try await withSandbox { api in
            let body = SandboxClient.enrollmentBody(clientInstanceKey: DeviceKey(), proofOfPossession: DeviceKey())
            let (_, weak) = try await api.accessToken(email: "weak@example.com", scope: "openid profile")
            let refused = try await api.send(.post, "/idp/myaccount/app-authenticators", json: body, auth: api.bearer(weak))
            #expect(refused.status == .forbidden)
            #expect(try refused.oktaError().code == "E0000006")
            #expect(refused.header("WWW-Authenticate")?.contains("insufficient_scope") == true)
            for auth in [SandboxClient.Auth.none, .header("Bearer not-a-token"), .ssws] {
                let reply = try await api.send(.post, "/idp/myaccount/app-authenticators", json: body, auth: auth)
                #expect(reply.status == .unauthorized)
                #expect(try reply.oktaError().code == "E0000011")
            }
        }
    }

    @Test("enroll bodies that cannot be an enrollment are E0000001")
    func enrollValidation() async throws {
        try await withSandbox { api in
            let (_, token) = try await api.accessToken(email: "val@example.com")
            let shared = DeviceKey()
            var rsa = DeviceKey().jwk
            rsa["kty"] = "RSA"
            var offCurve = DeviceKey().jwk
            offCurve["y"] = offCurve["x"]
            var noPoP = SandboxClient.enrollmentBody(clientInstanceKey: DeviceKey(), proofOfPossession: DeviceKey())
            noPoP["methods"] = ["push": ["pushToken": "", "keys": [:] as [String: Any]]]
            var badKey = SandboxClient.enrollmentBody(clientInstanceKey: DeviceKey(), proofOfPossession: DeviceKey())
            badKey["methods"] = ["push": ["keys": ["proofOfPossession": rsa]]]
            var notOnCurve = SandboxClient.enrollmentBody(clientInstanceKey: DeviceKey(), proofOfPossession: DeviceKey())
            notOnCurve["methods"] = ["push": ["keys": ["proofOfPossession": offCurve]]]
            var badTypes = SandboxClient.enrollmentBody(clientInstanceKey: DeviceKey(), proofOfPossession: DeviceKey())
            badTypes["methods"] = ["push": ["capabilities": ["transactionTypes": ["SMS"]], "keys": ["proofOfPossession": DeviceKey().jwk]]]
            let bodies: [[String: Any]] = [
                noPoP, badKey, notOnCurve, badTypes,
                SandboxClient.enrollmentBody(clientInstanceKey: DeviceKey(), proofOfPossession: DeviceKey(), authenticatorId: "autother"),
                SandboxClient.enrollmentBody(clientInstanceKey: shared, proofOfPossession: shared),
                ["authenticatorId": "autidflowsandbox0000", "methods": [:] as [String: Any]],
            ]
            for body in bodies {
                let reply = try await api.send(.post, "/idp/myaccount/app-authenticators", json: body, auth: api.bearer(token))
                #expect(reply.status == .badRequest, "\(reply.text)")
                #expect(try reply.oktaError().code == "E0000001")
            }
            // A kid already registered (by another enrollment) is refused too.
            let first = try await api.enrollDevice(accessToken: token, login: "val@example.com")
            let reused = SandboxClient.enrollmentBody(clientInstanceKey: DeviceKey(), proofOfPossession: first.proofOfPossession)
            let reply = try await api.send(.post, "/idp/myaccount/app-authenticators", json: reused, auth: api.bearer(token))
            #expect(reply.status == .badRequest)
            let garbage = try await api.send(
                .post, "/idp/myaccount/app-authenticators", body: "{", contentType: "application/json", auth: api.bearer(token))
            #expect(try garbage.oktaError().code == "E0000003")
        }
    }

    /// The second enrollment of a device on the org: device id, client instance id and an attestation
    /// signed by the client-instance key (devices.md §2b).
    static func secondEnrollmentBody(
        _ device: EnrolledDevice, attestationKey: DeviceKey? = nil, deviceId: String? = nil, orgURL: String
    ) throws -> (body: [String: Any], pop: DeviceKey) {
        let now = Int(Date().timeIntervalSince1970)
        let attestation = try (attestationKey ?? device.clientInstanceKey).sign(
            [
                "iss": device.clientInstanceId, "aud": orgURL, "sub": deviceId ?? device.deviceId, "iat": now, "exp": now + 300,
                "nbf": now - 300, "jti": UUID().uuidString,
            ], header: ["typ": "", "kid": device.clientInstanceKey.kid])
        let pop = DeviceKey()
        var body = SandboxClient.enrollmentBody(clientInstanceKey: DeviceKey(), proofOfPossession: pop)
        body["device"] = [
            "id": deviceId ?? device.deviceId, "clientInstanceId": device.clientInstanceId,
            "deviceAttestation": ["clientInstanceKeyAttestation": attestation], "displayName": "ci-runner-7",
        ]
        return (body, pop)
    }

    @Test("a second enrollment reuses the device when the client-instance key attests it")
    func secondEnrollment() async throws {
        try await withSandbox { api in
            let first = try await api.enrollDevice(email: "first@example.com")
            let (_, token) = try await api.accessToken(email: "second@example.com")
            let orgURL = await api.state.orgURL
            let (body, _) = try Self.secondEnrollmentBody(first, orgURL: orgURL)
            let reply = try await api.send(.post, "/idp/myaccount/app-authenticators", json: body, auth: api.bearer(token))
            #expect(reply.status == .ok, "\(reply.text)")
            let device = try #require(try reply.object()["device"] as? [String: Any])
            #expect(device["id"] as? String == first.deviceId)
            #expect(device["clientInstanceId"] as? String == first.clientInstanceId)

            let (forged, _) = try Self.secondEnrollmentBody(first, attestationKey: DeviceKey(), orgURL: orgURL)
            let refused = try await api.send(.post, "/idp/myaccount/app-authenticators", json: forged, auth: api.bearer(token))
            #expect(refused.status == .unauthorized)
            #expect(try refused.oktaError().code == "E0000011")

            let (gone, _) = try Self.secondEnrollmentBody(first, deviceId: "guo00000000000000000", orgURL: orgURL)
            let deleted = try await api.send(.post, "/idp/myaccount/app-authenticators", json: gone, auth: api.bearer(token))
            #expect(deleted.status == .gone)
            #expect(try deleted.oktaError().code == "E0000153")
        }
    }

    @Test("PATCH changes the push token and the user-verification key and answers the whole enrollment")
    func update() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "patch@example.com")
            // The token is checked before the body.
            #expect(try await api.send(.patch, device.path, json: [:] as [String: Any], auth: .none).status == .unauthorized)
            let merge: HTTPFields = [.accept: "application/merge-patch+json; okta-version=1.0.0"]
            let pushToken = try await api.send(
                .patch, device.path, json: ["methods": ["push": ["pushToken": "abcdef"]]],
                contentType: "application/merge-patch+json; okta-version=1.0.0", headers: merge, auth: api.bearer(device.accessToken))
            #expect(pushToken.status == .ok, "\(pushToken.text)")
            #expect(try pushToken.object()["id"] as? String == device.enrollmentId)

            // A maintenance token may change the push token, not the user-verification key.
            let maintenance = try #require(
                try await api.maintenanceToken(assertion: try await api.assertion(for: device)).object()["access_token"] as? String)
            let uvBody: [String: Any] = ["methods": ["push": ["keys": ["userVerification": DeviceKey().jwk]]]]
            let weak = try await api.send(.patch, device.path, json: uvBody, auth: api.bearer(maintenance))
            #expect(weak.status == .forbidden)
            let allowed = try await api.send(
                .patch, device.path, json: ["methods": ["push": ["pushToken": "00ff"]]], auth: api.bearer(maintenance))
            #expect(allowed.status == .ok)

            // Enabling UV lets a REQUIRED challenge be approved with it; disabling drops the key.
            let uv = DeviceKey()
            let enable = try await api.send(
                .patch, device.path, json: ["methods": ["push": ["keys": ["userVerification": uv.jwk]]]],
                auth: api.bearer(device.accessToken))
            #expect(enable.status == .ok)
            var withUV = device
            withUV.userVerification = uv
            let tx = try await api.push(withUV, userVerification: "REQUIRED")
            let challenge = try #require(try await api.pendingChallenges(withUV).first)
            #expect(try jwtClaims(challenge)["kid"] as? String == uv.kid)
            let disable = try await api.send(
                .patch, device.path, json: ["methods": ["push": ["keys": ["userVerification": NSNull()]]]],
                auth: api.bearer(device.accessToken))
            #expect(disable.status == .ok)
            let answer = try await api.respond(to: challenge, device: withUV, consent: "APPROVED_USER_VERIFICATION", key: uv)
            #expect(answer.status == .unauthorized, "the removed key no longer signs")
            #expect(try await api.pushStatus(tx)["status"] as? String == "WAITING")

            let pop = try await api.send(
                .patch, device.path, json: ["methods": ["push": ["keys": ["proofOfPossession": DeviceKey().jwk]]]],
                auth: api.bearer(device.accessToken))
            #expect(pop.status == .badRequest)
            let empty = try await api.send(.patch, device.path, json: [:] as [String: Any], auth: api.bearer(device.accessToken))
            #expect(empty.status == .badRequest)
        }
    }

    @Test("DELETE is 204, then E0000154; other users' enrollments are E0000008")
    func delete() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "del@example.com")
            let other = try await api.enrollDevice(email: "other@example.com")
            let foreign = try await api.send(.delete, other.path, auth: api.bearer(device.accessToken))
            #expect(foreign.status == .notFound)
            #expect(try foreign.oktaError().code == "E0000008")

            let maintenance = try #require(
                try await api.maintenanceToken(assertion: try await api.assertion(for: device)).object()["access_token"] as? String)
            #expect(try await api.send(.delete, device.path, auth: api.bearer(maintenance)).status == .forbidden)

            let deleted = try await api.send(.delete, device.path, auth: api.bearer(device.accessToken))
            #expect(deleted.status == .noContent)
            let again = try await api.send(.delete, device.path, auth: api.bearer(device.accessToken))
            #expect(again.status == .gone)
            #expect(try again.oktaError().code == "E0000154")
            #expect(try await api.send(.get, device.pendingPath, auth: api.bearer(device.accessToken)).status == .gone)
            // Its keys are gone with it.
            let grant = try await api.maintenanceToken(assertion: try await api.assertion(for: device))
            #expect(try grant.object()["error"] as? String == "invalid_grant")
        }
    }

    @Test("the jwt-bearer grant verifies the assertion against the PoP key and its claims")
    func maintenanceGrant() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "maint@example.com", userVerification: true)
            let good = try await api.maintenanceToken(
                assertion: try await api.assertion(for: device),
                scope: "okta.myAccount.appAuthenticator.maintenance.manage okta.myAccount.appAuthenticator.maintenance.read")
            #expect(good.status == .ok, "\(good.text)")
            let body = try good.object()
            #expect(body["token_type"] as? String == "Bearer")
            #expect(body["refresh_token"] == nil && body["id_token"] == nil)
            let token = try #require(body["access_token"] as? String)
            #expect(try jwtClaims(token)["uid"] as? String == device.userId)
            #expect(try await api.send(.get, device.pendingPath, auth: api.bearer(token)).status == .ok)
            let enroll = try await api.send(
                .post, "/idp/myaccount/app-authenticators",
                json: SandboxClient.enrollmentBody(clientInstanceKey: DeviceKey(), proofOfPossession: DeviceKey()),
                auth: api.bearer(token))
            #expect(enroll.status == .forbidden)

            let replayed = try await api.assertion(for: device)
            _ = try await api.maintenanceToken(assertion: replayed)
            let now = Int(await api.state.now.timeIntervalSince1970)
            let bad: [String] = [
                replayed,
                try await api.assertion(for: device, key: DeviceKey()),
                try await api.assertion(for: device, key: device.userVerification),
                try await api.assertion(for: device, overrides: ["sub": "00uother"]),
                try await api.assertion(for: device, overrides: ["aud": "https://elsewhere.example"]),
                try await api.assertion(for: device, overrides: ["iss": "someone"]),
                try await api.assertion(for: device, overrides: ["methodEnrollmentId": "opfother"]),
                try await api.assertion(for: device, overrides: ["exp": now - 10]),
                try await api.assertion(for: device, overrides: ["nbf": now + 100]),
                try await api.assertion(for: device, overrides: ["jti": NSNull()]),
                try device.proofOfPossession.sign(["sub": device.userId], header: ["alg": "ES384"]),
                "not-a-jwt",
            ]
            for assertion in bad {
                let reply = try await api.maintenanceToken(assertion: assertion)
                #expect(reply.status == .badRequest)
                #expect(try reply.object()["error"] as? String == "invalid_grant", "\(reply.text)")
            }
            let scope = try await api.maintenanceToken(
                assertion: try await api.assertion(for: device), scope: "okta.myAccount.appAuthenticator.manage")
            #expect(try scope.object()["error"] as? String == "invalid_scope")
            let missing = try await api.postForm(
                "/oauth2/v1/token",
                [("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("client_id", "0oaidflowsandbox0000")])
            #expect(try missing.object()["error"] as? String == "invalid_request")
        }
    }

    @Test("the pending list needs a maintenance or manage scope")
    func pendingScopes() async throws {
        try await withSandbox { api in
            let device = try await api.enrollDevice(email: "pend@example.com")
            let read = try #require(
                try await api.maintenanceToken(
                    assertion: try await api.assertion(for: device), scope: "okta.myAccount.appAuthenticator.maintenance.read"
                ).object()["access_token"] as? String)
            #expect(try await api.send(.get, device.pendingPath, auth: api.bearer(read)).status == .ok)
            // maintenance.read cannot change anything.
            let patch = try await api.send(.patch, device.path, json: ["methods": ["push": ["pushToken": "1"]]], auth: api.bearer(read))
            #expect(patch.status == .forbidden)
            let (_, openid) = try await api.accessToken(email: "pend2@example.com", scope: "openid")
            let weak = try await api.send(.get, device.pendingPath, auth: api.bearer(openid))
            #expect(weak.status == .forbidden)
            #expect(try await api.send(.get, device.pendingPath, auth: .none).status == .unauthorized)
        }
    }
}

@Suite("The API-token middleware protects every route it does not list as public")
struct APITokenProtectionTests {
    @Test(
        "unknown /api/v1, /sandbox and other paths need SSWS; with it they are 404",
        arguments: ["/api/v1/devices", "/api/v1/devices/guo1/lifecycle/activate", "/sandbox/anything", "/sandbox", "/idp/other", "/"])
    func unknownPathsAreProtected(path: String) async throws {
        try await withSandbox { api in
            let anonymous = try await api.send(.get, path, auth: .none)
            #expect(anonymous.status == .unauthorized)
            #expect(try anonymous.oktaError().code == "E0000011")
            let wrong = try await api.send(.post, path, auth: .header("SSWS wrong"))
            #expect(wrong.status == .unauthorized)
            #expect(try await api.send(.get, path).status == .notFound)
        }
    }

    @Test("public families answer without SSWS")
    func publicPaths() async throws {
        try await withSandbox { api in
            for path in [
                "/.well-known/openid-configuration", "/.well-known/okta-organization", "/oauth2/default/v1/keys", "/oauth2/v1/keys",
            ] {
                #expect(try await api.send(.get, path, auth: .none).status == .ok, "\(path)")
            }
            // Authn and the MyAccount API answer with their own errors, not the SSWS one.
            let authn = try await api.send(.post, "/api/v1/authn", json: ["username": "a", "password": "b"], auth: .none)
            #expect(try authn.oktaError().code == "E0000004")
            let myAccount = try await api.send(.get, "/idp/myaccount/app-authenticators/pfdx/push/notifications", auth: .none)
            #expect(myAccount.status == .unauthorized && myAccount.header("WWW-Authenticate") != nil)
            // A path that only starts like a public one is not public.
            #expect(try await api.send(.get, "/api/v1/authnx", auth: .none).status == .unauthorized)
        }
    }
}
