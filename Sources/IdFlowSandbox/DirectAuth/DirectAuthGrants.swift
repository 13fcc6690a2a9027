import Foundation
import Hummingbird

/// The Direct Authentication grants of `/v1/token`, which `TokenController` hands over by `grant_type`: reads the
/// form, checks the app has the grant, and asks the state (`SandboxState+DirectAuthGrants`) for the tokens.
struct DirectAuthGrants {
    let state: SandboxState

    /// Whether `grantType` is one of this family's.
    static func handles(_ grantType: String?) -> Bool {
        grantType.flatMap(DirectAuthGrant.init(rawValue:)) != nil
    }

    /// Every `grant_type` a client may list in `grant_types_supported` (direct-auth.md §2).
    static let knownGrantTypes: Set<String> = Set(DirectAuthGrant.allCases.map(\.rawValue))

    /// Refuses a grant the app does not have (`directAuth.grants`): `unauthorized_client`, naming the grants it has.
    static func require(_ grant: DirectAuthGrant, of client: OAuthClient, configuration: SandboxConfiguration) throws {
        let granted = configuration.directAuthGrants(of: client.id)
        guard !granted.contains(grant) else { return }
        throw DirectAuthError.unauthorizedClient(configured: ["authorization_code", "refresh_token"] + granted.map(\.rawValue))
    }

    /// The unsigned tokens of a Direct Authentication grant, or its error in Direct Authentication's shape.
    func grant(_ form: FormParameters, client: OAuthClient, server: HostedAuthorizationServer) async throws -> UnsignedTokens {
        try await DirectAuthError.reshaping {
            guard let grant = form["grant_type"].flatMap(DirectAuthGrant.init(rawValue:)) else {
                throw OAuthErrorResponse.missingParameter("grant_type")
            }
            try Self.require(grant, of: client, configuration: state.configuration)
            let supported = try Self.grantTypesSupported(form)
            let intent = try DirectAuthIntent(form)
            let attestation = try MFAAttestation.requested(
                form, grant: grant, client: client, server: server, mfaPolicy: state.configuration.mfaPolicy)
            var tokens = try await tokens(grant, form, client: client, server: server, intent: intent, supported: supported)
            if attestation {
                tokens.idToken?.acr = MFAAttestation.acr
                tokens.idTokenOnly = true
            }
            return tokens
        }
    }

    /// The grant's tokens, once the request is known to be one the app may make.
    private func tokens(
        _ grant: DirectAuthGrant, _ form: FormParameters, client: OAuthClient, server: HostedAuthorizationServer,
        intent: DirectAuthIntent?, supported: [String]?
    ) async throws -> UnsignedTokens {
        if intent == .recovery {
            // A recovery proves who the user is with something other than the password: the password grant, and
            // the MFA grants that follow it, cannot start one.
            guard [.otp, .oob].contains(grant) else { throw DirectAuthError.recoveryAuthenticatorNotEnabled }
        }
        let primary = [DirectAuthGrant.password, .otp, .oob, .webAuthn].contains(grant)
        let scopes: [String]? =
            if let intent { try Self.scopes(form, server: server, intent: intent) } else {
                primary || form["scope"] != nil ? try Self.scopes(form, server: server) : nil
            }
        func field(_ name: String) throws -> String {
            try Required.text(form[name], else: OAuthErrorResponse.missingParameter(name))
        }
        switch grant {
        case .password:
            return try await state.directAuthPasswordGrant(
                username: try field("username"), password: try field("password"), scopes: scopes ?? [], clientId: client.id,
                server: server, grantTypesSupported: supported)
        case .otp:
            guard let loginHint = form["login_hint"], !loginHint.isEmpty else { throw DirectAuthError.missingLoginHint }
            return try await state.directAuthOTPGrant(
                loginHint: loginHint, otp: form["otp"] ?? "", scopes: scopes ?? [], clientId: client.id, server: server,
                intent: intent)
        case .mfaOTP:
            return try await state.directAuthMFAOTPGrant(
                mfaToken: try field("mfa_token"), otp: form["otp"] ?? "", scopes: scopes, clientId: client.id, server: server)
        case .oob, .mfaOOB:
            return try await state.directAuthOOBGrant(
                oobCode: try field("oob_code"), mfaToken: grant == .mfaOOB ? try field("mfa_token") : nil,
                bindingCode: form["binding_code"], scopes: scopes, clientId: client.id, server: server, intent: intent)
        case .webAuthn, .mfaWebAuthn:
            return try await state.directAuthWebAuthnGrant(
                DirectAuthWebAuthnAnswer(form), mfaToken: grant == .mfaWebAuthn ? try field("mfa_token") : nil, scopes: scopes,
                clientId: client.id, server: server)
        }
    }

    /// `grant_types_supported`, each value a grant Direct Authentication knows.
    static func grantTypesSupported(_ form: FormParameters) throws -> [String]? {
        guard let raw = form["grant_types_supported"] else { return nil }
        let values = raw.split(separator: " ").map(String.init)
        if let unknown = values.first(where: { !knownGrantTypes.contains($0) }) {
            throw DirectAuthError.invalidGrantTypeSupported(unknown)
        }
        return values
    }

    /// A recovery's scope: exactly `okta.myAccount.password.manage` (no `openid`: the token only changes the password),
    /// which the authorization server must offer (direct-auth.md §9.1).
    static func scopes(_ form: FormParameters, server: HostedAuthorizationServer, intent: DirectAuthIntent) throws -> [String] {
        let requested = form["scope"] ?? ""
        guard requested.split(separator: " ").map(String.init) == [intent.scope], server.scopesSupported.contains(intent.scope) else {
            throw DirectAuthError.scopeNotForIntent(requested, intent: intent.rawValue)
        }
        return [intent.scope]
    }

    /// The requested scopes, validated as `/authorize` validates them.
    static func scopes(_ form: FormParameters, server: HostedAuthorizationServer) throws -> [String] {
        do {
            return try AuthorizeController.requestedScopes(form["scope"], server: server)
        } catch {
            throw DirectAuthError(.badRequest, error.error, error.description)
        }
    }
}

/// What a Direct Authentication request is for besides signing in (direct-auth.md §9.1): `intent=recovery` (the Swift
/// SDK, Okta's catalogue) or `prompt=recover_authenticator` (the Kotlin SDK), treated alike.
enum DirectAuthIntent: String, Sendable {
    case recovery

    /// The one scope a token of this intent carries.
    var scope: String { SandboxState.passwordManageScope }

    /// The intent of a form: nil for a sign-in, an unknown `intent` refused.
    init?(_ form: FormParameters) throws {
        if let value = form["intent"] {
            guard let intent = Self(rawValue: value) else { throw DirectAuthError.invalidIntent(value) }
            self = intent
        } else if (form["prompt"] ?? "").split(separator: " ").contains("recover_authenticator") {
            self = .recovery
        } else {
            return nil
        }
    }
}
