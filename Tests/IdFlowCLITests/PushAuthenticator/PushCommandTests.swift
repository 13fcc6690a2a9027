import Crypto
import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import JWTKit
import Testing
import _CryptoExtras

@testable import idflow

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// enroll → challenges → resolve → enroll update/delete, and login-pkce --mfa push, run in-process against the fake org.
@Suite struct PushCommandTests {
    let configuration = ["--org-url", FakePushOrg.org, "--client-id", "0oaclient"]
    let environment = CLI.isolatedEnvironment()
    var stateDirectory: URL { URL(fileURLWithPath: environment["IDFLOW_STATE_DIR"]!) }

    func enroll(_ org: FakePushOrg, extra: [String] = [], environment: [String: String]? = nil) async throws -> String {
        let result = await CLI.run(
            ["enroll", "--access-token-stdin", "--name", "ci-runner-7"] + extra + configuration, transport: org.transport,
            stdin: "user-at\n",
            environment: environment ?? self.environment)
        #expect(result.exitCode == 0, "\(result.stderr)")
        return try #require(result.json?["enrollmentId"]?.stringValue)
    }

    func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func enrollSendsTheProtocolsBodyAndKeepsTheKeysPrivately() async throws {
        let org = FakePushOrg()
        let result = await CLI.run(
            ["enroll", "--access-token-stdin", "--name", "<b>ci-runner-7</b>", "--push-token", "ABCDEF01"] + configuration,
            transport: org.transport, stdin: "user-at\n", environment: environment)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(
            result.json == [
                "enrollmentId": "pfd1", "authenticatorId": "aut1", "userId": "00u1", "deviceId": "guo1", "methodEnrollmentId": "opf-pfd1",
                "userVerification": false, "orgUrl": .string(FakePushOrg.org),
            ])
        let discovery = try #require(org.transport.requests.first { $0.route == "GET /.well-known/app-authenticator-configuration" })
        #expect(discovery.query("oauthClientId") == "0oaclient")
        #expect(discovery.header("Accept") == "application/json; okta-version=1.0.0")
        let post = try #require(org.transport.requests.first { $0.route == "POST /idp/myaccount/app-authenticators" })
        let body = try #require(post.jsonBody)
        #expect(body["authenticatorId"] == "aut1")
        #expect(body["device"]?["displayName"] == "ci-runner-7")
        #expect(["LINUX", "MACOS"].contains(body["device"]?["platform"]?.stringValue ?? ""))
        #expect(body["device"]?["clientInstanceKey"]?["kty"] == "EC")
        #expect(body["device"]?["clientInstanceKey"]?["crv"] == "P-256")
        #expect(body["device"]?["id"] == nil)
        let push = try #require(body["methods"]?["push"])
        #expect(push["pushToken"] == "abcdef01")
        #expect(push["apsEnvironment"] == "production")
        #expect(push["capabilities"] == ["transactionTypes": ["LOGIN"]])
        let popKid = try #require(push["keys"]?["proofOfPossession"]?["kid"]?.stringValue)
        #expect(popKid == popKid.uppercased() && UUID(uuidString: popKid) != nil)
        #expect(push["keys"]?["userVerification"] == nil)

        let folder = stateDirectory.appendingPathComponent("devices/o.example.com")
        #expect(try mode(folder) == 0o700)
        #expect(try mode(folder.appendingPathComponent("keys")) == 0o700)
        #expect(try mode(folder.appendingPathComponent("keys/\(popKid).json")) == 0o600)
        #expect(try mode(folder.appendingPathComponent("device.json")) == 0o600)
        #expect(try mode(folder.appendingPathComponent("enrollments/pfd1.json")) == 0o600)

        // A second enrollment reuses the device: its id and an attestation signed by the client-instance key.
        _ = try await enroll(org)
        let second = try #require(org.transport.requests.last { $0.route == "POST /idp/myaccount/app-authenticators" }?.jsonBody)
        #expect(second["device"]?["id"] == "guo1")
        #expect(second["device"]?["clientInstanceId"] == "cli1")
        #expect(second["device"]?["clientInstanceKey"] == nil)
        let attestation = try DecodedJWT(try #require(second["device"]?["deviceAttestation"]?["clientInstanceKeyAttestation"]?.stringValue))
        #expect(attestation.header["typ"] == "")
        #expect(attestation.header["kid"] == body["device"]?["clientInstanceKey"]?["kid"])
        #expect(
            attestation.claims["iss"] == "cli1" && attestation.claims["sub"] == "guo1"
                && attestation.claims["aud"] == .string(FakePushOrg.org))

        let list = await CLI.run(["enroll", "list"] + configuration, environment: environment)
        #expect(list.json?["enrollments"]?.arrayValue?.compactMap { $0["enrollmentId"]?.stringValue } == ["pfd1", "pfd2"])
    }

