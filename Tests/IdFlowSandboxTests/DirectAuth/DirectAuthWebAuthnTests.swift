import Foundation
import HTTPTypes
import IdFlowTestSupport
import Testing

@testable import IdFlowSandbox

/// Direct Authentication's passkey grants (direct-auth.md §6): the options `/primary-authenticate` and `/challenge`
/// answer, the webauthn and mfa-webauthn grants that verify the assertion for real, and each error of §6.3.
@Suite("direct auth: passkeys")
struct DirectAuthWebAuthnTests {
    static let webAuthnGrant = "urn:okta:params:oauth:grant-type:webauthn"
    static let mfaWebAuthnGrant = "urn:okta:params:oauth:grant-type:mfa-webauthn"
    static let assertionFailure =
        "None of the WebAuthn authenticators the user has enrolled for was able to validate the assertion"
    static let noPending = "There is no pending WebAuthn challenge for the request."
    static let notAssociated =
        "The 'challenge' and the 'mfa_token' provided are not associated with each other. Review the values and try again."

    @Test("a first factor with login_hint: the options as recorded, then tokens for a base64url assertion; a challenge answers once")
    func firstFactorWithLoginHint() async throws {
        try await withSandbox { api in
            let (userId, authenticator) = try await api.enrollPasskey("ada@example.com")
            let orgURL = await api.state.orgURL
            let reply = try await api.startPasskey(loginHint: "ada@example.com")
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.header("Content-Type") == "application/json")
            #expect(reply.keysAppearInOrder(["challengeType", "publicKey", "authenticatorEnrollments"]))
            let body = try reply.object()
            #expect(body["challengeType"] as? String == Self.webAuthnGrant)
            let publicKey = try #require(body["publicKey"] as? [String: Any])
            #expect(publicKey["rpId"] == nil, "Okta names no RP ID unless the org sets a custom one")
            #expect(publicKey["timeout"] as? Int == 300_000)
            #expect(publicKey["userVerification"] as? String == "preferred")
            #expect((publicKey["extensions"] as? [String: Any])?["appid"] as? String == orgURL)
            let credentialId = WebAuthnBase64.encodeURL(authenticator.credentialId)
            let allowed = try #require(publicKey["allowCredentials"] as? [[String: Any]])
            #expect(allowed.map { $0["id"] as? String } == [credentialId] && allowed.first?["type"] as? String == "public-key")
            let enrollments = try #require(body["authenticatorEnrollments"] as? [[String: Any]])
            #expect(enrollments.map { $0["credentialId"] as? String } == [credentialId])
            // Every key the recordings show is there (rpId only with a custom RP ID).
            let got = keyPaths(body)
            #expect(keyPaths(try Fixtures.object("okta-directauth/swift-directauth-challenge-webauthn.json")).subtracting(got).isEmpty)
            #expect(
                keyPaths(try Fixtures.object("okta-directauth/kotlin-primary-authenticate-webauthn-response.json"))
                    .subtracting(got) == ["publicKey.rpId"])

            let assertion = authenticator.assertion(try await api.ceremony(reply))
            let tokens = try await api.directToken(Self.webAuthnGrant, assertion.urlFields + [("scope", "openid offline_access")])
            #expect(tokens.status == .ok, "\(tokens.text)")
            #expect(try tokens.amr() == ["hwk"])
            #expect(try jwtClaims(try #require(try tokens.object()["id_token"] as? String))["sub"] as? String == userId)
            #expect(await api.state.webAuthnCredentials(userId: userId).first?.signCount == 1)

