import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import IdFlowTestSupport
import JWTKit
import Testing

/// `/api/v1/*` with service-app tokens beside SSWS (okta-core.md §H5): scopes per route, DPoP proofs for bound
/// tokens, and Okta's `WWW-Authenticate` challenges.
@Suite("the management API with OAuth access tokens")
struct ManagementAPIOAuthTests {
    static let clientId = ClientCredentialsTests.clientId

    /// A Bearer token with `scope`.
    static func bearerToken(_ api: SandboxClient, key: TestClientKey, scope: String) async throws -> String {
        let assertion = try await key.assertion(clientId: clientId, audience: await api.orgURL + "/oauth2/v1/token", now: await api.now)
        let reply = try await api.clientCredentials(assertion: assertion, scope: scope)
        #expect(reply.status == .ok, "\(reply.text)")
        return try #require(try reply.object()["access_token"] as? String)
    }

    @Test("a Bearer token reads users with okta.users.read; a write needs okta.users.manage (403 with the challenge)")
    func scopesPerRoute() async throws {
        let key = try await TestClientKey.rsa()
        try await ClientCredentialsTests.withServiceApp(key) { api in
            let orgURL = await api.orgURL
            let reader = try await Self.bearerToken(api, key: key, scope: "okta.users.read")
            let list = try await api.send(.get, "/api/v1/users?limit=1", auth: .header("Bearer \(reader)"))
            #expect(list.status == .ok, "\(list.text)")

            let create = try await api.send(
                .post, "/api/v1/users?activate=false",
                json: ["profile": ["email": "svc@example.com", "login": "svc@example.com", "firstName": "Svc", "lastName": "App"]],
                auth: .header("Bearer \(reader)"))
            #expect(create.status == .forbidden)
            #expect(try create.oktaError().code == "E0000006")
            let (scheme, parameters) = try create.challenge()
            #expect(scheme == "Bearer")
            #expect(parameters["error"] == "insufficient_scope")
            #expect(parameters["scope"] == "okta.users.manage")
            #expect(parameters["realm"] == orgURL)
            #expect(parameters["authorization_uri"] == orgURL + "/oauth2/v1/authorize")
            #expect(parameters["resource"] == "/api/v1/users")
            #expect(try OktaOAuthErrorCatalogue.lists("insufficient_scope", parameters["error_description"] ?? "", status: 403))

            let manager = try await Self.bearerToken(api, key: key, scope: "okta.users.manage")
            let created = try await api.send(
                .post, "/api/v1/users?activate=false",
                json: ["profile": ["email": "svc@example.com", "login": "svc@example.com", "firstName": "Svc", "lastName": "App"]],
                auth: .header("Bearer \(manager)"))
            #expect(created.status == .ok, "\(created.text)")
            #expect(try await api.send(.get, "/api/v1/users/svc@example.com", auth: .header("Bearer \(manager)")).status == .ok)

            // /sandbox/* stays SSWS-only.
            #expect(try await api.send(.get, "/sandbox/info", auth: .header("Bearer \(manager)")).status == .unauthorized)
        }
    }

    @Test("an unknown or expired token is 401 invalid_token; an unbound one with a proof is refused")
    func invalidTokens() async throws {
        let key = try await TestClientKey.rsa()
        try await ClientCredentialsTests.withServiceApp(key) { api in
            let token = try await Self.bearerToken(api, key: key, scope: "okta.users.read")
            let forged = try await api.send(.get, "/api/v1/users", auth: .header("Bearer \(token)x"))
            #expect(forged.status == .unauthorized)
            #expect(try forged.challenge().parameters["error"] == "invalid_token")
            #expect(try forged.oktaError().code == "E0000011")

            let proofKey = try await TestClientKey.p256()
            let proof = try await proofKey.proof(
                method: "GET", url: await api.orgURL + "/api/v1/users", now: await api.now, accessToken: token)
            let unbound = try await api.send(.get, "/api/v1/users", headers: [.dpop: proof], auth: .header("DPoP \(token)"))
            #expect(unbound.status == .unauthorized)
            #expect(try unbound.challenge().parameters["error_description"] == "The presented access_token is not DPoP bound.")

            await api.state.advanceClock(bySeconds: 3601)
            let expired = try await api.send(.get, "/api/v1/users", auth: .header("Bearer \(token)"))
            #expect(expired.status == .unauthorized)
            #expect(try expired.challenge().parameters["error"] == "invalid_token")
        }
    }