    @Test func challengesThenResolveApprovesWithThePoPKeyAndNoAuthorization() async throws {
        let org = FakePushOrg()
        let enrollment = try await enroll(org)
        let empty = await CLI.run(["challenges"] + configuration, transport: org.transport, environment: environment)
        #expect(empty.exitCode == 0, "\(empty.stderr)")
        #expect(empty.json == ["challenges": []])

        let tx = try await org.push(enrollment: enrollment)
        let listed = await CLI.run(["challenges"] + configuration, transport: org.transport, environment: environment)
        #expect(listed.exitCode == 0, "\(listed.stderr)")
        let challenge = try #require(listed.json?["challenges"]?.arrayValue?.first)
        #expect(challenge["transactionId"] == .string(tx))
        #expect(challenge["enrollmentId"] == .string(enrollment))
        #expect(challenge["userId"] == "00u1")
        #expect(challenge["transactionType"] == "LOGIN")
        #expect(challenge["clientOS"] == "Linux")
        #expect(challenge["clientLocation"] == "Berlin, Germany")
        #expect(challenge["transactionTime"] == "2026-11-22T10:00:00.000Z")
        #expect(challenge["userVerification"] == "NONE")
        #expect(challenge["bindingMessage"] == .null)
        #expect(challenge["expiresAt"]?.stringValue != nil)
        #expect(challenge["verificationUri"] == .string("\(FakePushOrg.org)/idp/myaccount/app-authenticators/challenge/\(tx)/verify"))

        // The maintenance token was bought with the PoP key, no user token.
        let grant = try #require(org.transport.requests.last { $0.route == "POST /oauth2/v1/token" })
        #expect(grant.header("Authorization") == nil)
        #expect(grant.formBody["client_id"] == "0oaclient")
        #expect(grant.formBody["scope"]?.contains("okta.myAccount.appAuthenticator.maintenance.read") == true)
        let assertion = try DecodedJWT(try #require(grant.formBody["assertion"]))
        #expect(assertion.header["alg"] == "ES256" && assertion.header["typ"] == "JWT")
        #expect(assertion.claims["iss"] == "urn:okta:devices:app:authenticator")
        #expect(assertion.claims["sub"] == "00u1" && assertion.claims["methodEnrollmentId"] == .string("opf-\(enrollment)"))

        let resolve = await CLI.run(["resolve", "--next", "--approve"] + configuration, transport: org.transport, environment: environment)
        #expect(resolve.exitCode == 0, "\(resolve.stderr)")
        #expect(
            resolve.json == [
                "transactionId": .string(tx), "decision": "APPROVED", "userConsent": "APPROVED_CONSENT_PROMPT",
                "keyType": "proofOfPossession",
            ])
        let verify = try #require(org.transport.requests.last { $0.url.path.hasSuffix("/verify") == true })
        #expect(verify.header("Authorization") == nil)
        #expect(verify.jsonBody?["method"] == "push")
        let answer = try #require(org.answer(tx))
        #expect(answer["header"]?["kid"] == assertion.header["kid"])
        #expect(answer["header"]?["typ"] == "okta-pushbind+jwt")
        #expect(answer["claims"]?["tx"] == .string(tx) && answer["claims"]?["nonce"] == .string("nonce-\(tx)"))
        #expect(answer["claims"]?["iss"] == .string(enrollment) && answer["claims"]?["aud"] == .string(FakePushOrg.org))

        // Answered: it is no longer pending, so answering it again is "not found".
        let again = await CLI.run(
            ["resolve", "--transaction-id", tx, "--deny"] + configuration, transport: org.transport, environment: environment)
        #expect(again.exitCode == 5)
        #expect(again.stdout.isEmpty)
        let unknown = await CLI.run(
            ["resolve", "--transaction-id", "nope", "--approve"] + configuration, transport: org.transport, environment: environment)
        #expect(unknown.exitCode == 5)
    }

