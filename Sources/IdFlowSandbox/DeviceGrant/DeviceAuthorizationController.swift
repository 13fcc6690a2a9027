import Foundation
import HTTPTypes
import Hummingbird

/// The device authorization grant (RFC 8628): `POST {issuer}/v1/device/authorize`, the user's side at
/// `{org}/activate` (`GET` shows the code entry or the sign-in form, `POST /activate/signin` answers), and
/// `POST /sandbox/device` for scripts. The polling itself is a grant of the token endpoint (`TokenController`).
struct DeviceAuthorizationController {
    let state: SandboxState

    static let grantType = "urn:ietf:params:oauth:grant-type:device_code"

    static let unauthorizedClient = OAuthErrorResponse(
        .badRequest, "unauthorized_client",
        "The client is not authorized to use the provided grant type. Configured grant types: [authorization_code, refresh_token].")

    func register(in routes: RouteRegistry) {
        routes.oauth("/device/authorize", .post, use: authorize)
        routes.get("/activate", use: activate)
        routes.post("/activate/signin", use: signIn)
        routes.post("/sandbox/device", use: decide)
    }

    /// `POST {issuer}/v1/device/authorize` (form: `client_id`, `scope`, client authentication as at `/token`).
    @Sendable func authorize(
        _ request: Request, context: SandboxRequestContext, server: HostedAuthorizationServer
    ) async throws -> Response {
        var request = request
        let form = try await request.formBody(context: context)
        let client = try ClientAuthentication.authenticate(
            form: form, authorization: request.headers[.authorization], clients: state.configuration.oauthClients)
        guard client.allowsDeviceGrant else { throw Self.unauthorizedClient }
        let scopes: [String]
        do {
            scopes = try AuthorizeController.requestedScopes(form["scope"], server: server)
        } catch {
            throw OAuthErrorResponse(.badRequest, error.error, error.description)
        }
        let record = await state.startDeviceAuthorization(client: client, server: server, scopes: scopes)
        return DeviceAuthorizationWire.authorization(record, orgURL: await state.orgURL, now: await state.now)
    }

    /// `GET /activate[?user_code=…]`: the sign-in form for a code that waits for an answer, else the code entry
    /// (400 with a message when the code given cannot be used).
    @Sendable func activate(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let orgURL = await state.orgURL
        guard let typed = request.queryParameters["user_code"], !typed.isEmpty else {
            return DeviceAuthorizationWire.codeEntryPage(orgURL: orgURL)
        }
        guard let record = await state.pendingDeviceAuthorization(userCode: typed) else {
            return DeviceAuthorizationWire.codeEntryPage(orgURL: orgURL, error: Self.unusableCode)
        }
        return DeviceAuthorizationWire.signInPage(orgURL: orgURL, userCode: record.userCode)
    }

    static let unusableCode = "This code is invalid, has expired, or was already used. Check the code shown on the device."

    /// `POST /activate/signin` (form: `txn` = the user code, `username`, `password`, `decision` = `approve`, the
    /// default, or `deny`): the result page, or the form again after a wrong password.
    @Sendable func signIn(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        var request = request
        let form = try await request.formBody(context: context)
        let orgURL = await state.orgURL
        let userCode = form["txn"] ?? ""
        guard let verdict = DeviceVerdict(rawValue: form["decision"] ?? DeviceVerdict.approve.rawValue) else {
            return DeviceAuthorizationWire.signInPage(orgURL: orgURL, userCode: userCode, error: "Choose to allow or deny.")
        }
        let username = form["username"] ?? ""
        switch await state.completeDeviceSignIn(
            userCode: userCode, username: username, password: form["password"] ?? "", verdict: verdict)
        {
        case .unknownCode:
            return DeviceAuthorizationWire.codeEntryPage(orgURL: orgURL, error: Self.unusableCode)
        case .rejected:
            return DeviceAuthorizationWire.signInPage(
                orgURL: orgURL, userCode: userCode, error: "Sign-in failed: check your username and password.", username: username)
        case .decided(let decision):
            return DeviceAuthorizationWire.resultPage(decision)
        }
    }

    struct DecisionBody: Decodable {
        var userCode: String?
        var login: String?
        var decision: String?
    }

    /// `POST /sandbox/device {"userCode","login","decision":"approve"|"deny"}` (SSWS) → `{"userCode","status",
    /// "userId","login"}`; the user must be ACTIVE, the code known, unexpired and not yet answered.
    @Sendable func decide(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        var request = request
        let body = try await request.requireJSONBody(DecisionBody.self, context: context)
        let userCode = try Required.text(
            body.userCode,
            else: OktaErrorResponse.validation("userCode", causes: ["userCode: the user code shown on the device is required"]))
        let login = try Required.text(
            body.login, else: OktaErrorResponse.validation("login", causes: ["login: the login of the user who answers is required"]))
        guard let verdict = body.decision.flatMap(DeviceVerdict.init(rawValue:)) else {
            throw OktaErrorResponse.validation("decision", causes: ["decision: must be approve or deny"])
        }
        let (record, user) = try await state.decideDeviceAuthorization(userCode: userCode, login: login, verdict: verdict)
        return .json([
            "userCode": .string(record.userCode), "status": .string(record.decision.status), "userId": .string(user.id),
            "login": .string(user.login),
        ])
    }
}
