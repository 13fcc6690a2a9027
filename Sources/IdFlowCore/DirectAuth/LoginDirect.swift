import Foundation
import IdFlowFoundation
import OneTimePasscode

/// Okta Direct Authentication (docs/protocols/direct-auth.md): the browserless grants of today's native apps, a
/// one-time code, an out-of-band push, SMS or voice call, a passkey kept here, or a password followed by a second
/// factor at `/challenge`. The tokens end the login as every login's do (``AuthorizationServer/completeLogin``): the ID token
/// validated, then stored, DPoP-bound with `--dpop`.
public struct LoginDirect: Sendable {
    /// Where a one-time code comes from.
    public enum Code: Sendable, Equatable {
        /// Typed or piped (`--otp-stdin`).
        case given(SecretSource)
        /// Computed from a kept seed (`--totp-secret-file`), each step's code sent once (`TOTPStepLedger`).
        case seed(TOTPSeedFile)
    }

    /// The first factor.
    public enum Primary: Sendable, Equatable {
        case otp(Code)
        case oob(OOBChannel)
        case password(SecretSource)
        /// Continue an SMS or voice sign-in a script stopped (`--resume`), with the code now given.
        case resume(String)
        /// A passkey kept here (direct-auth.md §6.1); without a username, a discoverable (usernameless) sign-in.
        case webAuthn
    }

    /// The second factor, after `mfa_required`.
    public enum SecondFactor: String, Sendable, CaseIterable {
        case otp, push, sms, voice, webauthn
    }

    /// The user's login; empty with `.resume`, whose kept sign-in knows it, and for a discoverable passkey.
    public var username: String
    public var primary: Primary
    /// The second factor; nil asks at a terminal and stops a script (exit 3).
    public var mfa: SecondFactor?
    /// The code of an OTP second factor (with `--mfa otp`).
    public var mfaCode: Code?
    /// Where the SMS or voice code comes from (`--binding-code-stdin`); nil asks at a terminal.
    public var bindingCode: SecretSource?
    public var acrValues: String?
    public var clientSecret: Secret?
    public var store: Bool
    /// What the sign-in is for besides signing in: `.recovery` for `password reset`, sent on every request.
    public var intent: DirectAuthIntent?
    /// How a kept passkey is opened (its PIN), for `.webAuthn` and `--mfa webauthn`.
    public var passkey: PasskeyAuthenticator.Settings

    public init(
        username: String, primary: Primary, mfa: SecondFactor? = nil, mfaCode: Code? = nil, bindingCode: SecretSource? = nil,
        acrValues: String? = nil, clientSecret: Secret? = nil, store: Bool = true, intent: DirectAuthIntent? = nil,
        passkey: PasskeyAuthenticator.Settings = .init()
    ) {
        self.intent = intent
        self.passkey = passkey
        self.username = username
        self.primary = primary
        self.mfa = mfa
        self.mfaCode = mfaCode
        self.bindingCode = bindingCode
        self.acrValues = acrValues
        self.clientSecret = clientSecret
        self.store = store
    }

    /// `noteBinding` hears how an out-of-band answer is tied to the sign-in as soon as the server says (a push's
    /// number, before the wait), so the demo's own authenticator can pick it while the sign-in waits.
    ///
    /// With `--acr-values urn:okta:app:mfa:attestation` the server vouches for the sign-in with an ID token alone:
    /// the scope sent is `openid` (the only one Okta allows for it), the ID token is validated, and nothing is
    /// stored, as there is no access token to call anything with; stderr says so.
    public func run(
        _ context: IdFlowContext, noteBinding: @escaping @Sendable (DirectLoginOutput.Binding) -> Void = { _ in }
    ) async throws(IdFlowError) -> DirectLoginOutput {
        let attesting = MFAAttestation.isAsked(acrValues)
        let scope = attesting ? "openid" : context.configuration.scope
        if attesting, scope != context.configuration.scope {
            context.message("direct: MFA attestation asks for the scope openid alone, not \(context.configuration.scope)")
        }
        let server = try await AuthorizationServer.discoverForLogin(context, clientSecret: clientSecret)
        let session = DirectAuthSession(
            login: self, server: server, endpoints: try DirectAuthEndpoints(tokenEndpoint: server.metadata.tokenEndpoint),
            scope: scope, context: context)
        let binding = Locked<DirectLoginOutput.Binding?>(nil)
        let tokens = try await server.completeLogin(
            context, scope: session.scope, nonce: .notInThisGrant(.directAuthentication), store: store && !attesting
        ) { () throws(IdFlowError) in
            try await Interruption.cancellingOnInterrupt("interrupted while signing in") { () throws(IdFlowError) in
                try await session.signIn { used in
                    binding.withLock { $0 = used }
                    noteBinding(used)
                }
            }
        }
        if attesting {
            context.message(
                "MFA attestation: the server vouched for the sign-in with an ID token alone (acr \(tokens.idTokenClaims?["acr"]?.stringValue ?? "none")); no access token, so nothing was stored"
            )
        }
        return DirectLoginOutput(tokens: tokens, binding: binding.current, attested: attesting)
    }
}

/// What `login-direct` prints (docs/contract.md): the token output's keys, and `binding` when the out-of-band
/// answer was tied to the sign-in: `{"method": "transfer", "number"}` for a push that made the user pick a number,
/// `{"method": "prompt"}` for an SMS or voice code typed back.
public struct DirectLoginOutput: Encodable, Sendable, Equatable {
    public struct Binding: Encodable, Sendable, Equatable {
        public var method: String
        public var number: String?
    }

    public var tokens: TokenOutput
    public var binding: Binding?
    /// An MFA attestation: the ID token alone, printed as the server sent it (`access_token` null) with
    /// `"mfa_attestation": true`.
    public var attested = false

    enum CodingKeys: String, CodingKey {
        case binding
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case accessToken = "access_token"
        case scope
        case idToken = "id_token"
        case idTokenClaims = "id_token_claims"
        case mfaAttestation = "mfa_attestation"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if attested {
            try container.encode(tokens.response.tokenType, forKey: .tokenType)
            try container.encode(0, forKey: .expiresIn)
            try container.encodeNil(forKey: .accessToken)
            try container.encodeIfPresent(tokens.response.scope, forKey: .scope)
            try container.encodeIfPresent(tokens.response.idToken, forKey: .idToken)
            try container.encodeIfPresent(tokens.idTokenClaims, forKey: .idTokenClaims)
            try container.encode(true, forKey: .mfaAttestation)
        } else {
            try tokens.encode(to: encoder)
        }
        try container.encodeIfPresent(binding, forKey: .binding)
    }
}
