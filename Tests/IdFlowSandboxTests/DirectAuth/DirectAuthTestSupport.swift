import Foundation
import HTTPTypes
import IdFlowTestSupport
import OneTimePasscode
import Testing

@testable import IdFlowSandbox

/// The requests of Okta Direct Authentication (direct-auth.md §3) as the SDKs send them, and the checks the Direct
/// Authentication tests share.
extension SandboxClient {
    static let directAuthClient = "0oaidflowsandbox0000"
    static let directAuthPassword = "Correct-Horse-7"
    static let oobGrant = "urn:okta:params:oauth:grant-type:oob"
    static let otpGrant = "urn:okta:params:oauth:grant-type:otp"
    static let mfaOTPGrant = "http://auth0.com/oauth/grant-type/mfa-otp"
    static let mfaOOBGrant = "http://auth0.com/oauth/grant-type/mfa-oob"

    /// `POST {base}/primary-authenticate` with `challenge_hint` OOB.
    func primaryAuthenticate(
        _ login: String, channel: String = "push", base: String = "/oauth2/default/v1", client: String = directAuthClient
    ) async throws -> Reply {
        try await postForm(
            "\(base)/primary-authenticate",
            [("client_id", client), ("login_hint", login), ("challenge_hint", Self.oobGrant), ("channel_hint", channel)])
    }

    /// `POST {base}/token` with `grant_type` and `fields` (and the client id).
    func directToken(
        _ grantType: String, _ fields: [(String, String)], base: String = "/oauth2/default/v1", client: String = directAuthClient
    ) async throws -> Reply {
        try await postForm("\(base)/token", [("client_id", client), ("grant_type", grantType)] + fields)
    }

    /// A poll of the primary OOB grant.
    func pollOOB(_ oobCode: String, scope: String = "openid profile offline_access", base: String = "/oauth2/default/v1")
        async throws -> Reply
    {
        try await directToken(Self.oobGrant, [("oob_code", oobCode), ("scope", scope)], base: base)
    }

    /// The password grant; with a user who must do MFA, the `mfa_token` of its 403.
    func passwordGrant(_ login: String, password: String = directAuthPassword, scope: String = "openid profile offline_access")
        async throws -> Reply
    {
        try await directToken("password", [("username", login), ("password", password), ("scope", scope)])
    }

    func mfaToken(_ login: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let reply = try await passwordGrant(login)
        #expect(reply.status == .forbidden, "\(reply.text)", sourceLocation: sourceLocation)
        return try #require(try reply.object()["mfa_token"] as? String, sourceLocation: sourceLocation)
    }

    /// `POST {base}/challenge`.
    func challenge(_ mfaToken: String, types: String, channel: String? = nil, base: String = "/oauth2/default/v1") async throws -> Reply {
        var fields = [("client_id", Self.directAuthClient), ("mfa_token", mfaToken), ("challenge_types_supported", types)]
        if let channel { fields.append(("channel_hint", channel)) }
        return try await postForm("\(base)/challenge", fields)
    }

    /// The current code of the device's Okta Verify TOTP seed, by the sandbox clock.
    func totpCode(_ device: EnrolledDevice, offsetSteps: Double = 0) async throws -> String {
        let secret = try #require(device.totpSecret.flatMap(TOTPSecret.init(base32:)))
        return TOTP(secret: secret).code(at: await state.now.addingTimeInterval(offsetSteps * 30))
    }

    /// Answers the device's waiting challenge (the number of a number challenge picked when given).
    func answerPush(_ device: EnrolledDevice, consent: String = "APPROVED_CONSENT_PROMPT", number: String? = nil) async throws -> Reply {
        let challenge = try #require(try await pendingChallenges(device).first)
        var overrides: [String: Any] = [:]
        if let number {
            overrides["challengeResponseContext"] = [
                "userConsent": consent, "transactionType": "LOGIN", "selectedChallengeTextItem": number,
            ]
        }
        return try await respond(to: challenge, device: device, consent: consent, overrides: overrides)
    }

    /// `GET /sandbox/records`.
    func records() async throws -> [String: Any] {
        try await send(.get, "/sandbox/records").object()
    }
}

extension Reply {
    /// The `amr` of the ID token of a token response.
    func amr(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let idToken = try #require(try object()["id_token"] as? String, "\(text)", sourceLocation: sourceLocation)
        return try #require(try jwtClaims(idToken)["amr"] as? [String], sourceLocation: sourceLocation)
    }

    /// An OAuth error with this status, `error` and `error_description`, sent as `application/json` with no charset.
    func expectDirectAuthError(
        _ status: HTTPResponse.Status, _ error: String, _ description: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(self.status == status, "\(text)", sourceLocation: sourceLocation)
        let body = try object(sourceLocation: sourceLocation)
        #expect(body["error"] as? String == error, "\(text)", sourceLocation: sourceLocation)
        #expect(body["error_description"] as? String == description, "\(text)", sourceLocation: sourceLocation)
        #expect(header("Content-Type") == "application/json", sourceLocation: sourceLocation)
    }

    /// The same key paths as the recording `okta-directauth/NAME`.
    func expectKeys(ofRecording name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = keyPaths(try Fixtures.object("okta-directauth/\(name)"))
        let got = keyPaths(try object(sourceLocation: sourceLocation))
        #expect(
            got == expected, "\(name): missing \(expected.subtracting(got).sorted()), extra \(got.subtracting(expected).sorted())",
            sourceLocation: sourceLocation)
    }
}

extension SandboxState {
    /// Gives the user a TOTP authenticator app (Google Authenticator) as if enrolled through the Identity Engine.
    func seedAuthenticatorApp(login: String, secret: TOTPSecret) throws {
        let user = try user(idOrLogin: login)
        var enrollments = idx.enrollments[user.id] ?? IDXUserEnrollments()
        enrollments.googleOTP = TOTPEnrollment(id: RandomToken.oktaID(prefix: "uft"), secret: secret, created: now)
        idx.enrollments[user.id] = enrollments
    }
}
