import Crypto
import Foundation
import IdFlowCore
import IdFlowFoundation
import JWTKit
import _CryptoExtras

/// An org that speaks the push-authenticator protocol of devices.md, shaped like the recorded fixtures:
/// discovery, enrollment, the jwt-bearer maintenance grant, pending lists, verify; and an Authn sign-in
/// that waits for a push.
public final class FakePushOrg: @unchecked Sendable {
    public static let org = "https://o.example.com"
    public static let orgKey = makeRSA()
    public static let strangerKey = makeRSA()

    public static func makeRSA() -> JWTKit.Insecure.RSA.PrivateKey {
        // swift-format-ignore: NeverUseForceTry
        try! JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
    }

    struct Challenge {
        var jwt: String
        var answer: JSONValue?
    }

    struct State {
        var enrollments: [String: JSONValue] = [:]
        var challenges: [String: Challenge] = [:]
        var order: [String] = []
        var authnResults: [String] = []
    }

    let state = Locked(State())

    public init() {}
    /// What the Authn poll answers, in order, once the push factor is verified (the last one repeats).
    public func scriptAuthn(_ results: [String]) { state.withLock { $0.authnResults = results } }

    public lazy var transport = RoutedTransport { [unowned self] request in self.route(request) }

    /// Mints a challenge for the enrollment as the org would (RS256, typ okta-pushbind+jwt), listed until answered.
    @discardableResult
    public func push(
        enrollment: String, userId: String = "00u1", userVerification: String? = nil,
        key: JWTKit.Insecure.RSA.PrivateKey = FakePushOrg.orgKey,
        expiresIn: Int = 300, overriding: [String: JSONValue] = [:]
    ) async throws -> String {
        let tx = "tx\(state.current.order.count + 1)"
        let now = Int(Date().timeIntervalSince1970)
        var claims: [String: JSONValue] = [
            "iss": .string(Self.org), "aud": "0oaclient", "iat": .number(Double(now)), "exp": .number(Double(now + expiresIn)),
            "nonce": .string("nonce-\(tx)"), "transactionId": .string(tx), "orgId": "00o1", "method": "push",
            "verificationUri": .string("\(Self.org)/idp/myaccount/app-authenticators/challenge/\(tx)/verify"),
            "authenticatorEnrollmentId": .string(enrollment), "userId": .string(userId),
            "challengeContext": [
                "clientOS": "Linux", "clientLocation": "Berlin, Germany", "transactionTime": "2026-11-22T10:00:00.000Z",
                "transactionType": "LOGIN",
            ],
        ]
        claims["userVerification"] = userVerification.map(JSONValue.string)
        claims.merge(overriding) { $1 }
        let collection = JWTKeyCollection()
        await collection.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: "org-key"))
        var header = JWTHeader()
        header.kid = "org-key"
        header.typ = "okta-pushbind+jwt"
        let jwt = try await collection.sign(AnyClaims(.object(claims)), kid: JWKIdentifier(string: "org-key"), header: header)
        state.withLock {
            $0.challenges[tx] = Challenge(jwt: jwt)
            $0.order.append(tx)
        }
        return tx
    }

    public func answer(_ tx: String) -> JSONValue? { state.current.challenges[tx]?.answer }

    private func enrollment(_ id: String, uv: Bool) -> String {
        """
        {"id":"\(id)","authenticatorId":"aut1","createdDate":"2026-11-22T10:00:00.000Z","lastUpdated":"2026-11-22T10:00:00.000Z",
        "device":{"id":"guo1","status":"ACTIVE","createdDate":"2026-11-22T10:00:00.000Z","lastUpdated":"2026-11-22T10:00:00.000Z",
        "clientInstanceId":"cli1","profile":{"displayName":"ci","platform":"LINUX"}},
        "user":{"id":"00u1","username":"jo@example.com"},
        "methods":{"push":{"id":"opf-\(id)","createdDate":"2026-11-22T10:00:00.000Z","lastUpdated":"2026-11-22T10:00:00.000Z",
        "links":{"pending":{"href":"\(Self.org)/idp/myaccount/app-authenticators/\(id)/push/notifications","hints":{"allow":["GET"]}}}}},
        "links":{"self":{"href":"\(Self.org)/idp/myaccount/app-authenticators/\(id)","hints":{"allow":["PATCH","DELETE"]}}}}
        """
    }

    private func route(_ request: HTTPRequest) -> RoutedTransport.Reply? {
        orgRoute(request) ?? enrollmentRoute(request)
    }

    /// The org's fixed paths: discovery, the authenticator configuration, the token endpoints and Authn.
    private func orgRoute(_ request: HTTPRequest) -> RoutedTransport.Reply? {
        switch request.route {
        case "GET /.well-known/okta-organization":
            return .json(200, "{\"id\":\"00o1\",\"_links\":{\"organization\":{\"href\":\"\(Self.org)\"}}}")
        case "GET /.well-known/app-authenticator-configuration":
            guard request.header("Authorization") == "Bearer user-at" else {
                return OktaReplies.error(401, code: "E0000011", summary: "Invalid token provided")
            }
            return .json(
                200,
                """
                [{"authenticatorId":"aut1","orgId":"00o1","key":"custom_app","name":"idflow push","settings":{"userVerification":"PREFERRED"},
                "supportedMethods":[{"type":"push","status":"ACTIVE","settings":{"keyProtection":"ANY","algorithms":["ES256","RS256"],"transactionTypes":["LOGIN"]}}],
                "appAuthenticatorEnrollEndpoint":"\(Self.org)/idp/myaccount/app-authenticators"}]
                """)
        case "POST /idp/myaccount/app-authenticators":
            let id = "pfd\(state.current.enrollments.count + 1)"
            let body = request.jsonBody ?? .null
            state.withLock { $0.enrollments[id] = body }
            return .json(200, enrollment(id, uv: body["methods"]?["push"]?["keys"]?["userVerification"] != nil))
        case "GET /.well-known/openid-configuration":
            return .json(
                200,
                """
                {"issuer":"\(Self.org)","authorization_endpoint":"\(Self.org)/oauth2/v1/authorize","token_endpoint":"\(Self.org)/oauth2/v1/token",
                "jwks_uri":"\(Self.org)/oauth2/v1/keys"}
                """)
        case "GET /oauth2/v1/keys":
            // swift-format-ignore: NeverUseForceTry
            let primitives = try! Self.orgKey.publicKey.getKeyPrimitives()
            return .json(
                200,
                "{\"keys\":[{\"kty\":\"RSA\",\"alg\":\"RS256\",\"use\":\"sig\",\"kid\":\"org-key\",\"e\":\"\(Base64URL.encode(primitives.publicExponent))\",\"n\":\"\(Base64URL.encode(primitives.modulus))\"}]}"
            )
        case "POST /oauth2/v1/token":
            guard request.formBody["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer" else { return nil }
            return .json(
                200,
                "{\"access_token\":\"maintenance-at\",\"token_type\":\"Bearer\",\"expires_in\":3600,\"scope\":\"\(request.formBody["scope"] ?? "")\"}"
            )
        case "GET /oauth2/default/.well-known/openid-configuration":
            return OktaReplies.discovery
        case "POST /api/v1/authn":
            return .json(
                200,
                """
                {"stateToken":"00state","expiresAt":"2026-11-22T10:05:00.000Z","status":"MFA_REQUIRED",
                "_embedded":{"user":{"id":"00u1","profile":{"login":"jo@example.com"}},"factors":[
                {"id":"sms1","factorType":"sms","provider":"OKTA","_links":{"verify":{"href":"\(Self.org)/api/v1/authn/factors/sms1/verify"}}},
                {"id":"opf1","factorType":"push","provider":"OKTA","_links":{"verify":{"href":"\(Self.org)/api/v1/authn/factors/opf1/verify"}}}]},
                "_links":{"cancel":{"href":"\(Self.org)/api/v1/authn/cancel"}}}
                """)
        case "POST /api/v1/authn/factors/opf1/verify":
            let result = state.withLock { state -> String in
                state.authnResults.count > 1 ? state.authnResults.removeFirst() : state.authnResults.first ?? "WAITING"
            }
            if result == "SUCCESS" {
                return .json(
                    200, "{\"status\":\"SUCCESS\",\"sessionToken\":\"20111push-session\",\"expiresAt\":\"2026-11-22T10:05:00.000Z\"}")
            }
            return .json(
                200,
                """
                {"stateToken":"00state","status":"MFA_CHALLENGE","factorResult":"\(result)",
                "_embedded":{"factor":{"id":"opf1","factorType":"push","provider":"OKTA"}},
                "_links":{"next":{"name":"\(result == "WAITING" ? "poll" : "verify")","href":"\(Self.org)/api/v1/authn/factors/opf1/verify"},
                "cancel":{"href":"\(Self.org)/api/v1/authn/cancel"}}}
                """)
        case "POST /api/v1/authn/cancel":
            return .json(200, "{\"status\":\"UNAUTHENTICATED\"}")
        case "GET /oauth2/default/v1/authorize":
            return .init(status: 302, headers: ["Location": "com.example.app:/callback?code=code1&state=\(request.query("state") ?? "")"])
        case "POST /oauth2/default/v1/token":
            return .json(200, "{\"token_type\":\"Bearer\",\"expires_in\":3600,\"access_token\":\"signed-in-at\",\"scope\":\"profile\"}")
        default:
            return nil
        }
    }

    /// One enrollment's paths: its pending challenges, a challenge's answer, update and delete.
    private func enrollmentRoute(_ request: HTTPRequest) -> RoutedTransport.Reply? {
        let parts = (request.url.path ?? "").split(separator: "/").map(String.init)
        // /idp/myaccount/app-authenticators/{id}[/push/notifications] and …/challenge/{tx}/verify
        guard parts.count >= 4, parts[0] == "idp", parts[2] == "app-authenticators" else { return nil }
        if parts[3] == "challenge", parts.count == 6, request.method == "POST" {
            let tx = parts[4]
            guard request.header("Authorization") == nil else { return nil }
            guard state.current.challenges[tx]?.answer == nil, state.current.challenges[tx] != nil else {
                return OktaReplies.error(404, code: "E0000007", summary: "Not found")
            }
            let response = request.jsonBody?["challengeResponse"]?.stringValue ?? ""
            let claims = (try? DecodedJWT(response))
            state.withLock { $0.challenges[tx]?.answer = .object(["header": claims?.header ?? .null, "claims": claims?.claims ?? .null]) }
            let consent = claims?.claims["challengeResponseContext"]?["userConsent"]?.stringValue ?? ""
            return consent.hasPrefix("APPROVED_") ? .json(200, "{}") : .init(status: 204)
        }
        let id = parts[3]
        guard state.current.enrollments[id] != nil else { return OktaReplies.error(404, code: "E0000008", summary: "Not found") }
        if parts.count == 6, parts[4] == "push", parts[5] == "notifications" {
            guard request.header("Authorization") == "Bearer maintenance-at" else { return nil }
            let pending = state.current.order.compactMap { tx -> String? in
                guard let challenge = state.current.challenges[tx], challenge.answer == nil else { return nil }
                return "{\"payloadVersion\":\"IDXv1\",\"challenge\":\"\(challenge.jwt)\"}"
            }
            return .json(200, "[\(pending.joined(separator: ","))]")
        }
        switch request.method {
        case "PATCH": return .json(200, enrollment(id, uv: true))
        case "DELETE":
            state.withLock { $0.enrollments[id] = nil }
            return .init(status: 204)
        default: return nil
        }
    }
}

/// Any JSON claims set, signable by jwt-kit; claim checks are the validator's job, so `verify` does nothing.
public struct AnyClaims: JWTPayload {
    public var claims: JSONValue
    public init(_ claims: JSONValue) { self.claims = claims }
    public init(from decoder: any Decoder) throws { claims = try JSONValue(from: decoder) }
    public func encode(to encoder: any Encoder) throws { try claims.encode(to: encoder) }
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}
