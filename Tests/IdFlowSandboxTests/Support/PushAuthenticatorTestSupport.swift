import Crypto
import Foundation
import HTTPTypes
import IdFlowSandbox
import JWTKit
import Testing

/// An EC P-256 device key as the Devices SDK makes them: a fresh uppercase UUID as `kid`.
/// Tokens are signed with swift-crypto's ECDSA (raw R‖S), header and claims written by the test.
struct DeviceKey: Sendable {
    let kid = UUID().uuidString
    let privateKey = P256.Signing.PrivateKey()

    /// The public JWK sent at enrollment.
    var jwk: [String: Any] {
        let raw = privateKey.publicKey.rawRepresentation
        return [
            "kty": "EC", "crv": "P-256", "x": base64URL(raw.prefix(32)), "y": base64URL(raw.suffix(32)), "kid": kid,
            "okta:kpr": "SOFTWARE",
        ]
    }

    /// A compact JWS over `header` (alg ES256 and this key's kid unless given) and `claims`.
    func sign(_ claims: [String: Any], header: [String: Any] = [:]) throws -> String {
        var fullHeader: [String: Any] = ["alg": "ES256", "kid": kid]
        fullHeader.merge(header) { $1 }
        let input =
            base64URL(try JSONSerialization.data(withJSONObject: fullHeader)) + "."
            + base64URL(try JSONSerialization.data(withJSONObject: claims))
        return input + "." + base64URL(try privateKey.signature(for: Data(input.utf8)).rawRepresentation)
    }
}

