import Foundation
import HTTPTypes
import Hummingbird

/// The MyAccount Password API (direct-auth.md §9.2): the signed-in user replaces the password (`PUT`, what a recovery
/// token from Direct Authentication's `intent=recovery` is for), changes it knowing the old one, and reads the rules
/// a new one must meet. Every call needs a user's token with `okta.myAccount.password.manage` and the API version in
/// `Accept`, as every `/idp/myaccount` call does.
struct MyAccountPasswordController {
    let state: SandboxState

    static let base = "/idp/myaccount/password"

    func register(in routes: RouteRegistry) {
        routes.on(Self.base, .put, takesUserToken: true, use: replace)
        routes.on("\(Self.base)/change-password", .post, takesUserToken: true, use: change)
        routes.on("\(Self.base)/complexity-requirements", .get, takesUserToken: true, use: complexityRequirements)
    }

    /// `PUT /idp/myaccount/password` `{"profile": {"password"}}` → 200, the Password object. The new password passes
    /// the policy and the history as every new password does (`setNewPassword`), else E0000080; a locked-out user
    /// ends ACTIVE, as after any reset.
    @Sendable func replace(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let user = try await authorized(request, context: context)
        var request = request
        let body = try await request.decodeJSONBody(OrderedJSON.self, context: context)
        let password = try Required.text(
            body?["profile"]?["password"]?.stringValue, else: OktaErrorResponse.blank("profile.password", field: "password"))
        let updated = try await state.replaceMyAccountPassword(userId: user.id, with: password)
        return MyAccountPasswordWire.password(updated, orgURL: await state.orgURL)
    }

    /// `POST …/change-password` `{"oldPassword", "newPassword"}` → 204: the old password verified (E0000014 when
    /// wrong), the new one checked as `PUT`'s.
    @Sendable func change(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let user = try await authorized(request, context: context)
        var request = request
        let body = try await request.decodeJSONBody(OrderedJSON.self, context: context)
        let old = try Required.text(body?["oldPassword"]?.stringValue, else: OktaErrorResponse.blank("oldPassword"))
        let new = try Required.text(body?["newPassword"]?.stringValue, else: OktaErrorResponse.blank("newPassword"))
        try await state.changeMyAccountPassword(userId: user.id, from: old, to: new)
        return .empty(.noContent)
    }

    /// `GET …/complexity-requirements` → the password policy's rules, as the sandbox publishes them everywhere.
    @Sendable func complexityRequirements(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        _ = try await authorized(request, context: context)
        return MyAccountPasswordWire.json(MyAccountPasswordWire.complexityRequirements)
    }

    /// The user's token (Bearer or DPoP, bound tokens with their proof), the version in `Accept`, then the password
    /// scope: 401 E0000011, 400 E0000021, 403 E0000006 as the app-authenticators API answers a missing scope.
    private func authorized(_ request: Request, context: SandboxRequestContext) async throws -> UserRecord {
        let scopes = [SandboxState.passwordManageScope]
        let (claims, user) = try await UserTokenBinding.myAccountToken(request, context: context, scopes: scopes, state: state)
        guard MyAccountPasswordWire.namesVersion(request.headers[.accept]) else { throw OktaErrorResponse.unsupportedMediaType }
        guard scopes.contains(where: claims.scp.contains) else { throw OktaErrorResponse.insufficientScope(scopes) }
        return user
    }
}
