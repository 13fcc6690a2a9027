import Foundation
import Hummingbird

/// A passkey challenge Direct Authentication issued (direct-auth.md §6): from `/primary-authenticate` with the
/// webauthn `challenge_hint`, or after `mfa_required` from `/challenge` (the Kotlin SDK) or `/primary-authenticate`
/// with the `mfa_token` (the Swift SDK). The `/token` call that answers it names no transaction, so it is found by the
/// challenge inside `clientDataJSON`; it answers once.
struct DirectAuthWebAuthnRecord: Sendable {
    /// Unpadded base64url of the challenge bytes, as issued and as the store is keyed.
    let challenge: String
    /// The user `login_hint` or the `mfa_token` named; nil for a discoverable (usernameless) sign-in, where the
    /// assertion's `userHandle` names the user.
    let userId: String?
    let clientId: String
    let server: HostedAuthorizationServer
    let expiresAt: Date
    /// The MFA transaction this passkey is the second factor of; nil for a first factor.
    let mfaToken: String?
}

/// What a passkey start answers (`DirectAuthWire.webAuthn`): request options (W3C WebAuthn §5.5) under `publicKey`,
/// and the user's passkeys under `authenticatorEnrollments` when the user is known.
struct DirectAuthWebAuthnOptions: Sendable {
    /// `challengeType`: the webauthn grant for a first factor, mfa-webauthn for a second.
    let challengeType: DirectAuthGrant
    let challenge: String
    /// Only a custom RP ID is named; without one the client derives it from `extensions.appid` (webauthn.md §3).
    let rpId: String?
    /// The user's passkeys (`allowCredentials`, `authenticatorEnrollments`); empty for a discoverable sign-in.
    let credentials: [WebAuthnCredential]
    let userKnown: Bool
    let timeoutMilliseconds: Int
    let userVerification: WebAuthnUserVerification
    /// `extensions.appid`: the org URL.
    let appId: String
}

/// The assertion a `/token` call of the webauthn or mfa-webauthn grant posts (direct-auth.md §3.1, §6.1): base64 or
/// base64url, padded or not, as `WebAuthnBase64` reads them.
struct DirectAuthWebAuthnAnswer: Sendable {
    let authenticatorData: String
    let clientDataJSON: String
    let signature: String
    let userHandle: String?

    /// The three required fields, or Okta's refusal naming them all.
    init(_ form: FormParameters) throws {
        guard let authenticatorData = form["authenticatorData"], !authenticatorData.isEmpty,
            let clientDataJSON = form["clientDataJSON"], !clientDataJSON.isEmpty,
            let signature = form["signature"], !signature.isEmpty
        else { throw DirectAuthError.webAuthnFieldsMissing }
        self.authenticatorData = authenticatorData
        self.clientDataJSON = clientDataJSON
        self.signature = signature
        self.userHandle = form["userHandle"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The challenge `clientDataJSON` carries, as the store keys it (unpadded base64url of its bytes, so either
    /// alphabet finds it); Okta's `invalid_request` when the field is not base64 JSON with a challenge.
    func challenge() throws -> String {
        guard let bytes = WebAuthnBase64.decode(clientDataJSON),
            let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any],
            let text = object["challenge"] as? String, let challenge = WebAuthnBase64.decode(text)
        else { throw DirectAuthError.webAuthnClientDataUnreadable }
        return WebAuthnBase64.encodeURL(challenge)
    }
}

/// `/primary-authenticate` with `challenge_hint=urn:okta:params:oauth:grant-type:webauthn`: a first factor (with a
/// `login_hint`, or without one for a discoverable passkey), or, with an `mfa_token`, the Swift SDK's second factor
/// (direct-auth.md §6.2). Each needs its grant enabled for the app.
struct DirectAuthWebAuthnStart {
    let state: SandboxState

    func primaryAuthenticate(_ form: FormParameters, client: OAuthClient, server: HostedAuthorizationServer) async throws -> Response {
        // A passkey does not recover a password here: only OTP and OOB grants carry the recovery intent.
        if try DirectAuthIntent(form) != nil { throw DirectAuthError.recoveryAuthenticatorNotEnabled }
        let options: DirectAuthWebAuthnOptions
        if let mfaToken = form["mfa_token"], !mfaToken.isEmpty {
            try DirectAuthGrants.require(.mfaWebAuthn, of: client, configuration: state.configuration)
            options = try await state.startMFAWebAuthn(mfaToken: mfaToken, clientId: client.id, server: server)
        } else {
            try DirectAuthGrants.require(.webAuthn, of: client, configuration: state.configuration)
            let loginHint = form["login_hint"].flatMap { $0.isEmpty ? nil : $0 }
            options = try await state.startPrimaryWebAuthn(loginHint: loginHint, clientId: client.id, server: server)
        }
        return DirectAuthWire.webAuthn(options)
    }
}

extension DirectAuthWire {
    /// A passkey start, keys in the recorded order (`swift-directauth-challenge-webauthn.json`,
    /// `kotlin-primary-authenticate-webauthn-response.json`): camelCase `challengeType`, then `publicKey`, then the
    /// user's `authenticatorEnrollments`.
    static func webAuthn(_ options: DirectAuthWebAuthnOptions) -> Response {
        var publicKey: [(String, OrderedJSON)] = [("challenge", .string(options.challenge))]
        if let rpId = options.rpId { publicKey.append(("rpId", .string(rpId))) }
        publicKey += [
            (
                "allowCredentials",
                .array(
                    options.credentials.map {
                        .object(JSONObject([("type", .string("public-key")), ("id", .string($0.credentialIdText))]))
                    })
            ),
            ("timeout", .int(options.timeoutMilliseconds)),
            ("userVerification", .string(options.userVerification.rawValue)),
            ("extensions", .object(JSONObject([("appid", .string(options.appId))]))),
        ]
        var members: [(String, OrderedJSON)] = [
            ("challengeType", .string(options.challengeType.rawValue)), ("publicKey", .object(JSONObject(publicKey))),
        ]
        if options.userKnown {
            let enrollments: [OrderedJSON] = options.credentials.map { credential in
                .object(
                    JSONObject([
                        ("credentialId", .string(credential.credentialIdText)), ("displayName", .string("Passkey")),
                        ("profile", .object(JSONObject([("aaguid", .string(credential.aaguidText))]))),
                    ]))
            }
            members.append(("authenticatorEnrollments", .array(enrollments)))
        }
        return json(.object(JSONObject(members)))
    }
}