            try await api.directToken(Self.webAuthnGrant, assertion.urlFields + [("scope", "openid")])
                .expectDirectAuthError(.badRequest, "invalid_grant", Self.noPending)
        }
    }

    @Test("a discoverable sign-in: no login_hint, no credentials named; userHandle (as text or base64) names the user")
    func discoverable() async throws {
        try await withSandbox { api in
            let (userId, authenticator) = try await api.enrollPasskey("ada@example.com")
            let (bobId, _) = try await api.enrollPasskey("bob@example.com", credentialId: Array(50..<66))

            let reply = try await api.startPasskey(loginHint: nil)
            #expect(reply.status == .ok, "\(reply.text)")
            let body = try reply.object()
            #expect((body["publicKey"] as? [String: Any])?["allowCredentials"] as? [Any] != nil)
            #expect(((body["publicKey"] as? [String: Any])?["allowCredentials"] as? [Any])?.isEmpty == true)
            #expect(body["authenticatorEnrollments"] == nil)
            let assertion = authenticator.assertion(try await api.ceremony(reply))
            let tokens = try await api.directToken(
                Self.webAuthnGrant, assertion.urlFields + [("userHandle", userId), ("scope", "openid")])
            #expect(tokens.status == .ok, "\(tokens.text)")
            #expect(try jwtClaims(try #require(try tokens.object()["id_token"] as? String))["sub"] as? String == userId)

            // The user handle as base64 of the id's UTF-8 (the widget's form), standard padded fields.
            let again = authenticator.assertion(try await api.ceremony(try await api.startPasskey(loginHint: nil)))
            let handle = Data(userId.utf8).base64EncodedString()
            try #require(
                try await api.directToken(Self.webAuthnGrant, again.standardFields + [("userHandle", handle), ("scope", "openid")])
                    .status == .ok)

            // No userHandle: the signature says whose passkey it is.
            let bare = authenticator.assertion(try await api.ceremony(try await api.startPasskey(loginHint: nil)))
            try #require(try await api.directToken(Self.webAuthnGrant, bare.urlFields + [("scope", "openid")]).status == .ok)

            // Ada's passkey with Bob's user handle: none of Bob's passkeys verifies it.
            let wrong = authenticator.assertion(try await api.ceremony(try await api.startPasskey(loginHint: nil)))
            try await api.directToken(Self.webAuthnGrant, wrong.urlFields + [("userHandle", bobId), ("scope", "openid")])
                .expectDirectAuthError(.badRequest, "invalid_grant", Self.assertionFailure)
        }
    }

    @Test("after a password: mfa_required offers mfa-webauthn; /challenge (Kotlin) answers camelCase options; the mfa-webauthn grant")
    func secondFactorThroughChallenge() async throws {
        try await withSandbox { api in
            let (_, authenticator) = try await api.enrollPasskey("ada@example.com")
            let required = try await api.passwordGrant("ada@example.com")
            try required.expectDirectAuthError(
                .forbidden, "mfa_required", "Verify with an additional authenticator to complete the sign-in process.")
            #expect(try required.object()["supported_challenge_types"] as? String == Self.mfaWebAuthnGrant)
            let mfaToken = try #require(try required.object()["mfa_token"] as? String)

            let kotlinDefault = "\(Self.mfaWebAuthnGrant) \(SandboxClient.mfaOOBGrant) \(SandboxClient.mfaOTPGrant)"
            let reply = try await api.challenge(mfaToken, types: kotlinDefault)
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(try reply.object()["challengeType"] as? String == Self.mfaWebAuthnGrant)
            #expect(
                keyPaths(try Fixtures.object("okta-directauth/kotlin-challenge-webauthn-response.json"))
                    .subtracting(keyPaths(try reply.object())) == ["publicKey.rpId"])

            let assertion = authenticator.assertion(try await api.ceremony(reply))
            try await api.directToken(Self.webAuthnGrant, assertion.urlFields + [("scope", "openid")])
                .expectDirectAuthError(.badRequest, "invalid_request", Self.notAssociated)
            // That attempt did not use up the challenge: it never reached the passkey.
            let tokens = try await api.directToken(Self.mfaWebAuthnGrant, assertion.urlFields + [("mfa_token", mfaToken)])
            #expect(tokens.status == .ok, "\(tokens.text)")
            #expect(try tokens.amr() == ["pwd", "hwk", "mfa"])
            #expect(try tokens.object()["scope"] as? String == "openid profile offline_access")
        }
    }

    @Test("after a password: /primary-authenticate with mfa_token (Swift) starts the same second factor")
    func secondFactorThroughPrimaryAuthenticate() async throws {
        try await withSandbox { api in
            let (_, authenticator) = try await api.enrollPasskey("ada@example.com")
            let mfaToken = try await api.mfaToken("ada@example.com")
            let reply = try await api.postForm(
                "/oauth2/default/v1/primary-authenticate",
                [
                    ("client_id", SandboxClient.directAuthClient), ("mfa_token", mfaToken),
                    ("challenge_hint", Self.webAuthnGrant),
                ])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(try reply.object()["challengeType"] as? String == Self.mfaWebAuthnGrant)
            let assertion = authenticator.assertion(try await api.ceremony(reply))
            let tokens = try await api.directToken(Self.mfaWebAuthnGrant, assertion.urlFields + [("mfa_token", mfaToken)])
            #expect(tokens.status == .ok, "\(tokens.text)")
            #expect(try tokens.amr() == ["pwd", "hwk", "mfa"])
        }
    }

    @Test("the errors of direct-auth.md §6.3, each exactly")
    func errors() async throws {
        try await withSandbox(configure: { $0.freezeClock = true }) { api in
            let (_, authenticator) = try await api.enrollPasskey("ada@example.com")
            let good = authenticator.assertion(try await api.ceremony(try await api.startPasskey(loginHint: "ada@example.com")))

            for missing in ["authenticatorData", "clientDataJSON", "signature"] {
                try await api.directToken(Self.webAuthnGrant, good.urlFields.filter { $0.0 != missing } + [("scope", "openid")])
                    .expectDirectAuthError(
                        .badRequest, "invalid_request",
                        "WebAuthn requests must contain 'authenticatorData', 'clientDataJSON', and 'signature'.")
            }
            let unreadable = "'clientDataJSON' is not a Base64 encoded JSON string containing a 'challenge'."
            for clientData in [
                "%%%", Data("not json".utf8).base64EncodedString(), Data(#"{"type":"webauthn.get"}"#.utf8).base64EncodedString(),
            ] {
                let fields = good.urlFields.map { $0.0 == "clientDataJSON" ? ($0.0, clientData) : $0 }
                try await api.directToken(Self.webAuthnGrant, fields + [("scope", "openid")])
                    .expectDirectAuthError(.badRequest, "invalid_request", unreadable)
            }

            // A challenge the sandbox never issued, and one that has expired.
            var ceremony = try await api.ceremony(try await api.startPasskey(loginHint: "ada@example.com"))
            let issued = ceremony.challenge
            ceremony.challenge = WebAuthnBase64.encodeURL(Array(repeating: 7, count: 32))
            try await api.directToken(Self.webAuthnGrant, authenticator.assertion(ceremony).urlFields + [("scope", "openid")])
                .expectDirectAuthError(.badRequest, "invalid_grant", Self.noPending)
            ceremony.challenge = issued
            try await api.advanceClock(seconds: 301)
            try await api.directToken(Self.webAuthnGrant, authenticator.assertion(ceremony).urlFields + [("scope", "openid")])
                .expectDirectAuthError(.badRequest, "invalid_grant", Self.noPending)

            // A passkey that signed for another origin.
            var elsewhere = try await api.ceremony(try await api.startPasskey(loginHint: "ada@example.com"))
            elsewhere.origin = "https://evil.example"
            try await api.directToken(Self.webAuthnGrant, authenticator.assertion(elsewhere).urlFields + [("scope", "openid")])
                .expectDirectAuthError(.badRequest, "invalid_grant", Self.assertionFailure)
            // A key the user never registered.
            let stranger = TestAuthenticator.es256(credentialId: authenticator.credentialId)
            let strange = stranger.assertion(try await api.ceremony(try await api.startPasskey(loginHint: "ada@example.com")))
            try await api.directToken(Self.webAuthnGrant, strange.urlFields + [("scope", "openid")])
                .expectDirectAuthError(.badRequest, "invalid_grant", Self.assertionFailure)

            // A second-factor challenge answered with another transaction's mfa_token.
            let mfaToken = try await api.mfaToken("ada@example.com")
            let other = try await api.mfaToken("ada@example.com")
            let reply = try await api.challenge(mfaToken, types: Self.mfaWebAuthnGrant)
            let answer = authenticator.assertion(try await api.ceremony(reply))
            try await api.directToken(Self.mfaWebAuthnGrant, answer.urlFields + [("mfa_token", other)])
                .expectDirectAuthError(.badRequest, "invalid_request", Self.notAssociated)
        }
    }

    @Test("a copied passkey whose sign count went backwards is refused, though its signature is good")
    func signCountGoingBackwards() async throws {
        try await withSandbox { api in
            let (userId, authenticator) = try await api.enrollPasskey("ada@example.com")
            let copy = authenticator.cloned()
            for _ in 0..<2 {
                let assertion = authenticator.assertion(try await api.ceremony(try await api.startPasskey(loginHint: "ada@example.com")))
                try #require(try await api.directToken(Self.webAuthnGrant, assertion.urlFields + [("scope", "openid")]).status == .ok)
            }
            #expect(await api.state.webAuthnCredentials(userId: userId).first?.signCount == 2)
            let stale = copy.assertion(try await api.ceremony(try await api.startPasskey(loginHint: "ada@example.com")))
            try await api.directToken(Self.webAuthnGrant, stale.urlFields + [("scope", "openid")])
                .expectDirectAuthError(.badRequest, "invalid_grant", Self.assertionFailure)
            #expect(await api.state.webAuthnCredentials(userId: userId).first?.signCount == 2)
        }
    }

    @Test("the Identity Engine's passkey policy applies: user verification required refuses a UP-only assertion")
    func userVerificationRequired() async throws {
        try await withSandbox(configure: { $0.idx.webAuthn.userVerification = .required }) { api in
            let (_, authenticator) = try await api.enrollPasskey("ada@example.com")
            let reply = try await api.startPasskey(loginHint: "ada@example.com")
            #expect((try reply.object()["publicKey"] as? [String: Any])?["userVerification"] as? String == "required")
            var presentOnly = try await api.ceremony(reply)
            presentOnly.flags = 0x01
            try await api.directToken(Self.webAuthnGrant, authenticator.assertion(presentOnly).urlFields + [("scope", "openid")])
                .expectDirectAuthError(.badRequest, "invalid_grant", Self.assertionFailure)
            let verified = authenticator.assertion(try await api.ceremony(try await api.startPasskey(loginHint: "ada@example.com")))
            #expect(try await api.directToken(Self.webAuthnGrant, verified.urlFields + [("scope", "openid")]).status == .ok)
        }
    }

    @Test("a custom RP ID is named in the options, as in the Kotlin recording, and the assertion must be made for it")
    func customRPID() async throws {
        try await withSandbox(configure: { $0.idx.webAuthn.rpId = "example.com" }) { api in
            let (_, authenticator) = try await api.enrollPasskey("ada@example.com")
            let reply = try await api.startPasskey(loginHint: "ada@example.com")
            #expect((try reply.object()["publicKey"] as? [String: Any])?["rpId"] as? String == "example.com")
            #expect(
                keyPaths(try Fixtures.object("okta-directauth/kotlin-primary-authenticate-webauthn-response.json"))
                    .subtracting(keyPaths(try reply.object())).isEmpty)
            var ceremony = try await api.ceremony(reply)
            let hostRPID = ceremony.rpId
            ceremony.rpId = "example.com"
            #expect(
                try await api.directToken(Self.webAuthnGrant, authenticator.assertion(ceremony).urlFields + [("scope", "openid")]).status
                    == .ok)
            var wrong = try await api.ceremony(try await api.startPasskey(loginHint: "ada@example.com"))
            wrong.rpId = hostRPID
            try await api.directToken(Self.webAuthnGrant, authenticator.assertion(wrong).urlFields + [("scope", "openid")])
                .expectDirectAuthError(.badRequest, "invalid_grant", Self.assertionFailure)
        }
    }

    @Test("starts Okta refuses: no passkey, an unknown user, a passkey recovery, an app without the grant")
    func refusedStarts() async throws {
        try await withSandbox(configure: {
            $0.directAuth.grants = [SandboxClient.directAuthClient: ["password", "oob"]]
        }) { api in
            _ = try await api.enrollPasskey("ada@example.com")
            let refusal =
                "The client is not authorized to use the provided grant type. Configured grant types: [authorization_code, "
                + "refresh_token, password, urn:okta:params:oauth:grant-type:oob]."
            try await api.startPasskey(loginHint: "ada@example.com").expectDirectAuthError(.badRequest, "unauthorized_client", refusal)
            try await api.startPasskey(loginHint: nil).expectDirectAuthError(.badRequest, "unauthorized_client", refusal)
            try await api.directToken(
                Self.webAuthnGrant, [("authenticatorData", "AA"), ("clientDataJSON", "AA"), ("signature", "AA"), ("scope", "openid")]
            ).expectDirectAuthError(.badRequest, "unauthorized_client", refusal)
        }
        try await withSandbox { api in
            _ = try await api.registerActiveUser(email: "ada@example.com")
            try await api.startPasskey(loginHint: "ada@example.com").expectDirectAuthError(
                .forbidden, "access_denied",
                "The required authenticator cannot be used. Check if it is required by policy and the user is enrolled in the "
                    + "authenticator and try again.")
            try await api.startPasskey(loginHint: "nobody@example.com").expectDirectAuthError(
                .badRequest, "invalid_grant", "The 'login_hint' does not uniquely identify a user.")
            try await api.postForm(
                "/oauth2/default/v1/primary-authenticate",
                [
                    ("client_id", SandboxClient.directAuthClient), ("challenge_hint", Self.webAuthnGrant),
                    ("login_hint", "ada@example.com"), ("intent", "recovery"),
                ]
            ).expectDirectAuthError(
                .forbidden, "access_denied", "Authenticators required by recovery policy are not enabled authenticators.")
        }
    }
}

