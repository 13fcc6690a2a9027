import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import IdFlowTestSupport
import JWTKit
import Testing

/// The sandbox's Identity Engine, password sign-in (idx.md §11): interact → introspect → identify →
/// challenge/answer → interaction code grant, with the fixtures' shapes.
@Suite struct IDXControllerTests {
    static let ion = "application/ion+json; okta-version=1.0.0"

    @Test func aPasswordSignInEndsWithTokensForTheInteractionCode() async throws {
        try await withSandbox { api in
            try await api.registerActiveUser(email: "ada@example.com", password: "Correct-Horse-7")
            let pkce = PKCEPair()
            let stateHandle = try await api.identified(as: "ada@example.com", pkce: pkce)

            // Sent as Android does (ion+json) rather than as the form's accepts says: both are read.
            let success = try await api.send(
                .post, "/idp/idx/challenge/answer", json: ["credentials": ["passcode": "Correct-Horse-7"], "stateHandle": stateHandle],
                contentType: Self.ion, auth: .none)
            #expect(success.status == .ok, "\(success.text)")
            #expect(success.header("Content-Type") == Self.ion)
            let document = try success.object()
            let issue = try #require(document["successWithInteractionCode"] as? [String: Any])
            #expect(issue["name"] as? String == "issue")
            #expect(issue["accepts"] as? String == "application/x-www-form-urlencoded")
            #expect((issue["href"] as? String)?.hasSuffix("/oauth2/default/v1/token") == true)
            let fields = try #require(issue["value"] as? [[String: Any]])
            let code = try #require(fields.first { $0["name"] as? String == "interaction_code" }?["value"] as? String)

            let tokens = try await api.postForm(
                "/oauth2/default/v1/token",
                [
                    ("grant_type", "interaction_code"), ("interaction_code", code), ("client_id", "0oaidflowsandbox0000"),
                    ("client_secret", ""), ("code_verifier", pkce.verifier),
                ])
            #expect(tokens.status == .ok, "\(tokens.text)")
            let idToken = try #require(try tokens.object()["id_token"] as? String)
            let claims = try await api.servedKeys().verify(idToken, as: TestIDClaims.self)
            #expect(claims.nonce == "n0nce")
            #expect(claims.preferred_username == "ada@example.com")

            // Single use: the same code again is refused.
            let replay = try await api.postForm(
                "/oauth2/default/v1/token",
                [
                    ("grant_type", "interaction_code"), ("interaction_code", code), ("client_id", "0oaidflowsandbox0000"),
                    ("code_verifier", pkce.verifier),
                ])
            #expect(replay.status == .badRequest)
            #expect(try replay.object()["error"] as? String == "invalid_grant")
        }
    }

    @Test func theInteractionCodeNeedsTheVerifierOfTheInteraction() async throws {
        try await withSandbox { api in
            try await api.registerActiveUser(email: "ada@example.com", password: "Correct-Horse-7")
            let stateHandle = try await api.identified(as: "ada@example.com", pkce: PKCEPair())
            let success = try await api.send(
                .post, "/idp/idx/challenge/answer", json: ["credentials": ["passcode": "Correct-Horse-7"], "stateHandle": stateHandle],
                auth: .none)
            let issue = try #require(try success.object()["successWithInteractionCode"] as? [String: Any])
            let fields = try #require(issue["value"] as? [[String: Any]])
            let code = try #require(fields.first { $0["name"] as? String == "interaction_code" }?["value"] as? String)
            let tokens = try await api.postForm(
                "/oauth2/default/v1/token",
                [
                    ("grant_type", "interaction_code"), ("interaction_code", code), ("client_id", "0oaidflowsandbox0000"),
                    ("code_verifier", PKCEPair().verifier),
                ])
            #expect(tokens.status == .badRequest)
            #expect(try tokens.object()["error"] as? String == "invalid_grant")
        }
    }

