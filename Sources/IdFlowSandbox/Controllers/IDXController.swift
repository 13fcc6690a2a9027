import Foundation
import HTTPTypes
import Hummingbird

/// The Identity Engine's interaction code flow for a password sign-in (idx.md §11): `{issuer}/v1/interact`,
/// `/idp/idx/introspect` and the hrefs its documents hand out (`identify`, `challenge/answer`, `cancel`).
/// Request bodies are read as JSON whatever their content type says (`application/json` or
/// `application/ion+json`, with or without `okta-version`), as §4 asks of a server.
struct IDXController {
    let state: SandboxState

    func register(in routes: RouteRegistry) {
        routes.oauth("/interact", .post, use: interact)
        routes.post("/idp/idx/introspect", use: introspect)
        routes.post("/idp/idx/identify", use: identify)
        routes.post("/idp/idx/enroll", use: selectEnrollProfile)
        routes.post("/idp/idx/enroll/new", use: enrollProfile)
        routes.post("/idp/idx/identify/select", use: cancel)
        routes.post("/idp/idx/challenge/answer", use: answer)
        routes.post("/idp/idx/cancel", use: cancel)
    }

    /// `POST {issuer}/v1/interact` (form): the same checks as `/authorize` (client, redirect URI, scopes,
    /// PKCE S256, state); OAuth errors as JSON.
    @Sendable func interact(
        _ request: Request, context: SandboxRequestContext, server: AuthorizationServer
    ) async throws -> Response {
        var request = request
        let body = String(decoding: try await request.bodyData(context: context), as: UTF8.self)
        let form = FormParameters(body)
        let client = try ClientAuthentication.authenticate(
            form: form, authorization: request.headers[.authorization], clients: state.configuration.oauthClients)
        guard let redirectURI = form["redirect_uri"], client.allowsRedirect(to: redirectURI) else {
            throw OAuthErrorResponse(
                .badRequest, "invalid_request", "The 'redirect_uri' parameter must be a Login redirect URI in the client app settings.")
        }
        let authorizeRequest: AuthorizeRequest
        do {
            // The interaction stands in for an authorization request: the same rules, with response_type implied.
            authorizeRequest = try AuthorizeController.validate(
                FormParameters(body + "&response_type=code"), server: server, client: client, redirectURI: redirectURI, mode: .query)
        } catch let error as AuthorizeController.RedirectedError {
            throw OAuthErrorResponse(.badRequest, error.error, error.description)
        }
        guard authorizeRequest.codeChallenge != nil else {
            throw OAuthErrorResponse(.badRequest, "invalid_request", "PKCE code challenge is required.")
        }
        let handle = await state.beginInteraction(authorizeRequest)
        return .json(["interaction_handle": .string(handle)])
    }

    /// `{"interactionHandle"}` (or `{"stateHandle"}` to pick a transaction up again) → where it stands.
    @Sendable func introspect(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        guard
            let transaction = await state.idxTransaction(
                stateHandle: body["stateHandle"]?.stringValue, interactionHandle: body["interactionHandle"]?.stringValue)
        else { return IDXWire.expired() }
        return await document(transaction)
    }

    /// `identify {"identifier", "stateHandle"}` → the password challenge (for any identifier: whether the
    /// user exists is only revealed by the password check).
    @Sendable func identify(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        guard let transaction = await liveTransaction(body), transaction.step == .identify else { return IDXWire.expired() }
        guard let identifier = body["identifier"]?.stringValue, !identifier.isEmpty else {
            return await document(transaction, error: IDXWire.message("Enter a username.", key: "errors.E0000001"), status: .badRequest)
        }
        return await document(await state.identify(transaction, login: identifier))
    }

    /// `select-enroll-profile {"stateHandle"}` (idx.md §9) → the `enroll-profile` form.
    @Sendable func selectEnrollProfile(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        guard let transaction = await liveTransaction(body), transaction.step == .identify else { return IDXWire.expired() }
        return await document(await state.selectEnrollProfile(transaction))
    }

    /// `enroll-profile {"userProfile": {...}, "stateHandle"}` → password enrollment, or the same form with
    /// field messages (400) for a missing, malformed or taken e-mail address.
    @Sendable func enrollProfile(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        guard let transaction = await liveTransaction(body), transaction.step == .enrollProfile else { return IDXWire.expired() }
        let profile =
            body["userProfile"]?.objectValue.map { Dictionary($0.members.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }) } ?? [:]
        switch await state.enrollProfile(transaction, profile: profile) {
        case .success(let next): return await document(next)
        case .failure(let errors): return await document(transaction, fieldErrors: errors, status: .badRequest)
        }
    }

    /// `challenge/answer {"credentials": {"passcode"}, "stateHandle"}` → the success document with the
    /// interaction code, or the same challenge with `errors.E0000004` (401). In a sign-up it enrolls the
    /// first password: the policy's messages on the field (400), or a new ACTIVE user and the code.
    @Sendable func answer(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        let passcode = body["credentials"]?["passcode"]?.stringValue ?? ""
        if let transaction = await liveTransaction(body), case .enrollPassword = transaction.step {
            switch await state.enrollPassword(transaction, password: passcode) {
            case .success(let next): return await document(next)
            case .failure(let errors): return await document(transaction, fieldErrors: errors, status: .badRequest)
            }
        }
        guard let transaction = await liveTransaction(body), case .challengePassword = transaction.step else {
            return IDXWire.expired()
        }
        guard let signedIn = await state.answerPassword(transaction, password: passcode) else {
            return await document(
                transaction, error: IDXWire.message("Authentication failed", key: "errors.E0000004"), status: .unauthorized)
        }
        return await document(signedIn)
    }

    /// `cancel {"stateHandle"}` → a fresh identify document for the same interaction.
    @Sendable func cancel(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let body = try await Self.body(request, context: context)
        guard let transaction = await liveTransaction(body) else { return IDXWire.expired() }
        return await document(await state.cancelInteraction(transaction))
    }

    private func liveTransaction(_ body: JSONValue) async -> IDXTransaction? {
        guard let stateHandle = body["stateHandle"]?.stringValue else { return nil }
        return await state.idxTransaction(stateHandle: stateHandle)
    }

    private func document(
        _ transaction: IDXTransaction, error: JSONValue? = nil, fieldErrors: IDXFieldErrors? = nil, status: HTTPResponse.Status = .ok
    ) async -> Response {
        IDXWire.response(
            IDXWire.document(transaction, orgURL: await state.orgURL, error: error, fieldErrors: fieldErrors), status: status)
    }

    /// The JSON body, whatever content type it came with; anything else is Okta's E0000003.
    static func body(_ request: Request, context: SandboxRequestContext) async throws -> JSONValue {
        var request = request
        return try await request.decodeJSONBody(JSONValue.self, context: context) ?? .object(JSONObject())
    }
}