    @Test func denyIsSignedByThePoPKey() async throws {
        let org = FakePushOrg()
        let enrollment = try await enroll(org)
        let tx = try await org.push(enrollment: enrollment, userVerification: "REQUIRED")
        let deny = await CLI.run(
            ["resolve", "--transaction-id", tx, "--deny"] + configuration, transport: org.transport, environment: environment)
        #expect(deny.exitCode == 0, "\(deny.stderr)")
        #expect(deny.json?["decision"] == "DENIED")
        #expect(deny.json?["userConsent"] == "DENIED_CONSENT_PROMPT")
        #expect(org.answer(tx)?["claims"]?["keyType"] == "proofOfPossession")
    }

    @Test func aChallengeNotSignedByTheOrgIsRefusedWithExit13AndNeverAnswered() async throws {
        let org = FakePushOrg()
        let enrollment = try await enroll(org)
        let tx = try await org.push(enrollment: enrollment, key: FakePushOrg.strangerKey)
        let result = await CLI.run(["resolve", "--next", "--approve"] + configuration, transport: org.transport, environment: environment)
        #expect(result.exitCode == 13, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(!org.transport.requests.contains { $0.url.path.hasSuffix("/verify") == true })
        #expect(org.answer(tx) == nil)
    }

    /// Signed by the org's own key, but naming someone else: another enrollment, org, client or issuer host.
    @Test(arguments: [
        ("authenticatorEnrollmentId", JSONValue.string("pfdSomeoneElse")), ("orgId", "00oAnotherOrg"), ("aud", "0oaAnotherClient"),
        ("iss", "https://attacker.example.net"),
    ])
    func aChallengeNamingAnotherEnrollmentOrgClientOrIssuerIsNeverAnswered(claim: String, value: JSONValue) async throws {
        let org = FakePushOrg()
        let enrollment = try await enroll(org)
        let tx = try await org.push(enrollment: enrollment, overriding: [claim: value])
        let result = await CLI.run(
            ["resolve", "--transaction-id", tx, "--approve"] + configuration, transport: org.transport, environment: environment)
        #expect(result.exitCode == 13, "\(claim): \(result.stderr)")
        #expect(result.error?["message"]?.stringValue?.contains(claim) == true)
        #expect(!org.transport.requests.contains { $0.url.path.hasSuffix("/verify") == true })
        #expect(org.answer(tx) == nil)
    }

    @Test func theAnswerIsAddressedToTheEnrollmentsOrgNotToTheChallengesIssuer() async throws {
        let org = FakePushOrg()
        let enrollment = try await enroll(org)
        // The org's own issuer, spelled with a trailing slash: accepted, and the answer still goes to the stored org.
        let tx = try await org.push(enrollment: enrollment, overriding: ["iss": .string(FakePushOrg.org + "/")])
        let result = await CLI.run(
            ["resolve", "--transaction-id", tx, "--approve"] + configuration, transport: org.transport, environment: environment)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(org.answer(tx)?["claims"]?["aud"] == .string(FakePushOrg.org))
    }