    @Test func aWrongPasswordIsAuthenticationFailedOnTheSameChallenge() async throws {
        try await withSandbox { api in
            try await api.registerActiveUser(email: "ada@example.com", password: "Correct-Horse-7")
            let stateHandle = try await api.identified(as: "ada@example.com", pkce: PKCEPair())
            let wrong = try await api.send(
                .post, "/idp/idx/challenge/answer", json: ["credentials": ["passcode": "nope"], "stateHandle": stateHandle], auth: .none)
            #expect(wrong.status == .unauthorized)
            let document = try wrong.object()
            let messages = try #require((document["messages"] as? [String: Any])?["value"] as? [[String: Any]])
            #expect((messages.first?["i18n"] as? [String: Any])?["key"] as? String == "errors.E0000004")
            #expect(messages.first?["class"] as? String == "ERROR")
            let remediation = try #require((document["remediation"] as? [String: Any])?["value"] as? [[String: Any]])
            #expect(remediation.first?["name"] as? String == "challenge-authenticator")
            // The same challenge can be answered again, and an unknown user fails the same way.
            let unknown = try await api.identified(as: "nobody@example.com", pkce: PKCEPair())
            let again = try await api.send(
                .post, "/idp/idx/challenge/answer", json: ["credentials": ["passcode": "x"], "stateHandle": unknown], auth: .none)
            #expect(again.status == .unauthorized)
        }
    }

    @Test func anUnknownStateHandleIsAnExpiredSessionDocument() async throws {
        try await withSandbox { api in
            for path in ["/idp/idx/introspect", "/idp/idx/identify", "/idp/idx/challenge/answer", "/idp/idx/cancel"] {
                let reply = try await api.send(
                    .post, path, json: ["stateHandle": "forged", "interactionHandle": "forged"], auth: .none)
                #expect(reply.status == .unauthorized, "\(path)")
                let document = try reply.object()
                #expect(Set(document.keys) == ["version", "messages"], "\(path)")
                #expect(reply.text.contains("idx.session.expired"))
            }
        }
    }

    @Test func interactChecksTheClientRedirectAndPKCE() async throws {
        try await withSandbox { api in
            let good = try await api.postForm("/oauth2/default/v1/interact", IDXControllerTests.interactFields(PKCEPair()))
            #expect(good.status == .ok)
            #expect((try good.object()["interaction_handle"] as? String)?.isEmpty == false)
            let orgAS = try await api.postForm("/oauth2/v1/interact", IDXControllerTests.interactFields(PKCEPair()))
            #expect(orgAS.status == .ok)
            let noPKCE = try await api.postForm(
                "/oauth2/default/v1/interact", IDXControllerTests.interactFields(PKCEPair()).filter { !$0.0.hasPrefix("code_challenge") })
            #expect(noPKCE.status == .badRequest)
            let badRedirect = try await api.postForm(
                "/oauth2/default/v1/interact",
                IDXControllerTests.interactFields(PKCEPair()).map { $0.0 == "redirect_uri" ? ($0.0, "https://evil.example/cb") : $0 })
            #expect(badRedirect.status == .badRequest)
            #expect(try badRedirect.object()["error"] as? String == "invalid_request")
        }
    }

    @Test func documentsCarryTheFixturesKeysAndStateHandlesInEveryForm() async throws {
        try await withSandbox { api in
            let pkce = PKCEPair()
            let handle = try await api.interact(pkce: pkce)
            let reply = try await api.send(.post, "/idp/idx/introspect", json: ["interactionHandle": handle], auth: .none)
            #expect(reply.keysAppearInOrder(["stateHandle", "version", "expiresAt", "intent", "remediation", "cancel", "app"]))
            let document = try reply.object()
            let stateHandle = try #require(document["stateHandle"] as? String)
            #expect(document["version"] as? String == "1.0.0")
            #expect(document["intent"] as? String == "LOGIN")
            let forms =
                ((document["remediation"] as? [String: Any])?["value"] as? [[String: Any]] ?? []) + [
                    document["cancel"] as? [String: Any] ?? [:]
                ]
            for form in forms {
                #expect((form["href"] as? String)?.hasPrefix("http") == true)
                let fields = form["value"] as? [[String: Any]] ?? []
                let hidden = try #require(fields.first { $0["name"] as? String == "stateHandle" })
                #expect(hidden["value"] as? String == stateHandle)
                #expect(hidden["visible"] as? Bool == false && hidden["mutable"] as? Bool == false)
            }
            // Cancel goes back to identify.
            let cancelled = try await api.send(.post, "/idp/idx/cancel", json: ["stateHandle": stateHandle], auth: .none)
            #expect(cancelled.status == .ok)
            #expect(cancelled.text.contains("\"name\":\"identify\""))
        }
    }

