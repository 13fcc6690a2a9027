import Foundation
import IdFlowFoundation

/// The grants of Okta Direct Authentication (docs/protocols/direct-auth.md §2): the `grant_type` each sends
/// and the name the app's grant type has in Okta's admin console, which must be turned on for the app.
public enum DirectAuthGrant: String, Sendable, CaseIterable {
    case password = "password"
    case otp = "urn:okta:params:oauth:grant-type:otp"
    case oob = "urn:okta:params:oauth:grant-type:oob"
    case mfaOTP = "http://auth0.com/oauth/grant-type/mfa-otp"
    case mfaOOB = "http://auth0.com/oauth/grant-type/mfa-oob"
    case webAuthn = "urn:okta:params:oauth:grant-type:webauthn"
    case mfaWebAuthn = "urn:okta:params:oauth:grant-type:mfa-webauthn"

    /// The grant type's name under the app's General settings in the admin console.
    public var consoleName: String {
        switch self {
        case .password: return "Resource Owner Password"
        case .otp: return "OTP"
        case .oob: return "OOB"
        case .mfaOTP: return "MFA OTP"
        case .mfaOOB: return "MFA OOB"
        case .webAuthn: return "WebAuthn"
        case .mfaWebAuthn: return "MFA WebAuthn"
        }
    }
}

/// What a Direct Authentication request is for besides signing in (§9.1): `recovery` proves who a user who forgot the
/// password is, for a token that can only set a new one (`okta.myAccount.password.manage`). Sent as `intent`, the
/// name Okta's catalogue and the Swift SDK use.
public enum DirectAuthIntent: String, Sendable {
    case recovery
}

/// Where an out-of-band code goes (`channel_hint`, §5.3).
public enum OOBChannel: String, Sendable, CaseIterable, Equatable {
    case push, sms, voice
}

/// How the user ties the out-of-band answer to this sign-in (§5.1).
public enum BindingMethod: String, Sendable, Equatable {
    /// Approve the push; nothing to compare.
    case none
    /// Okta Verify's number challenge: pick `binding_code` on the phone.
    case transfer
    /// SMS or voice: type the code received back here.
    case prompt
}

/// The endpoints of Direct Authentication, found as okta-mobile-swift finds them: the discovered
/// `token_endpoint` with its last path segment `token` replaced (§1). The discovery document lists none of them.
public struct DirectAuthEndpoints: Sendable, Equatable {
    public var token: URL
    public var primaryAuthenticate: URL
    public var oobAuthenticate: URL
    public var challenge: URL

    public init(tokenEndpoint: URL) throws(IdFlowError) {
        guard tokenEndpoint.lastPathComponent == "token" else {
            throw .protocolViolation(
                "the token endpoint \(tokenEndpoint.absoluteString) does not end in /token, so the Direct Authentication endpoints beside it cannot be found"
            )
        }
        let base = tokenEndpoint.deletingLastPathComponent()
        token = tokenEndpoint
        primaryAuthenticate = base.appendingPathComponent("primary-authenticate")
        oobAuthenticate = base.appendingPathComponent("oob-authenticate")
        challenge = base.appendingPathComponent("challenge")
    }
}

/// The start of an out-of-band authentication (`/primary-authenticate`, `/oob-authenticate`, `/challenge`; §4.1).
public struct OOBStart: Sendable, Equatable {
    public var oobCode: String
    /// Seconds the code lives: the wait ends then (exit 9).
    public var expiresIn: Int
    /// Seconds between polls (push only); 5 when absent.
    public var interval: Int?
    public var channel: OOBChannel
    public var bindingMethod: BindingMethod
    /// The number to pick on the phone, with `transfer`.
    public var bindingCode: String?
    /// On `/challenge` answers: the grant that redeems it.
    public var challengeType: String?

    struct Wire: Decodable {
        var oobCode: String?
        var expiresIn: Int?
        var interval: Int?
        var channel: String?
        var bindingMethod: String?
        var bindingCode: String?
        var challengeType: String?

        enum CodingKeys: String, CodingKey {
            case oobCode = "oob_code"
            case expiresIn = "expires_in"
            case interval, channel
            case bindingMethod = "binding_method"
            case bindingCode = "binding_code"
            case challengeType = "challenge_type"
        }
    }

    /// Reads a 200 body, refusing what the SDKs refuse: no `oob_code` or `expires_in`, an unknown channel (`email`)
    /// or binding method, and a number challenge without its number.
    public static func parse(_ data: Data) throws(IdFlowError) -> OOBStart {
        let wire: Wire
        do { wire = try JSONDecoder().decode(Wire.self, from: data) } catch {
            throw .protocolViolation("the out-of-band start is not the expected JSON: \(HTTPResponse.describe(decodingError: error))")
        }
        guard let oobCode = wire.oobCode, !oobCode.isEmpty else { throw .protocolViolation("the out-of-band start has no oob_code") }
        guard let expiresIn = wire.expiresIn else { throw .protocolViolation("the out-of-band start has no expires_in") }
        guard let channel = wire.channel.flatMap(OOBChannel.init(rawValue:)) else {
            throw .protocolViolation(
                "the out-of-band start names an unknown channel \(wire.channel ?? "(none)"); idflow knows push, sms and voice")
        }
        guard let binding = wire.bindingMethod.flatMap(BindingMethod.init(rawValue:)) else {
            throw .protocolViolation(
                "the out-of-band start names an unknown binding_method \(wire.bindingMethod ?? "(none)"); idflow knows none, transfer and prompt"
            )
        }
        if binding == .transfer, (wire.bindingCode ?? "").isEmpty {
            throw .protocolViolation("the push asks for a number challenge (binding_method transfer) but sends no binding_code to show")
        }
        return OOBStart(
            oobCode: oobCode, expiresIn: expiresIn, interval: wire.interval, channel: channel, bindingMethod: binding,
            bindingCode: wire.bindingCode, challengeType: wire.challengeType)
    }
}

/// `mfa_required` (§4.4): the first factor passed, a second is needed. Okta answers 403, the SDKs' tests 400;
/// any 4xx with this error is one.
public struct MFARequired: Sendable, Equatable {
    public var mfaToken: String
    /// The grants the server offers for the second factor; nil when it did not say (then any may do).
    public var supportedChallengeTypes: [String]?

    struct Wire: Decodable {
        var error: String
        var mfaToken: String?
        var supportedChallengeTypes: String?

        enum CodingKeys: String, CodingKey {
            case error
            case mfaToken = "mfa_token"
            case supportedChallengeTypes = "supported_challenge_types"
        }
    }

    /// The `mfa_required` a response carries, nil when it is something else; one without `mfa_token` is refused.
    public static func parse(status: Int, body: Data) throws(IdFlowError) -> MFARequired? {
        guard (400...499).contains(status), let wire = try? JSONDecoder().decode(Wire.self, from: body), wire.error == "mfa_required"
        else { return nil }
        guard let token = wire.mfaToken, !token.isEmpty else {
            throw .protocolViolation("the server asked for a second factor (mfa_required) without the mfa_token to continue with")
        }
        return MFARequired(
            mfaToken: token, supportedChallengeTypes: wire.supportedChallengeTypes.map { $0.split(separator: " ").map(String.init) })
    }
}