    @Test func anExpiredChallengeIsRefusedLocally() async throws {
        let org = FakePushOrg()
        let enrollment = try await enroll(org)
        try await org.push(enrollment: enrollment, expiresIn: -600)
        let result = await CLI.run(["resolve", "--next", "--approve"] + configuration, transport: org.transport, environment: environment)
        #expect(result.exitCode == 9, "\(result.stderr)")
        #expect(!org.transport.requests.contains { $0.url.path.hasSuffix("/verify") == true })
    }

    @Test func aPINShorterThanSixCharactersIsRefusedBeforeAnythingIsSentOrKept() async throws {
        let org = FakePushOrg()
        let result = await CLI.run(
            ["enroll", "--access-token-stdin", "--user-verification"] + configuration, transport: org.transport, stdin: "user-at",
            environment: environment.merging(["IDFLOW_PIN": "2468"]) { $1 })
        #expect(result.exitCode == 64, "\(result.stderr)")
        #expect(result.error?["message"]?.stringValue?.contains("at least 6 characters") == true)
        #expect(!result.stderr.contains("2468"), "the PIN is not echoed")
        #expect(!org.transport.requests.contains { $0.method == "POST" })
        let keys = stateDirectory.appendingPathComponent("devices/o.example.com/keys")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: keys.path))?.isEmpty ?? true)
    }

    @Test func userVerificationWithTheRightPINSignsWithTheUVKeyAndAWrongPINFallsBack() async throws {
        let org = FakePushOrg()
        let withPIN = environment.merging(["IDFLOW_PIN": "246813"]) { $1 }
        let enrollment = try await enroll(org, extra: ["--user-verification"], environment: withPIN)
        let body = try #require(org.transport.requests.last { $0.route == "POST /idp/myaccount/app-authenticators" }?.jsonBody)
        let uvKid = try #require(body["methods"]?["push"]?["keys"]?["userVerification"]?["kid"]?.stringValue)
        let keyFile = stateDirectory.appendingPathComponent("devices/o.example.com/keys/\(uvKid).json")
        #expect(try mode(keyFile) == 0o600)
        #expect(!String(decoding: try Data(contentsOf: keyFile), as: UTF8.self).contains("privateKey"))

        // No PIN at all: nothing is sent, the user is told how to give it.
        let tx1 = try await org.push(enrollment: enrollment, userVerification: "REQUIRED")
        let noPIN = await CLI.run(["resolve", "--next", "--approve"] + configuration, transport: org.transport, environment: environment)
        #expect(noPIN.exitCode == 64)
        #expect(noPIN.error?["hint"]?.stringValue?.contains("--pin-stdin") == true)
        #expect(org.answer(tx1) == nil)

        let approved = await CLI.run(
            ["resolve", "--next", "--approve", "--pin-stdin"] + configuration, transport: org.transport, stdin: "246813\n",
            environment: environment)
        #expect(approved.exitCode == 0, "\(approved.stderr)")
        #expect(approved.json?["keyType"] == "userVerification")
        #expect(approved.json?["userConsent"] == "APPROVED_USER_VERIFICATION")
        #expect(org.answer(tx1)?["header"]?["kid"] == .string(uvKid))
        #expect(org.answer(tx1)?["claims"]?["amr"] == ["pin"])

        let tx2 = try await org.push(enrollment: enrollment, userVerification: "REQUIRED")
        let wrong = await CLI.run(
            ["resolve", "--transaction-id", tx2, "--approve", "--pin-stdin"] + configuration, transport: org.transport, stdin: "1111",
            environment: environment)
        #expect(wrong.exitCode == 4, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("did not unlock"))
        #expect(org.answer(tx2)?["claims"]?["challengeResponseContext"]?["userConsent"] == "UV_TEMPORARILY_UNAVAILABLE")
        #expect(org.answer(tx2)?["claims"]?["keyType"] == "proofOfPossession")
    }

    @Test func updateAndDeleteThenNothingIsPending() async throws {
        let org = FakePushOrg()
        let enrollment = try await enroll(org)
        let on = await CLI.run(
            ["enroll", "update", enrollment, "--user-verification", "on", "--pin-file", "/dev/null", "--access-token-stdin"]
                + configuration,
            transport: org.transport, stdin: "user-at", environment: environment)
        #expect(on.exitCode == 64, "an empty PIN is refused: \(on.stderr)")
        let onWithPIN = await CLI.run(
            ["enroll", "update", enrollment, "--user-verification", "on", "--access-token-stdin"] + configuration, transport: org.transport,
            stdin: "user-at", environment: environment.merging(["IDFLOW_PIN": "246813"]) { $1 })
        #expect(onWithPIN.exitCode == 0, "\(onWithPIN.stderr)")
        #expect(onWithPIN.json?["userVerification"] == true)
        let patch = try #require(org.transport.requests.last { $0.method == "PATCH" })
        #expect(patch.header("Content-Type") == "application/merge-patch+json; okta-version=1.0.0")
        #expect(patch.jsonBody?["methods"]?["push"]?["keys"]?["userVerification"]?["kty"] == "EC")

        let off = await CLI.run(
            ["enroll", "update", enrollment, "--user-verification", "off", "--access-token-stdin"] + configuration,
            transport: org.transport,
            stdin: "user-at", environment: environment)
        #expect(off.exitCode == 0, "\(off.stderr)")
        #expect(off.json?["userVerification"] == false)
        #expect(
            org.transport.requests.last { $0.method == "PATCH" }?.jsonBody?["methods"]?["push"]?["keys"] == ["userVerification": .null])

        try await org.push(enrollment: enrollment)
        let delete = await CLI.run(
            ["enroll", "delete", enrollment, "--access-token-stdin"] + configuration, transport: org.transport, stdin: "user-at",
            environment: environment)
        #expect(delete.exitCode == 0, "\(delete.stderr)")
        #expect(delete.json?["deleted"] == true)
        #expect(org.transport.requests.last?.method == "DELETE")
        let challenges = await CLI.run(["challenges"] + configuration, transport: org.transport, environment: environment)
        #expect(challenges.json == ["challenges": []])
        let deletedAgain = await CLI.run(["enroll", "delete", enrollment, "--local-only"] + configuration, environment: environment)
        #expect(deletedAgain.exitCode == 5)
    }

    @Test func challengesWaitGivesUpWithExit9() async throws {
        let org = FakePushOrg()
        _ = try await enroll(org)
        let result = await CLI.run(["challenges", "--wait", "3"] + configuration, transport: org.transport, environment: environment)
        #expect(result.exitCode == 9, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func verboseTracesLeakNoKeyPINAssertionOrToken() async throws {
        let org = FakePushOrg()
        let withPIN = environment.merging(["IDFLOW_PIN": "975310"]) { $1 }
        let enroll = await CLI.run(
            ["enroll", "--access-token-stdin", "--user-verification", "--verbose"] + configuration, transport: org.transport,
            stdin: "user-at", environment: withPIN)
        #expect(enroll.exitCode == 0, "\(enroll.stderr)")
        let enrollment = try #require(enroll.json?["enrollmentId"]?.stringValue)
        try await org.push(enrollment: enrollment, userVerification: "REQUIRED")
        let challenges = await CLI.run(["challenges", "-v"] + configuration, transport: org.transport, environment: environment)
        let resolve = await CLI.run(
            ["resolve", "--next", "--approve", "-v"] + configuration, transport: org.transport, environment: withPIN)
        #expect(resolve.exitCode == 0, "\(resolve.stderr)")

        let trace = enroll.stderr + challenges.stderr + resolve.stderr
        #expect(trace.contains("> POST"))
        var secrets = ["user-at", "975310", "maintenance-at"]
        secrets += org.transport.requests.compactMap { $0.formBody["assertion"] }
        secrets += org.transport.requests.compactMap { $0.jsonBody?["challengeResponse"]?.stringValue }
        secrets += org.transport.requests.compactMap {
            $0.jsonBody?["device"]?["deviceAttestation"]?["clientInstanceKeyAttestation"]?.stringValue
        }
        let keys = stateDirectory.appendingPathComponent("devices/o.example.com/keys")
        for name in try FileManager.default.contentsOfDirectory(atPath: keys.path) {
            let stored = try JSONValue(data: try Data(contentsOf: keys.appendingPathComponent(name)))
            if let key = stored["privateKey"]?.stringValue { secrets.append(key) }
            if let box = stored["sealed"]?["box"]?.stringValue { secrets.append(box) }
        }
        #expect(secrets.count >= 6)
        for secret in secrets {
            #expect(!trace.contains(secret), "the trace shows a secret: \(secret.prefix(12))…")
        }
    }
}