    static func interactFields(_ pkce: PKCEPair) -> [(String, String)] {
        [
            ("client_id", "0oaidflowsandbox0000"), ("scope", SandboxClient.defaultScope), ("redirect_uri", SandboxClient.redirectURI),
            ("code_challenge", pkce.challenge), ("code_challenge_method", "S256"), ("state", "st4te"), ("nonce", "n0nce"),
        ]
    }
}

extension SandboxClient {
    /// `/v1/interact` for the public client; returns the interaction handle.
    func interact(pkce: PKCEPair, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let reply = try await postForm("/oauth2/default/v1/interact", IDXControllerTests.interactFields(pkce))
        #expect(reply.status == .ok, "interact: \(reply.text)", sourceLocation: sourceLocation)
        return try #require(try reply.object()["interaction_handle"] as? String, sourceLocation: sourceLocation)
    }

    /// interact → introspect → identify; returns the state handle of the password challenge.
    func identified(as login: String, pkce: PKCEPair, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let handle = try await interact(pkce: pkce, sourceLocation: sourceLocation)
        let introspect = try await send(.post, "/idp/idx/introspect", json: ["interactionHandle": handle], auth: .none)
        #expect(introspect.status == .ok, "introspect: \(introspect.text)", sourceLocation: sourceLocation)
        let stateHandle = try #require(try introspect.object()["stateHandle"] as? String, sourceLocation: sourceLocation)
        let identify = try await send(
            .post, "/idp/idx/identify", json: ["identifier": login, "stateHandle": stateHandle], auth: .none)
        #expect(identify.status == .ok, "identify: \(identify.text)", sourceLocation: sourceLocation)
        #expect(identify.text.contains("challenge-authenticator"), sourceLocation: sourceLocation)
        return stateHandle
    }
}

/// The sandbox's IDX documents have the recorded documents' key paths (Tests/Fixtures/okta-idx).
struct IDXFixtureContractTests {
    /// Key paths of a recording, without the ones the sandbox adds or the recording lacks by age.
    static func expectSameKeys(_ reply: Reply, fixture name: String, ignoring: Set<String> = []) throws {
        let expected = keyPaths(try Fixtures.object("okta-idx/\(name)")).subtracting(ignoring)
        let got = keyPaths(try reply.object()).subtracting(ignoring)
        #expect(got == expected, "\(name): missing \(expected.subtracting(got).sorted()), extra \(got.subtracting(expected).sorted())")
    }

    /// `produces` and authenticator `key` are in newer recordings than the password ones; `required` on the
    /// identifier too.
    static let newerKeys: Set<String> = [
        "remediation.value[].produces", "cancel.produces", "remediation.value[].value[].required",
        "currentAuthenticatorEnrollment.value.key", "authenticators.value[].key", "authenticatorEnrollments.value[].key",
    ]

    /// The user as the newer (Okta Verify) recording shows it: `identifier` and `profile` next to `id`.
    static let newerUserKeys: Set<String> = [
        "user.value.identifier", "user.value.profile", "user.value.profile.firstName", "user.value.profile.lastName",
        "user.value.profile.timeZone", "user.value.profile.locale",
    ]

    @Test func identifyPasswordAndSuccessDocumentsHaveTheRecordedKeys() async throws {
        try await withSandbox { api in
            try await api.registerActiveUser(email: "ada@example.com", password: "Correct-Horse-7")
            let handle = try await api.interact(pkce: PKCEPair())
            let introspect = try await api.send(.post, "/idp/idx/introspect", json: ["interactionHandle": handle], auth: .none)
            try Self.expectSameKeys(introspect, fixture: "02-introspect-identify.json", ignoring: Self.newerKeys)
            let stateHandle = try #require(try introspect.object()["stateHandle"] as? String)
            let challenge = try await api.send(
                .post, "/idp/idx/identify", json: ["identifier": "ada@example.com", "stateHandle": stateHandle], auth: .none)
            // The password's `recover` (in a newer form, with `produces`) as recorded.
            try Self.expectSameKeys(
                challenge, fixture: "03-challenge-authenticator-password.json",
                ignoring: Self.newerKeys.union(["currentAuthenticatorEnrollment.value.recover.produces"]).union(
                    keyPaths(try Fixtures.object("okta-idx/03-challenge-authenticator-password.json")).filter { $0.hasPrefix("user") }))
            let success = try await api.send(
                .post, "/idp/idx/challenge/answer",
                json: ["credentials": ["passcode": "Correct-Horse-7"], "stateHandle": stateHandle], auth: .none)
            try Self.expectSameKeys(
                success, fixture: "04-success-with-interaction-code.json", ignoring: Self.newerKeys.union(Self.newerUserKeys))
        }
    }
}

