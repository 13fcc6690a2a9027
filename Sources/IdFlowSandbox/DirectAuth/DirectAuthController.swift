import Foundation
import HTTPTypes
import Hummingbird

/// Okta Direct Authentication's own endpoints at the org and every custom authorization server (direct-auth.md §3):
/// `POST {issuer}/v1/primary-authenticate` (an OOB, or a passkey's options: `DirectAuthWebAuthnStart`), its older name
/// `/v1/oob-authenticate` (OOB only, no `challenge_hint`), and `/v1/challenge` after `mfa_required`. The grants are `DirectAuthGrants`, at `/v1/token`.
struct DirectAuthController {
    let state: SandboxState

    func register(in routes: RouteRegistry) {
        routes.oauth("/primary-authenticate", .post) { request, context, server in
            try await primaryAuthenticate(request, context: context, server: server, requiresChallengeHint: true)
        }
        routes.oauth("/oob-authenticate", .post) { request, context, server in
            try await primaryAuthenticate(request, context: context, server: server, requiresChallengeHint: false)
        }
        routes.oauth("/challenge", .post, use: challenge)
    }

    /// The form and the authenticated client (as at `/token`), errors in Direct Authentication's shape.
    private func authenticatedForm(_ request: Request, context: SandboxRequestContext) async throws -> (FormParameters, OAuthClient) {
        try await DirectAuthError.reshaping {
            var request = request
            let form = try await request.formBody(context: context)
            let client = try ClientAuthentication.authenticate(
                form: form, authorization: request.headers[.authorization], clients: state.configuration.oauthClients)
            return (form, client)
        }
    }

    /// `challenge_hint` (`urn:okta:params:oauth:grant-type:oob`; implied at `/oob-authenticate`), `login_hint`,
    /// `channel_hint` → the OOB's `oob_code`, `expires_in`, `interval` (push), `channel`, `binding_method`, `binding_code`.
    @Sendable func primaryAuthenticate(
        _ request: Request, context: SandboxRequestContext, server: HostedAuthorizationServer, requiresChallengeHint: Bool
    ) async throws -> Response {
        let (form, client) = try await authenticatedForm(request, context: context)
        if requiresChallengeHint {
            let hint = form["challenge_hint"] ?? ""
            if hint == DirectAuthGrant.webAuthn.rawValue {
                return try await DirectAuthWebAuthnStart(state: state).primaryAuthenticate(form, client: client, server: server)
            }
            guard hint == DirectAuthGrant.oob.rawValue else { throw DirectAuthError.invalidChallengeHint(hint) }
        }
        try DirectAuthGrants.require(.oob, of: client, configuration: state.configuration)
        guard let loginHint = form["login_hint"], !loginHint.isEmpty else { throw DirectAuthError.missingLoginHint }
        let channel = try Self.channel(form["channel_hint"] ?? "")
        let record =
            try DirectAuthIntent(form) == .recovery
            ? try await state.startRecoveryOOB(loginHint: loginHint, channel: channel, clientId: client.id, server: server)
            : try await state.startPrimaryOOB(loginHint: loginHint, channel: channel, clientId: client.id, server: server)
        return DirectAuthWire.oob(record, now: await state.now)
    }

    /// `mfa_token`, `challenge_types_supported` (space-separated), `channel_hint` for an OOB → `{"challenge_type"}` for
    /// an OTP, the OOB's answer with `challenge_type` first, or a passkey's options (`challengeType`, `publicKey`).
    @Sendable func challenge(
        _ request: Request, context: SandboxRequestContext, server: HostedAuthorizationServer
    ) async throws -> Response {
        let (form, client) = try await authenticatedForm(request, context: context)
        guard let mfaToken = form["mfa_token"], !mfaToken.isEmpty else {
            throw DirectAuthError(OAuthErrorResponse.missingParameter("mfa_token"))
        }
        // The second factor follows a password, which cannot start a recovery (direct-auth.md §9.1).
        if try DirectAuthIntent(form) != nil { throw DirectAuthError.recoveryAuthenticatorNotEnabled }
        let listed = (form["challenge_types_supported"] ?? "").split(separator: " ").map(String.init)
        guard !listed.isEmpty else { throw DirectAuthError.invalidChallengeType("") }
        var types: [DirectAuthGrant] = []
        for value in listed {
            guard let type = DirectAuthGrant(rawValue: value), [.mfaOTP, .mfaOOB, .mfaWebAuthn].contains(type) else {
                throw DirectAuthError.invalidChallengeType(value)
            }
            types.append(type)
        }
        let granted = state.configuration.directAuthGrants(of: client.id)
        let usable = types.filter(granted.contains)
        if usable.isEmpty { try DirectAuthGrants.require(types[0], of: client, configuration: state.configuration) }
        let channel = try form["channel_hint"].map(Self.channel)
        switch try await state.startDirectAuthChallenge(
            mfaToken: mfaToken, types: usable, channel: channel, clientId: client.id, server: server)
        {
        case .otp: return DirectAuthWire.otpChallenge()
        case .oob(let record): return DirectAuthWire.oob(record, now: await state.now, challengeType: .mfaOOB)
        case .webAuthn(let options): return DirectAuthWire.webAuthn(options)
        }
    }

    /// A `channel_hint`: `push`, `sms` or `voice`.
    static func channel(_ hint: String) throws -> DirectAuthChannel {
        guard let channel = DirectAuthChannel(rawValue: hint) else { throw DirectAuthError.invalidChannelHint(hint) }
        return channel
    }
}
