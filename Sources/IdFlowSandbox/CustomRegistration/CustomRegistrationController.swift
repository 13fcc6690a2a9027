import Foundation
import HTTPTypes
import Hummingbird

/// `POST /oauth/custom-registration/{idp}/init` and `/complete` (custom-registration.md §3, v1): HTTP Basic
/// client authentication, JSON bodies, 200 with the script's `status` for every script outcome, the errors of
/// §4 in the OAuth shape, and `Cache-Control: no-store`. Not under SSWS: the client's credentials protect it.
struct CustomRegistrationController {
    let state: SandboxState

    /// The paths this controller serves; `APITokenMiddleware` leaves them to the client authentication here.
    static let pathPrefix = "/oauth/custom-registration/"

    func register(in routes: RouteRegistry) {
        routes.post("/oauth/custom-registration/:idp/init", use: initStep)
        routes.post("/oauth/custom-registration/:idp/complete", use: completeStep)
    }

    @Sendable func initStep(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let clientId = try authenticate(request)
        let idp = try await state.customIdentityProvider(request.pathParameter("idp", context: context), initStep: true)
        var request = request
        let body = try await Self.body(&request, context: context)
        let (answer, transactionID) = await state.initCustomRegistration(idp, clientId: clientId, data: try Self.data(body))
        var reply: JSONObject = [:]
        if let transactionID { reply["transaction_id"] = .string(transactionID) }
        reply["data"] = OrderedJSON(answer.data)
        reply["status"] = .int(answer.status)
        return Self.noStore(.object(reply))
    }

    @Sendable func completeStep(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let clientId = try authenticate(request)
        let idp = try await state.customIdentityProvider(request.pathParameter("idp", context: context), initStep: false)
        var request = request
        let body = try await Self.body(&request, context: context)
        let data = try Self.data(body)
        let scopes = try Self.scopes(body, defaults: state.configuration.customRegistration.defaultScopes)
        guard let profileID = body["profile_id"]?.stringValue, profileID.count == 6 else {
            throw Self.invalidRequest("The 'profile_id' parameter is required: exactly 6 characters.")
        }
        if let grantType = body["grant_type"], !grantType.isNull {
            throw Self.invalidRequest(
                grantType.stringValue == "urn:onewelcome:oauth2:grant_type:stateless_authentication"
                    ? "Stateless registration is not allowed for this client." : "The grant_type is not supported.")
        }
        let transactionID: String?
        switch body["transaction_id"] {
        case nil, .null?: transactionID = nil
        case .string(let id)?: transactionID = id
        default: throw Self.invalidRequest("The 'transaction_id' parameter must be a string.")
        }
        let outcome = try await state.completeCustomRegistration(
            idp, clientId: clientId, transactionID: transactionID, data: data, scopes: scopes)
        var reply: JSONObject = ["status": .int(outcome.status)]
        if let grant = outcome.grant {
            let (accessToken, idToken) = try await TokenController.sign(grant, state: state)
            var token: JSONObject = ["token_type": "bearer", "access_token": .string(accessToken)]
            if let refreshToken = grant.refreshToken { token["refresh_token"] = .string(refreshToken) }
            if let idToken { token["id_token"] = .string(idToken) }
            token["expires_in"] = .int(grant.expiresIn)
            reply["oauth_token"] = .object(token)
        }
        if let transactionID = outcome.transactionID { reply["transaction_id"] = .string(transactionID) }
        if let data = outcome.data { reply["data"] = .string(data) }
        return Self.noStore(.object(reply))
    }

    /// HTTP Basic with the custom-registration client (§3.1); anything else is 400 invalid_client (§4).
    private func authenticate(_ request: Request) throws -> String {
        let registration = state.configuration.customRegistration
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("basic "),
            let (id, secret) = ClientAuthentication.decodeBasic(String(header.dropFirst(6)))
        else {
            throw OAuthErrorResponse(.badRequest, "invalid_client", "Client authentication with HTTP Basic is required.")
        }
        guard id == registration.clientId, let expected = registration.clientSecret, ConstantTime.equals(secret, expected) else {
            throw OAuthErrorResponse(.badRequest, "invalid_client", "The client is not valid for custom registration.")
        }
        return id
    }

    /// The JSON object body (an empty body is an empty object); anything else is 400 invalid_request.
    private static func body(_ request: inout Request, context: SandboxRequestContext) async throws -> JSONObject {
        let data = try await request.bodyData(context: context)
        if data.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) { return [:] }
        guard let value = try? JSONDecoder().decode(OrderedJSON.self, from: data), let object = value.objectValue else {
            throw invalidRequest("The request body must be a JSON object.")
        }
        return object
    }

    /// `data` is a raw string for the script (§3.2); structured data arrives as a JSON document in a string.
    private static func data(_ body: JSONObject) throws -> String? {
        switch body["data"] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw invalidRequest("The 'data' parameter must be a string.")
        }
    }

    /// `scope` is a JSON array of scopes the default authorization server knows; absent means the defaults.
    private static func scopes(_ body: JSONObject, defaults: [String]) throws -> [String] {
        guard let value = body["scope"], !value.isNull else { return defaults }
        guard case .array(let items) = value else {
            throw OAuthErrorResponse(.badRequest, "invalid_scope", "The 'scope' parameter must be a JSON array of scopes.")
        }
        let scopes = items.compactMap(\.stringValue)
        let known = Set(SandboxState.customRegistrationServer.scopesSupported)
        guard !scopes.isEmpty, scopes.count == items.count, scopes.allSatisfy(known.contains) else {
            throw OAuthErrorResponse(.badRequest, "invalid_scope", "The requested scope is invalid, unknown, or malformed.")
        }
        return scopes
    }

    private static func invalidRequest(_ description: String) -> OAuthErrorResponse {
        OAuthErrorResponse(.badRequest, "invalid_request", description)
    }

    private static func noStore(_ body: OrderedJSON) -> Response {
        var response = Response.json(body)
        response.headers[.cacheControl] = "no-store"
        response.headers[.pragma] = "no-cache"
        return response
    }
}
