import HTTPTypes
import Hummingbird

/// `/api/v1/users`: create, read, update, list/search and delete users (okta-core.md §A).
struct UsersController {
    let state: SandboxState

    func register(in routes: RouteRegistry) {
        routes.post("/api/v1/users", use: create)
        routes.get("/api/v1/users", use: list)
        routes.get("/api/v1/users/:id", use: get)
        routes.post("/api/v1/users/:id", use: { try await update($0, context: $1, replace: false) })
        routes.put("/api/v1/users/:id", use: { try await update($0, context: $1, replace: true) })
        routes.delete("/api/v1/users/:id", use: delete)
    }

    /// The body of create and update (`{"profile": {…}, "credentials": {…}}`, as Okta's SDKs send it);
    /// only a password credential is understood.
    struct UserBody: Decodable {
        struct Credentials: Decodable {
            struct Password: Decodable { var value: String? }
            var password: Password?
        }
        var profile: [String: OrderedJSON]?
        var credentials: Credentials?
    }

    /// `POST /api/v1/users?activate=` (default true) → 200 and the user.
    @Sendable func create(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        var request = request
        let activate = request.queryParameters.bool("activate", default: true)
        let body = try await request.decodeJSONBody(UserBody.self, context: context)
        let user = try await state.createUser(
            profile: body?.profile ?? [:], password: body?.credentials?.password?.value, activate: activate)
        return .json(UserWire.render(user, orgURL: await state.orgURL, style: state.configuration.activationURLStyle))
    }

    /// `POST /api/v1/users/{id}` (partial profile update) and `PUT` (`replace`: the profile becomes
    /// exactly the one sent) → 200 and the full user, as `GET` renders it.
    @Sendable func update(_ request: Request, context: SandboxRequestContext, replace: Bool) async throws -> Response {
        var request = request
        let id = request.pathParameter("id", context: context)
        let body = try await request.decodeJSONBody(UserBody.self, context: context)
        let user = try await state.updateUser(
            id: id, profile: body?.profile ?? [:], password: body?.credentials?.password?.value, replace: replace)
        return .json(UserWire.render(user, orgURL: await state.orgURL, style: state.configuration.activationURLStyle))
    }

    /// `GET /api/v1/users/{idOrLogin}`.
    @Sendable func get(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let user = try await state.user(idOrLogin: request.pathParameter("id", context: context))
        return .json(UserWire.render(user, orgURL: await state.orgURL, style: state.configuration.activationURLStyle))
    }

    /// `GET /api/v1/users?limit=&after=&search=&filter=&q=`, with `Link` headers for paging.
    @Sendable func list(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let parameters = request.queryParameters
        let query = try UserListQuery(parameters)
        let (users, next) = await state.listUsers(query)
        let orgURL = await state.orgURL
        let style = state.configuration.activationURLStyle
        var response = Response.json(.array(users.map { UserWire.render($0, orgURL: orgURL, style: style, collection: true) }))
        let base = "\(orgURL)/api/v1/users"
        let selfQuery = request.uri.query.map { "?\($0)" } ?? ""
        response.headers.append(HTTPField(name: .link, value: "<\(base)\(selfQuery)>; rel=\"self\""))
        if let next {
            var pairs = parameters.pairs.filter { $0.name != "after" && $0.name != "limit" }.map { ($0.name, $0.value) }
            pairs.insert(("limit", String(query.limit)), at: 0)
            pairs.append(("after", next))
            response.headers.append(
                HTTPField(name: .link, value: "<\(base)?\(FormParameters.encode(pairs))>; rel=\"next\""))
        }
        return response
    }

    /// `DELETE /api/v1/users/{id}` → 204; deactivates first if the user is not yet DEPROVISIONED.
    @Sendable func delete(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        try await state.deleteUser(id: request.pathParameter("id", context: context))
        return .empty(.noContent)
    }
}

extension HTTPField.Name {
    static let link = Self("Link")!
}