extension SandboxClient {
    /// An ACTIVE user with a passkey registered as the Identity Engine would keep it (checked by the sandbox's own
    /// registration verifier, for this sandbox's origin), and the authenticator that holds its key.
    func enrollPasskey(_ email: String, credentialId: [UInt8] = Array(0..<16)) async throws -> (String, TestAuthenticator) {
        let (userId, _) = try await registerActiveUser(email: email)
        let authenticator = TestAuthenticator.es256(credentialId: credentialId)
        let challenge = WebAuthnBase64.encodeURL(Array(repeating: 1, count: 32))
        let ceremony = await state.webAuthnCeremony(challenge: challenge)
        let registration = authenticator.registration(
            TestAuthenticator.Ceremony(challenge: challenge, origin: ceremony.origin, rpId: ceremony.rpId))
        let credential = try WebAuthnRegistrationVerifier(ceremony: ceremony).verify(
            clientData: registration.clientData, attestation: registration.attestation, userId: userId, now: await state.now)
        try await state.addWebAuthnCredential(credential)
        return (userId, authenticator)
    }

    /// `/primary-authenticate` with the webauthn `challenge_hint`, and `login_hint` when given.
    func startPasskey(loginHint: String?) async throws -> Reply {
        var fields = [("client_id", Self.directAuthClient), ("challenge_hint", DirectAuthWebAuthnTests.webAuthnGrant)]
        if let loginHint { fields.append(("login_hint", loginHint)) }
        return try await postForm("/oauth2/default/v1/primary-authenticate", fields)
    }

