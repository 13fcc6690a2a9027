import Foundation
import IdFlowFoundation

/// The request options of a passkey start (direct-auth.md §6.1, §6.2): `/primary-authenticate` with the webauthn
/// `challenge_hint` or `/challenge` with mfa-webauthn answers `{"challengeType"?, "publicKey": {…},
/// "authenticatorEnrollments"?}`. The values are kept as sent; `requestOptions()` turns them into bytes, so a
/// document with a value that is not base64url is refused when it is about to be signed, naming the value.
public struct PasskeyStart: Sendable, Equatable {
    /// `challengeType`, camelCase here (the out-of-band answers say `challenge_type`).
    public var challengeType: String?
    /// `publicKey.challenge`, base64url.
    public var challenge: String
    /// `publicKey.rpId`, present only when the org names a custom RP ID.
    public var rpId: String?
    /// `publicKey.extensions.appid`: the org URL, from which the RP ID is derived when `rpId` is absent.
    public var appId: String?
    /// `publicKey.allowCredentials[].id`, base64url; empty for a discoverable sign-in.
    public var allowedCredentialIds: [String]
    /// `authenticatorEnrollments[].credentialId`: the user's passkeys at the org.
    public var enrolledCredentialIds: [String]
    public var userVerification: String?
    /// `publicKey.timeout`, in milliseconds.
    public var timeout: Int?

    struct Wire: Decodable {
        struct Credential: Decodable {
            var id: String?
        }
        struct Extensions: Decodable {
            var appid: String?
        }
        struct PublicKey: Decodable {
            var challenge: String?
            var rpId: String?
            var allowCredentials: [Credential]?
            var userVerification: String?
            var timeout: Int?
            var extensions: Extensions?
        }
        struct Enrollment: Decodable {
            var credentialId: String?
        }
        var challengeType: String?
        var publicKey: PublicKey?
        var authenticatorEnrollments: [Enrollment]?
    }

    /// Reads a 200 body; one without `publicKey.challenge` is not a passkey start.
    public static func parse(_ data: Data) throws(IdFlowError) -> PasskeyStart {
        let wire: Wire
        do { wire = try JSONDecoder().decode(Wire.self, from: data) } catch {
            throw .protocolViolation("the passkey options are not the expected JSON: \(HTTPResponse.describe(decodingError: error))")
        }
        guard let publicKey = wire.publicKey, let challenge = publicKey.challenge, !challenge.isEmpty else {
            throw .protocolViolation("the passkey options have no publicKey.challenge to sign")
        }
        return PasskeyStart(
            challengeType: wire.challengeType, challenge: challenge, rpId: publicKey.rpId, appId: publicKey.extensions?.appid,
            allowedCredentialIds: (publicKey.allowCredentials ?? []).compactMap(\.id),
            enrolledCredentialIds: (wire.authenticatorEnrollments ?? []).compactMap(\.credentialId),
            userVerification: publicKey.userVerification, timeout: publicKey.timeout)
    }

    /// The options as the authenticator takes them. The credentials allowed are `allowCredentials`, else the
    /// user's enrollments; neither (a discoverable sign-in) lets any passkey kept for this RP ID answer.
    public func requestOptions() throws(IdFlowError) -> PasskeyAuthenticator.RequestOptions {
        let listed = allowedCredentialIds.isEmpty ? enrolledCredentialIds : allowedCredentialIds
        var allowed: [[UInt8]] = []
        for id in listed {
            allowed.append(try Self.bytes(id, "a credential id"))
        }
        return PasskeyAuthenticator.RequestOptions(
            challenge: try Self.bytes(challenge, "the challenge"), userVerification: .init(userVerification),
            allowedCredentialIds: listed.isEmpty ? nil : allowed)
    }

    /// base64url (as sent, padded or not; a standard-alphabet value is read too).
    static func bytes(_ text: String, _ what: String) throws(IdFlowError) -> [UInt8] {
        var url = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while url.hasSuffix("=") { url.removeLast() }
        guard !url.isEmpty, let data = Base64URL.decode(url) else {
            throw .protocolViolation("\(what) of the passkey options, \(text), is not base64url")
        }
        return Array(data)
    }
}

/// `/primary-authenticate` with `challenge_hint=urn:okta:params:oauth:grant-type:webauthn` (§3.2): `login_hint`
/// when the user is named, none for a discoverable passkey.
struct PasskeyStartRequest: APIRequest {
    var endpoint: URL
    var client: ClientCredentials
    var username: String?
    var acrValues: String?

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        var fields = [("challenge_hint", DirectAuthGrant.webAuthn.rawValue)]
        if let username { fields.append(("login_hint", username)) }
        if let acrValues { fields.append(("acr_values", acrValues)) }
        return client.formRequest(endpoint, fields: fields)
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> PasskeyStart {
        guard response.isSuccess else { throw DirectAuthRefusal.error(response, grant: .webAuthn, client: client) }
        return try PasskeyStart.parse(response.body)
    }
}

/// A passkey kept here answering Direct Authentication's options: the relying party is the org idflow fetched the
/// options from (their `rpId`, else the `appid` host, else that host; exit 13 when the name is not that host or a
/// domain it belongs to), so a passkey signs only for its own origin; the assertion goes to `/token` as unpadded
/// base64url, as the Kotlin SDK sends it (webauthn.md §8).
struct DirectAuthPasskey: Sendable {
    let settings: PasskeyAuthenticator.Settings
    let context: IdFlowContext

    /// The `/token` fields of the assertion: `authenticatorData`, `clientDataJSON`, `signature`, `userHandle`.
    func answer(_ start: PasskeyStart, fetchedFrom url: URL) async throws(IdFlowError) -> [(String, String)] {
        let party = try RelyingParty(origin: url, requestedId: start.rpId, appId: start.appId)
        let authenticator = PasskeyAuthenticator(
            relyingParty: party, settings: settings, stateDirectory: context.configuration.stateDirectory)
        let signed = try await authenticator.get(try start.requestOptions(), context: context)
        context.message("direct: answering with passkey \(signed.passkeyId) for \(party.id)")
        return Self.fields(signed)
    }

    static func fields(_ signed: PasskeyAuthenticator.Signed) -> [(String, String)] {
        var fields = [
            ("authenticatorData", Base64URL.encode(signed.authenticatorData)), ("clientDataJSON", Base64URL.encode(signed.clientDataJSON)),
            ("signature", Base64URL.encode(signed.signature)),
        ]
        if !signed.userHandle.isEmpty { fields.append(("userHandle", Base64URL.encode(signed.userHandle))) }
        return fields
    }
}