/// Self-service sign-up (idx.md §9): select-enroll-profile → enroll-profile → select-authenticator-enroll →
/// password enrollment → success.
struct IDXSignUpRouteTests {
    @Test func aNewUserSignsUpWithAProfileAndAPolicyPasswordAndCanThenSignIn() async throws {
        try await withSandbox { api in
            try await api.registerActiveUser(email: "ada@example.com", password: "Correct-Horse-7")
            let handle = try await api.interact(pkce: PKCEPair())
            let introspect = try await api.send(.post, "/idp/idx/introspect", json: ["interactionHandle": handle], auth: .none)
            #expect(introspect.text.contains("\"name\":\"select-enroll-profile\""))
            let stateHandle = try #require(try introspect.object()["stateHandle"] as? String)

            let profileForm = try await api.send(.post, "/idp/idx/enroll", json: ["stateHandle": stateHandle], auth: .none)
            #expect(profileForm.status == .ok)
            #expect(profileForm.text.contains("\"name\":\"enroll-profile\"") && profileForm.text.contains("\"name\":\"userProfile\""))
            #expect(profileForm.text.contains("/idp/idx/enroll/new"))

            func profile(_ email: String) -> [String: Any] {
                ["userProfile": ["email": email, "firstName": "New", "lastName": "User"], "stateHandle": stateHandle]
            }
            let malformed = try await api.send(.post, "/idp/idx/enroll/new", json: profile("not-an-email"), auth: .none)
            #expect(malformed.status == .badRequest)
            #expect(malformed.text.contains("registration.error.invalidLoginEmail"))
            #expect(malformed.text.contains("\"name\":\"enroll-profile\""))
            let taken = try await api.send(.post, "/idp/idx/enroll/new", json: profile("ADA@example.com"), auth: .none)
            #expect(taken.status == .badRequest)
            #expect(taken.text.contains("registration.error.notUniqueWithinOrg"))

            let select = try await api.send(.post, "/idp/idx/enroll/new", json: profile("new@example.com"), auth: .none)
            #expect(select.status == .ok, "\(select.text)")
            #expect(select.text.contains("\"name\":\"select-authenticator-enroll\""))
            #expect(try select.object()["intent"] as? String == "ENROLL_NEW_USER")
            let passwordForm = try await api.send(
                .post, "/idp/idx/credential/enroll",
                json: ["authenticator": ["id": "autidflowpassword000", "methodType": "password"], "stateHandle": stateHandle], auth: .none)
            #expect(passwordForm.status == .ok, "\(passwordForm.text)")
            #expect(passwordForm.text.contains("\"name\":\"enroll-authenticator\""))
            #expect(passwordForm.text.contains("currentAuthenticator"))

            let weak = try await api.send(
                .post, "/idp/idx/challenge/answer", json: ["credentials": ["passcode": "short"], "stateHandle": stateHandle], auth: .none)
            #expect(weak.status == .badRequest)
            #expect(weak.text.contains("Passwords must have at least 8 characters."))
            #expect(weak.text.contains("\"name\":\"enroll-authenticator\""))

            let success = try await api.send(
                .post, "/idp/idx/challenge/answer",
                json: ["credentials": ["passcode": "Sunny-Meadow-42"], "stateHandle": stateHandle], auth: .none)
            #expect(success.status == .ok)
            #expect(success.text.contains("successWithInteractionCode"))

            // The new user is ACTIVE with that password: a sign-in as them succeeds.
            let signIn = try await api.identified(as: "new@example.com", pkce: PKCEPair())
            let signedIn = try await api.send(
                .post, "/idp/idx/challenge/answer",
                json: ["credentials": ["passcode": "Sunny-Meadow-42"], "stateHandle": signIn], auth: .none)
            #expect(signedIn.text.contains("successWithInteractionCode"))
        }
    }
}