    /// What a client answering these options signs: their challenge, the sandbox's origin and its host as RP ID.
    func ceremony(_ options: Reply, sourceLocation: SourceLocation = #_sourceLocation) async throws -> TestAuthenticator.Ceremony {
        let publicKey = try #require(try options.object()["publicKey"] as? [String: Any], "\(options.text)", sourceLocation: sourceLocation)
        let challenge = try #require(publicKey["challenge"] as? String, sourceLocation: sourceLocation)
        let orgURL = await state.orgURL
        let rpId = try #require(URLComponents(string: orgURL)?.host, sourceLocation: sourceLocation)
        return TestAuthenticator.Ceremony(challenge: challenge, origin: orgURL, rpId: rpId)
    }
}

extension TestAuthenticator.Assertion {
    /// The three fields as the Kotlin SDK posts them: unpadded base64url.
    var urlFields: [(String, String)] {
        [
            ("authenticatorData", Data(authenticatorData).base64URLEncodedString()),
            ("clientDataJSON", Data(clientDataJSON).base64URLEncodedString()), ("signature", Data(signature).base64URLEncodedString()),
        ]
    }

    /// Standard padded base64.
    var standardFields: [(String, String)] {
        [("authenticatorData", authData), ("clientDataJSON", clientData), ("signature", signatureData)]
    }
}

extension Data {
    fileprivate func base64URLEncodedString() -> String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