    @Test("a DPoP-bound token: DPoP scheme and a proof with ath, this URL and the bound key; each mistake refused")
    func boundToken() async throws {
        let client = try await TestClientKey.rsa()
        let proofKey = try await TestClientKey.p256()
        let otherKey = try await TestClientKey.p256()
        try await ClientCredentialsTests.withServiceApp(client, requireDPoP: true) { api in
            let (body, _) = try await TokenEndpointDPoPTests.dpopToken(api, client: client, proofKey: proofKey)
            let token = try #require(body["access_token"] as? String)
            let url = await api.orgURL + "/api/v1/users"

            // No nonce is needed at /api/v1, and a query string is not part of htu.
            let proof = try await proofKey.proof(method: "GET", url: url, now: await api.now, accessToken: token)
            let good = try await api.send(.get, "/api/v1/users?limit=1", headers: [.dpop: proof], auth: .header("DPoP \(token)"))
            #expect(good.status == .ok, "\(good.text)")

            let replay = try await api.send(.get, "/api/v1/users", headers: [.dpop: proof], auth: .header("DPoP \(token)"))
            #expect(replay.status == .badRequest)
            let (scheme, parameters) = try replay.challenge()
            #expect(scheme == "DPoP")
            #expect(parameters["algs"] == "RS256 RS384 RS512 ES256 ES384 ES512")
            #expect(parameters["error"] == "invalid_dpop_proof")
            #expect(parameters["error_description"] == "The DPoP proof JWT has already been used.")

            let cases: [(String?, String, String, String)] = [
                (nil, "DPoP", "invalid_request", "The resource request requires a DPoP proof."),
                (
                    try await proofKey.proof(method: "GET", url: url, now: await api.now, accessToken: token), "Bearer", "invalid_request",
                    "The resource request must use the DPoP authentication scheme when using a DPoP bound token."
                ),
                (
                    try await proofKey.proof(
                        method: "GET", url: await api.orgURL + "/api/v1/groups", now: await api.now, accessToken: token),
                    "DPoP", "invalid_dpop_proof", "'htu' claim in the DPoP proof JWT is invalid."
                ),
                (
                    try await proofKey.proof(method: "POST", url: url, now: await api.now, accessToken: token), "DPoP",
                    "invalid_dpop_proof",
                    "'htm' claim in the DPoP proof JWT is invalid."
                ),
                (
                    try await proofKey.proof(method: "GET", url: url, now: await api.now, accessToken: token + "x"), "DPoP",
                    "invalid_dpop_proof",
                    "'ath' claim in the DPoP proof does not match the presented access_token."
                ),
                (
                    try await otherKey.proof(method: "GET", url: url, now: await api.now, accessToken: token), "DPoP", "invalid_dpop_proof",
                    "The access_token is not bound to the provided DPoP proof."
                ),
            ]
            for (proof, scheme, error, description) in cases {
                var headers: HTTPFields = [:]
                if let proof { headers[.dpop] = proof }
                let reply = try await api.send(.get, "/api/v1/users", headers: headers, auth: .header("\(scheme) \(token)"))
                #expect(reply.status == .badRequest, "\(description): \(reply.status)")
                let challenge = try reply.challenge()
                #expect(challenge.scheme == "DPoP")
                #expect(challenge.parameters["error"] == error)
                #expect(challenge.parameters["error_description"] == description)
                #expect(try OktaOAuthErrorCatalogue.lists(error, description, status: 400), "\(description)")
            }
        }
    }
}