/// `login-pkce --mfa push`: the sign-in waits for the push and ends as the push was answered.
@Suite struct PushLoginTests {
    let configuration = [
        "--org-url", FakePushOrg.org, "--client-id", "0oaclient", "--redirect-uri", "com.example.app:/callback", "--scope", "profile",
        "--username", "jo@example.com", "--password-stdin",
    ]

    @Test func anApprovedPushFinishesTheLogin() async throws {
        let org = FakePushOrg()
        org.scriptAuthn(["WAITING", "WAITING", "SUCCESS"])
        let result = await CLI.run(["login-pkce", "--mfa", "push"] + configuration, transport: org.transport, stdin: "pw")
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.json?["access_token"] == "signed-in-at")
        #expect(result.stderr.contains("waiting"))
        let verifies = org.transport.requests.filter { $0.route == "POST /api/v1/authn/factors/opf1/verify" }
        #expect(verifies.count == 3)
        #expect(verifies.allSatisfy { $0.jsonBody?["stateToken"] == "00state" })
        let authorize = try #require(org.transport.requests.first { $0.route.hasSuffix("/authorize") })
        #expect(authorize.query("sessionToken") == "20111push-session")
    }

    @Test func aDeniedPushExits8() async {
        let org = FakePushOrg()
        org.scriptAuthn(["WAITING", "REJECTED"])
        let result = await CLI.run(["login-pkce", "--mfa", "push"] + configuration, transport: org.transport, stdin: "pw")
        #expect(result.exitCode == 8, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func aServerTimeoutAndOurOwnTimeoutExit9() async {
        let org = FakePushOrg()
        org.scriptAuthn(["WAITING", "TIMEOUT"])
        let timeout = await CLI.run(["login-pkce", "--mfa", "push"] + configuration, transport: org.transport, stdin: "pw")
        #expect(timeout.exitCode == 9, "\(timeout.stderr)")

        let patient = FakePushOrg()
        patient.scriptAuthn(["WAITING"])
        let result = await CLI.run(
            ["login-pkce", "--mfa", "push", "--mfa-timeout", "10"] + configuration, transport: patient.transport, stdin: "pw")
        #expect(result.exitCode == 9, "\(result.stderr)")
        #expect(result.error?["hint"]?.stringValue?.contains("--mfa-timeout") == true)
        #expect(patient.transport.requests.contains { $0.route == "POST /api/v1/authn/cancel" })
    }

    @Test func withoutMFAPushTheHintNamesIt() async {
        let org = FakePushOrg()
        let result = await CLI.run(["login-pkce"] + configuration, transport: org.transport, stdin: "pw")
        #expect(result.exitCode == 4)
        #expect(result.error?["hint"]?.stringValue?.contains("--mfa push") == true)
    }
}