/// The decoded claims of a JWT (no signature check).
func jwtClaims(_ token: String) throws -> [String: Any] {
    var segment = String(token.split(separator: ".")[1])
        .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while segment.count % 4 != 0 { segment += "=" }
    let data = try #require(Data(base64Encoded: segment))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// A push challenge's claims as a client reads them after checking the RS256 signature.
struct TestChallengeClaims: JWTPayload {
    var iss: String
    var aud: String
    var transactionId: String
    var nonce: String
    var userVerification: String?
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// A device the test enrolled: its ids and the private keys it holds.
struct EnrolledDevice: Sendable {
    let enrollmentId: String
    let userId: String
    let deviceId: String
    let clientInstanceId: String
    let methodId: String
    let login: String
    let accessToken: String
    let clientInstanceKey: DeviceKey
    let proofOfPossession: DeviceKey
    var userVerification: DeviceKey?
    /// The seed of the enrollment's TOTP method (`methods.totp.sharedSecret` of the enrollment answer).
    var totpSecret: String?

    var path: String { "/idp/myaccount/app-authenticators/\(enrollmentId)" }
    var pendingPath: String { path + "/push/notifications" }
}

extension SandboxClient {
    static let manageScope = "openid profile offline_access okta.myAccount.appAuthenticator.manage"

    /// Registers `email` and signs in through `/authorize` with `scope`; returns the user id and the access token.
    func accessToken(
        email: String, scope: String = manageScope, base: String = "/oauth2/default/v1",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (userId: String, accessToken: String) {
        let (userId, sessionToken) = try await registerActiveUser(email: email, sourceLocation: sourceLocation)
        return (userId, try await accessToken(sessionToken: sessionToken, scope: scope, base: base, sourceLocation: sourceLocation))
    }

    /// Exchanges a session token for an access token with `scope` (the code flow with PKCE).
    func accessToken(
        sessionToken: String, scope: String = manageScope, base: String = "/oauth2/default/v1",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let pkce = PKCEPair()
        let reply = try await authorize(authorizePath(base: base, pkce: pkce, scope: scope, sessionToken: sessionToken))
        let code = try #require(try redirectTarget(reply).parameters["code"], "authorize: \(reply.text)", sourceLocation: sourceLocation)
        let tokens = try await exchange(code: code, pkce: pkce, base: base)
        #expect(tokens.status == .ok, "token: \(tokens.text)", sourceLocation: sourceLocation)
        return try #require(try tokens.object()["access_token"] as? String, sourceLocation: sourceLocation)
    }

    func bearer(_ token: String) -> Auth { .header("Bearer \(token)") }

    /// The enrollment body of devices.md §2b for a first enrollment on the org.
    static func enrollmentBody(
        clientInstanceKey: DeviceKey, proofOfPossession: DeviceKey, userVerification: DeviceKey? = nil,
        authenticatorId: String = "autidflowsandbox0000"
    ) -> [String: Any] {
        var keys: [String: Any] = ["proofOfPossession": proofOfPossession.jwk]
        if let userVerification { keys["userVerification"] = userVerification.jwk }
        return [
            "authenticatorId": authenticatorId,
            "device": [
                "displayName": "ci-runner-7", "platform": "LINUX", "manufacturer": "idflow", "model": "x86_64",
                "osVersion": "6.8", "secureHardwarePresent": false, "screenLockType": "NONE",
                "clientInstanceBundleId": "idflow", "clientInstanceVersion": "1.0.0",
                "clientInstanceDeviceSdkVersion": "DeviceAuthenticator 1.1.0", "authenticatorAppKey": UUID().uuidString,
                "clientInstanceKey": clientInstanceKey.jwk,
            ],
            "methods": [
                "push": [
                    "pushToken": "", "apsEnvironment": "production", "capabilities": ["transactionTypes": ["LOGIN"]],
                    "keys": keys,
                ]
            ],
        ]
    }

    /// Registers `email`, gets a manage token and enrolls a new device (with a user-verification key
    /// when `userVerification`); fails the test unless the sandbox answers 200.
    func enrollDevice(
        email: String, userVerification: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> EnrolledDevice {
        let (_, token) = try await accessToken(email: email, sourceLocation: sourceLocation)
        return try await enrollDevice(accessToken: token, login: email, userVerification: userVerification, sourceLocation: sourceLocation)
    }

    func enrollDevice(
        accessToken: String, login: String, userVerification: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> EnrolledDevice {
        let cik = DeviceKey()
        let pop = DeviceKey()
        let uv = userVerification ? DeviceKey() : nil
        let reply = try await send(
            .post, "/idp/myaccount/app-authenticators",
            json: Self.enrollmentBody(clientInstanceKey: cik, proofOfPossession: pop, userVerification: uv),
            auth: bearer(accessToken))
        #expect(reply.status == .ok, "enroll: \(reply.text)", sourceLocation: sourceLocation)
        return try Self.enrolledDevice(
            reply, login: login, accessToken: accessToken, keys: (cik, pop, uv), sourceLocation: sourceLocation)
    }

    static func enrolledDevice(
        _ reply: Reply, login: String, accessToken: String, keys: (DeviceKey, DeviceKey, DeviceKey?),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> EnrolledDevice {
        let body = try reply.object(sourceLocation: sourceLocation)
        let device = try #require(body["device"] as? [String: Any], sourceLocation: sourceLocation)
        let push = try #require((body["methods"] as? [String: Any])?["push"] as? [String: Any], sourceLocation: sourceLocation)
        return EnrolledDevice(
            enrollmentId: try #require(body["id"] as? String), userId: try #require((body["user"] as? [String: Any])?["id"] as? String),
            deviceId: try #require(device["id"] as? String), clientInstanceId: try #require(device["clientInstanceId"] as? String),
            methodId: try #require(push["id"] as? String), login: login, accessToken: accessToken, clientInstanceKey: keys.0,
            proofOfPossession: keys.1, userVerification: keys.2,
            totpSecret: ((body["methods"] as? [String: Any])?["totp"] as? [String: Any])?["sharedSecret"] as? String)
    }

    /// `POST /sandbox/push` for the device's user; returns the transaction id.
    func push(_ device: EnrolledDevice, userVerification: String? = nil, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> String
    {
        var body: [String: Any] = ["login": device.login, "clientOS": "Linux", "clientLocation": "Berlin, Germany"]
        if let userVerification { body["userVerification"] = userVerification }
        let reply = try await send(.post, "/sandbox/push", json: body)
        #expect(reply.status == .ok, "push: \(reply.text)", sourceLocation: sourceLocation)
        return try #require(try reply.object()["transactionId"] as? String, sourceLocation: sourceLocation)
    }

    /// The waiting challenge JWTs on the device's pending link (with its manage token).
    func pendingChallenges(_ device: EnrolledDevice, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String] {
        let reply = try await send(.get, device.pendingPath, auth: bearer(device.accessToken))
        #expect(reply.status == .ok, "pending: \(reply.text)", sourceLocation: sourceLocation)
        return try reply.array(sourceLocation: sourceLocation).compactMap { $0["challenge"] as? String }
    }

    /// `GET /sandbox/push/{tx}`.
    func pushStatus(_ transactionId: String) async throws -> [String: Any] {
        try await send(.get, "/sandbox/push/\(transactionId)").object()
    }

    /// The challenge response of devices.md §6c for `challenge`, signed by the device's PoP key
    /// (or `key`); `overrides` replace claims (NSNull removes one), `header` adds header fields.
    func respond(
        to challenge: String, device: EnrolledDevice, consent: String = "APPROVED_CONSENT_PROMPT", key: DeviceKey? = nil,
        keyType: String? = nil, overrides: [String: Any] = [:], header: [String: Any] = [:]
    ) async throws -> Reply {
        let challengeClaims = try jwtClaims(challenge)
        let signer = key ?? device.proofOfPossession
        let isUV = signer.kid == device.userVerification?.kid
        let now = Int(await state.now.timeIntervalSince1970)
        var claims: [String: Any] = [
            "iss": device.enrollmentId, "aud": challengeClaims["iss"] as Any, "sub": device.userId,
            "iat": now, "exp": now + 300, "nbf": now - 300, "jti": UUID().uuidString,
            "tx": challengeClaims["transactionId"] as Any, "nonce": challengeClaims["nonce"] as Any,
            "methodEnrollmentId": device.methodId, "keyType": keyType ?? (isUV ? "userVerification" : "proofOfPossession"),
            "amr": isUV ? ["pin"] : [],
            "deviceSignals": ["id": device.deviceId, "clientInstanceId": device.clientInstanceId],
            "challengeResponseContext": ["userConsent": consent, "transactionType": "LOGIN"],
            "integrations": [], "signalProviders": [],
        ]
        for (name, value) in overrides { claims[name] = value is NSNull ? nil : value }
        var fullHeader: [String: Any] = ["typ": "okta-pushbind+jwt"]
        fullHeader.merge(header) { $1 }
        let verifyURI = try #require(challengeClaims["verificationUri"] as? String)
        let path = try #require(URLComponents(string: verifyURI)?.path)
        return try await send(
            .post, path, json: ["method": "push", "challengeResponse": try signer.sign(claims, header: fullHeader)], auth: .none)
    }

    /// The jwt-bearer assertion of devices.md §7b signed by the device's PoP key (or `key`).
    func assertion(for device: EnrolledDevice, key: DeviceKey? = nil, overrides: [String: Any] = [:]) async throws -> String {
        let now = Int(await state.now.timeIntervalSince1970)
        var claims: [String: Any] = [
            "iss": "urn:okta:devices:app:authenticator", "aud": await state.orgURL, "sub": device.userId,
            "methodEnrollmentId": device.methodId, "iat": now, "exp": now + 300, "nbf": now - 300, "jti": UUID().uuidString,
        ]
        for (name, value) in overrides { claims[name] = value is NSNull ? nil : value }
        return try (key ?? device.proofOfPossession).sign(claims, header: ["typ": "JWT"])
    }

    /// `POST /oauth2/v1/token` with the jwt-bearer grant.
    func maintenanceToken(
        assertion: String, scope: String? = "okta.myAccount.appAuthenticator.maintenance.manage"
    ) async throws -> Reply {
        var fields = [
            ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("client_id", "0oaidflowsandbox0000"),
        ]
        if let scope { fields.append(("scope", scope)) }
        fields.append(("assertion", assertion))
        return try await postForm("/oauth2/v1/token", fields)
    }
}
