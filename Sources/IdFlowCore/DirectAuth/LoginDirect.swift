import Foundation
import IdFlowFoundation
import OneTimePasscode

/// Okta Direct Authentication (docs/protocols/direct-auth.md): the browserless grants of today's native apps, a
/// one-time code, an out-of-band push, SMS or voice call, or a password followed by a second factor at
/// `/challenge`. The tokens end the login as every login's do (``AuthorizationServer/completeLogin``): the ID token
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
    }

    /// The second factor, after `mfa_required`.
    public enum SecondFactor: String, Sendable, CaseIterable {
        case otp, push, sms, voice
    }

    /// The user's login; empty with `.resume`, whose kept sign-in knows it.
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

    public init(
        username: String, primary: Primary, mfa: SecondFactor? = nil, mfaCode: Code? = nil, bindingCode: SecretSource? = nil,
        acrValues: String? = nil, clientSecret: Secret? = nil, store: Bool = true
    ) {
        self.username = username
        self.primary = primary
        self.mfa = mfa
        self.mfaCode = mfaCode
        self.bindingCode = bindingCode
        self.acrValues = acrValues
        self.clientSecret = clientSecret
        self.store = store
    }

    /// The ACR asking Okta only to attest MFA (§8): its answer has no access token to store.
    static let mfaAttestation = "urn:okta:app:mfa:attestation"

    /// `noteBinding` hears how an out-of-band answer is tied to the sign-in as soon as the server says (a push's
    /// number, before the wait), so the demo's own authenticator can pick it while the sign-in waits.
    public func run(
        _ context: IdFlowContext, noteBinding: @escaping @Sendable (DirectLoginOutput.Binding) -> Void = { _ in }
    ) async throws(IdFlowError) -> DirectLoginOutput {
        if acrValues?.split(separator: " ").contains(Substring(Self.mfaAttestation)) == true {
            throw .invalidInput(
                "--acr-values \(Self.mfaAttestation) asks for an ID token alone (MFA attestation), which login-direct cannot store as a login yet",
                hint: "leave that value out of --acr-values")
        }
        let server = try await AuthorizationServer.discoverForLogin(context, clientSecret: clientSecret)
        let session = DirectAuthSession(
            login: self, server: server, endpoints: try DirectAuthEndpoints(tokenEndpoint: server.metadata.tokenEndpoint),
            scope: context.configuration.scope, context: context)
        let binding = Locked<DirectLoginOutput.Binding?>(nil)
        let tokens = try await server.completeLogin(
            context, scope: session.scope, nonce: .notInThisGrant(.directAuthentication), store: store
        ) { () throws(IdFlowError) in
            try await Interruption.cancellingOnInterrupt("interrupted while signing in") { () throws(IdFlowError) in
                try await session.signIn { used in
                    binding.withLock { $0 = used }
                    noteBinding(used)
                }
            }
        }
        return DirectLoginOutput(tokens: tokens, binding: binding.current)
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

    enum CodingKeys: String, CodingKey {
        case binding
    }

    public func encode(to encoder: any Encoder) throws {
        try tokens.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(binding, forKey: .binding)
    }
}
