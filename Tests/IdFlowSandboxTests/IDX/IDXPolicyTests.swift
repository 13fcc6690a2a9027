import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// An IDX document as a test reads it.
struct IDXDocument {
    let reply: Reply
    let body: [String: Any]

    init(_ reply: Reply, sourceLocation: SourceLocation = #_sourceLocation) throws {
        self.reply = reply
        body = try reply.object(sourceLocation: sourceLocation)
    }

    var status: HTTPResponse.Status { reply.status }
    var stateHandle: String? { body["stateHandle"] as? String }
    var forms: [[String: Any]] { (body["remediation"] as? [String: Any])?["value"] as? [[String: Any]] ?? [] }
    var remediationNames: [String] { forms.compactMap { $0["name"] as? String } }
    var messageKeys: [String] {
        ((body["messages"] as? [String: Any])?["value"] as? [[String: Any]] ?? []).compactMap {
            ($0["i18n"] as? [String: Any])?["key"] as? String
        }
    }
    var messageTexts: [String] {
        ((body["messages"] as? [String: Any])?["value"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
    }

    func form(_ name: String) -> [String: Any]? { forms.first { $0["name"] as? String == name } }

    /// `{"type":"object","value":{…}}` members such as `currentAuthenticator` and `user`.
    func object(_ key: String) -> [String: Any]? { (body[key] as? [String: Any])?["value"] as? [String: Any] }
    func list(_ key: String) -> [[String: Any]] { (body[key] as? [String: Any])?["value"] as? [[String: Any]] ?? [] }

    /// The options of a form's `authenticator` field, each as its immutable `name → value` pairs and label.
    func authenticatorOptions(_ formName: String) -> [(label: String, values: [String: String], relatesTo: String?)] {
        let fields = form(formName)?["value"] as? [[String: Any]] ?? []
        let options = fields.first { $0["name"] as? String == "authenticator" }?["options"] as? [[String: Any]] ?? []
        return options.map { option in
            let inner = ((option["value"] as? [String: Any])?["form"] as? [String: Any])?["value"] as? [[String: Any]] ?? []
            var values: [String: String] = [:]
            for field in inner {
                guard let name = field["name"] as? String, let value = field["value"] as? String else { continue }
                // A valued field is immutable; a method to choose (phone, Okta Verify) has options instead.
                values[name] = value
                #expect(field["mutable"] as? Bool == false, "valued option fields are immutable")
            }
            return (option["label"] as? String ?? "", values, option["relatesTo"] as? String)
        }
    }

    /// The i18n keys of the messages on the passcode field of the first form.
    var passcodeMessageKeys: [String] {
        let fields = forms.first?["value"] as? [[String: Any]] ?? []
        let credentials = fields.first { $0["name"] as? String == "credentials" }
        let passcode = ((credentials?["form"] as? [String: Any])?["value"] as? [[String: Any]])?.first {
            $0["name"] as? String == "passcode"
        }
        return ((passcode?["messages"] as? [String: Any])?["value"] as? [[String: Any]] ?? []).compactMap {
            ($0["i18n"] as? [String: Any])?["key"] as? String
        }
    }

    var interactionCode: String? {
        let fields = (body["successWithInteractionCode"] as? [String: Any])?["value"] as? [[String: Any]] ?? []
        return fields.first { $0["name"] as? String == "interaction_code" }?["value"] as? String
    }

    /// The stateHandle field of a form (hidden, required, immutable).
    static func hiddenStateHandle(_ form: [String: Any]?) -> String? {
        let fields = form?["value"] as? [[String: Any]] ?? []
        guard let field = fields.first(where: { $0["name"] as? String == "stateHandle" }),
            field["visible"] as? Bool == false, field["mutable"] as? Bool == false, field["required"] as? Bool == true
        else { return nil }
        return field["value"] as? String
    }
}

extension SandboxClient {
    /// POSTs to `/idp/idx/{path}` without the management token, as a client follows an href.
    func idx(_ path: String, _ body: [String: Any], userAgent: String? = nil) async throws -> IDXDocument {
        var headers: HTTPFields = [:]
        if let userAgent { headers[.userAgent] = userAgent }
        return try IDXDocument(try await send(.post, "/idp/idx/\(path)", json: body, headers: headers, auth: .none))
    }

    /// The codes e-mailed to `address`, oldest first, as `GET /sandbox/outbox` lists them.
    func emailedCodes(to address: String) async throws -> [String] {
        try await send(.get, "/sandbox/outbox").array().filter { $0["to"] as? String == address }.compactMap { $0["code"] as? String }
    }

    /// Redeems the success document's interaction code; returns the token response.
    @discardableResult
    func redeem(
        _ success: IDXDocument, pkce: PKCEPair, base: String = "/oauth2/default/v1", sourceLocation: SourceLocation = #_sourceLocation
    )
        async throws -> [String: Any]
    {
        let code = try #require(success.interactionCode, "no interaction code: \(success.reply.text)", sourceLocation: sourceLocation)
        let tokens = try await postForm(
            "\(base)/token",
            [
                ("grant_type", "interaction_code"), ("interaction_code", code), ("client_id", "0oaidflowsandbox0000"),
                ("code_verifier", pkce.verifier),
            ])
        #expect(tokens.status == .ok, "token: \(tokens.text)", sourceLocation: sourceLocation)
        return try tokens.object()
    }

    /// interact → identify → the right password; returns the state handle and the answer's document.
    func passwordAccepted(
        login: String, password: String = "Correct-Horse-7", pkce: PKCEPair, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (stateHandle: String, document: IDXDocument) {
        let stateHandle = try await identified(as: login, pkce: pkce, sourceLocation: sourceLocation)
        let answer = try await idx("challenge/answer", ["credentials": ["passcode": password], "stateHandle": stateHandle])
        return (stateHandle, answer)
    }
}

/// Sign-in under each `idx` policy: the password alone, then an e-mailed code or an Okta Verify push.
@Suite struct IDXSignInPolicyTests {
    static func configure(_ authenticators: [IDXPolicy.Authenticator], signUp: Bool = true) -> (inout SandboxConfiguration) -> Void {
        { $0.idx = IDXPolicy(authenticators: authenticators, signUp: signUp) }
    }

    @Test func theDefaultPolicyIsThePasswordAlone() async throws {
        try await withSandbox { api in
            let (userId, _) = try await api.registerActiveUser(email: "ada@example.com")
            let pkce = PKCEPair()
            let (_, success) = try await api.passwordAccepted(login: "ada@example.com", pkce: pkce)
            #expect(success.status == .ok)
            #expect(success.object("user")?["id"] as? String == userId)
            #expect(success.object("user")?["identifier"] as? String == "ada@example.com")
            try await api.redeem(success, pkce: pkce)
        }
    }

    @Test func theEmailCodeIsTheSecondFactorAndAWrongCodeCanBeRetried() async throws {
        try await withSandbox(configure: Self.configure([.password, .email])) { api in
            try await api.registerActiveUser(email: "ada@example.com")
            let pkce = PKCEPair()
            let (stateHandle, select) = try await api.passwordAccepted(login: "ada@example.com", pkce: pkce)
            #expect(select.status == .ok, "\(select.reply.text)")
            #expect(select.remediationNames == ["select-authenticator-authenticate"])
            #expect(select.body["successWithInteractionCode"] == nil)
            let options = select.authenticatorOptions("select-authenticator-authenticate")
            #expect(options.count == 1, "one option: a client takes it without asking")
            let option = try #require(options.first)
            #expect(option.values == ["id": "autidflowemail000000", "methodType": "email"])
            #expect(option.relatesTo == "$.authenticatorEnrollments.value[0]")
            #expect(select.list("authenticatorEnrollments").first?["profile"] as? [String: String] == ["email": "a***a@example.com"])
            #expect(try await api.emailedCodes(to: "ada@example.com").isEmpty, "nothing is sent before the choice")

            let challenge = try await api.idx(
                "challenge", ["authenticator": option.values, "stateHandle": stateHandle], userAgent: "idflow/1.0 (Linux)")
            #expect(challenge.status == .ok, "\(challenge.reply.text)")
            #expect(challenge.remediationNames == ["challenge-authenticator"])
            let current = try #require(challenge.object("currentAuthenticatorEnrollment"))
            #expect(current["type"] as? String == "email")
            #expect((current["profile"] as? [String: String])?["email"] == "a***a@example.com")
            let resend = try #require(current["resend"] as? [String: Any])
            let poll = try #require(current["poll"] as? [String: Any])
            #expect((resend["href"] as? String)?.hasSuffix("/idp/idx/challenge/resend") == true)
            #expect((poll["href"] as? String)?.hasSuffix("/idp/idx/challenge/poll") == true)
            #expect(poll["refresh"] as? Int == 4000)
            #expect(IDXDocument.hiddenStateHandle(resend) == stateHandle && IDXDocument.hiddenStateHandle(poll) == stateHandle)

            let outbox = try await api.send(.get, "/sandbox/outbox").array()
            let mail = try #require(outbox.last)
            #expect(mail["to"] as? String == "ada@example.com")
            #expect(mail["subject"] as? String == "Your sign-in verification code")
            let code = try #require(mail["code"] as? String)
            #expect(code.count == 6 && code.allSatisfy(\.isNumber))
            #expect(mail["sentAt"] is String)

            let wrong = try await api.idx(
                "challenge/answer", ["credentials": ["passcode": code == "000000" ? "111111" : "000000"], "stateHandle": stateHandle])
            #expect(wrong.status == .badRequest)
            #expect(wrong.remediationNames == ["challenge-authenticator"])
            #expect(wrong.passcodeMessageKeys == ["api.authn.error.PASSCODE_INVALID"])
            #expect(wrong.messageKeys.isEmpty, "the message is on the field")

            // Polling only waits: the sandbox sends no magic link.
            let polled = try await api.idx("challenge/poll", ["stateHandle": stateHandle])
            #expect(polled.status == .ok && polled.remediationNames == ["challenge-authenticator"])

            let success = try await api.idx("challenge/answer", ["credentials": ["passcode": code], "stateHandle": stateHandle])
            #expect(success.status == .ok, "\(success.reply.text)")
            try await api.redeem(success, pkce: pkce)
        }
    }

    @Test func aResentCodeReplacesTheOldOne() async throws {
        try await withSandbox(configure: Self.configure([.password, .email])) { api in
            try await api.registerActiveUser(email: "ada@example.com")
            let pkce = PKCEPair()
            let (stateHandle, _) = try await api.passwordAccepted(login: "ada@example.com", pkce: pkce)
            _ = try await api.idx(
                "challenge", ["authenticator": ["id": "autidflowemail000000", "methodType": "email"], "stateHandle": stateHandle])
            await api.state.advanceClock(bySeconds: SandboxState.codeResendInterval)
            let resent = try await api.idx("challenge/resend", ["stateHandle": stateHandle])
            #expect(resent.status == .ok && resent.remediationNames == ["challenge-authenticator"])
            let codes = try await api.emailedCodes(to: "ada@example.com")
            #expect(codes.count == 2)
            let (old, new) = (try #require(codes.first), try #require(codes.last))
            if old != new {
                let stale = try await api.idx("challenge/answer", ["credentials": ["passcode": old], "stateHandle": stateHandle])
                #expect(stale.status == .badRequest)
                #expect(stale.passcodeMessageKeys == ["api.authn.error.PASSCODE_INVALID"])
            }
            let success = try await api.idx("challenge/answer", ["credentials": ["passcode": new], "stateHandle": stateHandle])
            try await api.redeem(success, pkce: pkce)
        }
    }

    @Test func codesDieWithTheTransaction() async throws {
        try await withSandbox(configure: Self.configure([.password, .email])) { api in
            try await api.registerActiveUser(email: "ada@example.com")
            let (stateHandle, _) = try await api.passwordAccepted(login: "ada@example.com", pkce: PKCEPair())
            _ = try await api.idx("challenge", ["authenticator": ["id": "autidflowemail000000"], "stateHandle": stateHandle])
            let code = try #require(try await api.emailedCodes(to: "ada@example.com").last)
            try await api.advanceClock(seconds: 601)
            let late = try await api.idx("challenge/answer", ["credentials": ["passcode": code], "stateHandle": stateHandle])
            #expect(late.status == .unauthorized)
            #expect(late.messageKeys == ["idx.session.expired"])
        }
    }

    /// interact → password → select-authenticator-authenticate (Okta Verify) → challenge; returns the state
    /// handle and the challenge-poll document.
    static func pushSent(
        _ api: SandboxClient, _ device: EnrolledDevice, pkce: PKCEPair, password: String = "Correct-Horse-7", olderShape: Bool = true
    ) async throws -> (String, IDXDocument) {
        let (stateHandle, select) = try await api.passwordAccepted(login: device.login, password: password, pkce: pkce)
        #expect(select.status == .ok, "\(select.reply.text)")
        #expect(select.remediationNames == ["select-authenticator-authenticate"])
        let option = try #require(select.authenticatorOptions("select-authenticator-authenticate").first)
        // The older policy shape keeps today's documents: Okta Verify is the push alone (the newer shape lets the
        // client choose totp or push, as the recordings show; IDXAuthenticatorTests).
        #expect(option.values["id"] == "autidflowsandbox0000")
        #expect(option.values["methodType"] == (olderShape ? "push" : nil))
        let enrollment = try #require(select.list("authenticatorEnrollments").first)
        #expect(enrollment["id"] as? String == device.enrollmentId)
        #expect(enrollment["key"] as? String == "okta_verify")
        let poll = try await api.idx(
            "challenge", ["authenticator": option.values.merging(["methodType": "push"]) { $1 }, "stateHandle": stateHandle],
            userAgent: "idflow/1.0 (Linux)")
        #expect(poll.status == .ok, "\(poll.reply.text)")
        return (stateHandle, poll)
    }

    @Test func anApprovedOktaVerifyPushSignsIn() async throws {
        try await withSandbox(configure: Self.configure([.password, .oktaVerify])) { api in
            let device = try await api.enrollDevice(email: "ov@example.com")
            let pkce = PKCEPair()
            let (stateHandle, waiting) = try await Self.pushSent(api, device, pkce: pkce)
            #expect(waiting.remediationNames == ["challenge-poll", "select-authenticator-authenticate"])
            let challengePoll = try #require(waiting.form("challenge-poll"))
            #expect((challengePoll["href"] as? String)?.hasSuffix("/idp/idx/authenticators/poll") == true)
            #expect(challengePoll["refresh"] as? Int == 4000)
            #expect(challengePoll["relatesTo"] as? [String] == ["$.currentAuthenticator"])
            #expect(IDXDocument.hiddenStateHandle(challengePoll) == stateHandle)
            let current = try #require(waiting.object("currentAuthenticator"))
            #expect(current["key"] as? String == "okta_verify" && current["type"] as? String == "app")
            let resend = try #require(current["resend"] as? [String: Any])
            #expect((resend["href"] as? String)?.hasSuffix("/idp/idx/challenge") == true)
            let hidden = (resend["value"] as? [[String: Any]])?.first { $0["name"] as? String == "authenticator" }
            #expect(hidden?["value"] as? [String: String] == ["methodType": "push", "id": "autidflowsandbox0000"])
            #expect(IDXDocument.hiddenStateHandle(resend) == stateHandle)

            // The push is an ordinary sign-in challenge on the device's pending list (what `idflow challenges` reads).
            let challenges = try await api.pendingChallenges(device)
            #expect(challenges.count == 1)
            let challenge = try #require(challenges.first)
            let context = try #require(try jwtClaims(challenge)["challengeContext"] as? [String: Any])
            #expect(context["transactionType"] as? String == "LOGIN")
            #expect(context["clientOS"] as? String == "Linux")

            let still = try await api.idx("authenticators/poll", ["stateHandle": stateHandle])
            #expect(still.status == .ok && still.remediationNames == ["challenge-poll", "select-authenticator-authenticate"])

            // Answered as `idflow resolve --approve` does: a signed response at the challenge's verificationUri.
            #expect(try await api.respond(to: challenge, device: device).status == .ok)
            let success = try await api.idx("authenticators/poll", ["stateHandle": stateHandle])
            #expect(success.status == .ok, "\(success.reply.text)")
            #expect(success.object("user")?["id"] as? String == device.userId)
            try await api.redeem(success, pkce: pkce)
        }
    }

    @Test func aDeniedPushIsRejectedAndCanBeSentAgain() async throws {
        try await withSandbox(configure: Self.configure([.password, .oktaVerify])) { api in
            let device = try await api.enrollDevice(email: "ov@example.com")
            let pkce = PKCEPair()
            let (stateHandle, _) = try await Self.pushSent(api, device, pkce: pkce)
            let challenge = try #require(try await api.pendingChallenges(device).first)
            #expect(try await api.respond(to: challenge, device: device, consent: "DENIED_CONSENT_PROMPT").status == .noContent)
            let rejected = try await api.idx("authenticators/poll", ["stateHandle": stateHandle])
            #expect(rejected.status == .forbidden)
            #expect(rejected.messageKeys == ["api.authn.poll.error.push_rejected"])
            #expect(rejected.messageTexts == ["You have chosen to reject this login."])
            #expect(rejected.remediationNames == ["select-authenticator-authenticate"])
            #expect(rejected.body["successWithInteractionCode"] == nil)

            // Picking Okta Verify again sends a new push.
            let again = try await api.idx(
                "challenge", ["authenticator": ["id": "autidflowsandbox0000", "methodType": "push"], "stateHandle": stateHandle])
            #expect(again.status == .ok && again.remediationNames.first == "challenge-poll")
            let second = try #require(try await api.pendingChallenges(device).first)
            #expect(second != challenge)
            #expect(try await api.respond(to: second, device: device).status == .ok)
            try await api.redeem(try await api.idx("authenticators/poll", ["stateHandle": stateHandle]), pkce: pkce)
        }
    }

    @Test func anUnansweredPushExpiresOnTheSandboxClock() async throws {
        try await withSandbox(
            configure: {
                $0.idx = IDXPolicy(authenticators: [.password, .oktaVerify])
                $0.pushChallengeSeconds = 60
            }
        ) { api in
            let device = try await api.enrollDevice(email: "ov@example.com")
            let (stateHandle, _) = try await Self.pushSent(api, device, pkce: PKCEPair())
            try await api.advanceClock(seconds: 61)
            let expired = try await api.idx("authenticators/poll", ["stateHandle": stateHandle])
            #expect(expired.status == .forbidden)
            #expect(expired.messageKeys == ["api.authn.poll.error.push_timeout"])
            #expect(expired.remediationNames == ["select-authenticator-authenticate"])
            #expect(try await api.pendingChallenges(device).isEmpty)
        }
    }

    @Test func withoutAnOktaVerifyEnrollmentOnlyCancelIsLeft() async throws {
        try await withSandbox(configure: Self.configure([.password, .oktaVerify])) { api in
            try await api.registerActiveUser(email: "plain@example.com")
            let (stateHandle, refused) = try await api.passwordAccepted(login: "plain@example.com", pkce: PKCEPair())
            #expect(refused.status == .forbidden)
            #expect(refused.messageKeys == ["idflow.sandbox.oktaVerifyNotEnrolled"])
            #expect(refused.messageTexts.first?.contains("idflow enroll") == true)
            #expect(refused.body["remediation"] == nil)
            #expect(IDXDocument.hiddenStateHandle(refused.body["cancel"] as? [String: Any]) == stateHandle)
            let cancelled = try await api.idx("cancel", ["stateHandle": stateHandle])
            #expect(cancelled.remediationNames.first == "identify")
        }
    }

    @Test func theOrgAuthorizationServerInteractsToo() async throws {
        try await withSandbox(configure: Self.configure([.password, .email])) { api in
            try await api.registerActiveUser(email: "ada@example.com")
            let pkce = PKCEPair()
            let handle = try #require(
                try await api.postForm("/oauth2/v1/interact", IDXControllerTests.interactFields(pkce)).object()["interaction_handle"]
                    as? String)
            let introspect = try IDXDocument(
                try await api.send(
                    .post, "/idp/idx/introspect", json: ["interactionHandle": handle], contentType: IDXControllerTests.ion, auth: .none))
            let stateHandle = try #require(introspect.stateHandle)
            _ = try await api.idx("identify", ["identifier": "ada@example.com", "stateHandle": stateHandle])
            _ = try await api.idx("challenge/answer", ["credentials": ["passcode": "Correct-Horse-7"], "stateHandle": stateHandle])
            _ = try await api.idx("challenge", ["authenticator": ["id": "autidflowemail000000"], "stateHandle": stateHandle])
            let code = try #require(try await api.emailedCodes(to: "ada@example.com").last)
            let success = try await api.idx("challenge/answer", ["credentials": ["passcode": code], "stateHandle": stateHandle])
            let issue = try #require(success.body["successWithInteractionCode"] as? [String: Any])
            #expect((issue["href"] as? String)?.hasSuffix("/oauth2/v1/token") == true)
            try await api.redeem(success, pkce: pkce, base: "/oauth2/v1")
        }
    }
}

/// Sign-up under each `idx` policy (idx.md §9), ending in a user who can sign in under it.
@Suite struct IDXSignUpPolicyTests {
    /// interact → select-enroll-profile → enroll-profile; returns the state handle and select-authenticator-enroll.
    static func profileAccepted(
        _ api: SandboxClient, email: String, pkce: PKCEPair, scope: String = SandboxClient.defaultScope
    ) async throws -> (String, IDXDocument) {
        let fields = IDXControllerTests.interactFields(pkce).map { $0.0 == "scope" ? ($0.0, scope) : $0 }
        let handle = try #require(
            try await api.postForm("/oauth2/default/v1/interact", fields).object()["interaction_handle"] as? String)
        let introspect = try IDXDocument(try await api.send(.post, "/idp/idx/introspect", json: ["interactionHandle": handle], auth: .none))
        let stateHandle = try #require(introspect.stateHandle)
        let profileForm = try await api.idx("enroll", ["stateHandle": stateHandle])
        #expect(profileForm.remediationNames == ["enroll-profile", "select-identify"])
        let select = try await api.idx(
            "enroll/new", ["userProfile": ["email": email, "firstName": "New", "lastName": "User"], "stateHandle": stateHandle])
        #expect(select.status == .ok, "\(select.reply.text)")
        #expect(select.remediationNames == ["select-authenticator-enroll"])
        #expect(select.body["intent"] as? String == "ENROLL_NEW_USER")
        #expect(select.body["user"] == nil, "nobody exists yet")
        return (stateHandle, select)
    }

    /// Picks the password, refuses a weak one, enrolls a good one; returns the document after it.
    static func enrollPassword(_ api: SandboxClient, stateHandle: String, password: String) async throws -> IDXDocument {
        let form = try await api.idx(
            "credential/enroll", ["authenticator": ["id": "autidflowpassword000", "methodType": "password"], "stateHandle": stateHandle])
        #expect(form.remediationNames == ["enroll-authenticator"])
        #expect(form.object("currentAuthenticator")?["type"] as? String == "password")
        let weak = try await api.idx("challenge/answer", ["credentials": ["passcode": "short"], "stateHandle": stateHandle])
        #expect(weak.status == .badRequest)
        #expect(weak.passcodeMessageKeys.contains("password.passwordRequirementsNotMet"))
        return try await api.idx("challenge/answer", ["credentials": ["passcode": password], "stateHandle": stateHandle])
    }

    static func userStatus(_ api: SandboxClient, _ login: String) async throws -> String? {
        let reply = try await api.send(.get, "/api/v1/users/\(login)")
        return reply.status == .ok ? try reply.object()["status"] as? String : nil
    }

    @Test func aPasswordPolicySignUpEnrollsThePasswordOnly() async throws {
        try await withSandbox { api in
            let pkce = PKCEPair()
            let (stateHandle, select) = try await Self.profileAccepted(api, email: "new@example.com", pkce: pkce)
            let options = select.authenticatorOptions("select-authenticator-enroll")
            #expect(options.map(\.values) == [["id": "autidflowpassword000", "methodType": "password"]])
            #expect(options.first?.relatesTo == "$.authenticators.value[0]")
            let success = try await Self.enrollPassword(api, stateHandle: stateHandle, password: "Sunny-Meadow-42")
            #expect(success.status == .ok, "\(success.reply.text)")
            #expect(success.body["intent"] as? String == "ENROLL_NEW_USER")
            #expect(success.object("user")?["identifier"] as? String == "new@example.com")
            try await api.redeem(success, pkce: pkce)
            #expect(try await Self.userStatus(api, "new@example.com") == "ACTIVE")
            let (_, signedIn) = try await api.passwordAccepted(login: "new@example.com", password: "Sunny-Meadow-42", pkce: PKCEPair())
            #expect(signedIn.interactionCode != nil)
        }
    }

    @Test func anEmailPolicySignUpProvesTheAddressBeforeTheUserExists() async throws {
        try await withSandbox(configure: IDXSignInPolicyTests.configure([.password, .email])) { api in
            let pkce = PKCEPair()
            let (stateHandle, select) = try await Self.profileAccepted(api, email: "new@example.com", pkce: pkce)
            #expect(
                select.authenticatorOptions("select-authenticator-enroll").map(\.values) == [
                    ["id": "autidflowpassword000", "methodType": "password"], ["id": "autidflowemail000000", "methodType": "email"],
                ])
            let next = try await Self.enrollPassword(api, stateHandle: stateHandle, password: "Sunny-Meadow-42")
            #expect(next.status == .ok, "\(next.reply.text)")
            #expect(next.remediationNames == ["select-authenticator-enroll"])
            #expect(
                next.authenticatorOptions("select-authenticator-enroll").map(\.values) == [
                    ["id": "autidflowemail000000", "methodType": "email"]
                ])
            #expect(next.list("authenticatorEnrollments").map { $0["type"] as? String } == ["password"])
            #expect(try await Self.userStatus(api, "new@example.com") == nil, "a half-finished sign-up leaves no user")

            let emailForm = try await api.idx(
                "credential/enroll", ["authenticator": ["id": "autidflowemail000000", "methodType": "email"], "stateHandle": stateHandle])
            #expect(emailForm.status == .ok, "\(emailForm.reply.text)")
            #expect(emailForm.remediationNames == ["enroll-authenticator"])
            let current = try #require(emailForm.object("currentAuthenticator"))
            #expect(current["type"] as? String == "email")
            #expect(IDXDocument.hiddenStateHandle(current["resend"] as? [String: Any]) == stateHandle)
            #expect(IDXDocument.hiddenStateHandle(current["poll"] as? [String: Any]) == stateHandle)
            let outbox = try await api.send(.get, "/sandbox/outbox").array()
            #expect(outbox.last?["subject"] as? String == "Your email verification code")
            let first = try #require(try await api.emailedCodes(to: "new@example.com").last)
            let wrong = try await api.idx(
                "challenge/answer", ["credentials": ["passcode": first == "000000" ? "111111" : "000000"], "stateHandle": stateHandle])
            #expect(wrong.status == .badRequest)
            #expect(wrong.remediationNames == ["enroll-authenticator"])
            #expect(wrong.passcodeMessageKeys == ["api.authn.error.PASSCODE_INVALID"])
            await api.state.advanceClock(bySeconds: SandboxState.codeResendInterval)
            let resent = try await api.idx("challenge/resend", ["stateHandle": stateHandle])
            #expect(resent.remediationNames == ["enroll-authenticator"])
            let code = try #require(try await api.emailedCodes(to: "new@example.com").last)
            let success = try await api.idx("challenge/answer", ["credentials": ["passcode": code], "stateHandle": stateHandle])
            #expect(success.status == .ok, "\(success.reply.text)")
            try await api.redeem(success, pkce: pkce)
            #expect(try await Self.userStatus(api, "new@example.com") == "ACTIVE")

            // Signing in asks for the password, then a code.
            let signInPKCE = PKCEPair()
            let (signIn, _) = try await api.passwordAccepted(login: "new@example.com", password: "Sunny-Meadow-42", pkce: signInPKCE)
            _ = try await api.idx("challenge", ["authenticator": ["id": "autidflowemail000000"], "stateHandle": signIn])
            let signInCode = try #require(try await api.emailedCodes(to: "new@example.com").last)
            try await api.redeem(
                try await api.idx("challenge/answer", ["credentials": ["passcode": signInCode], "stateHandle": signIn]), pkce: signInPKCE)
        }
    }

    @Test func anOktaVerifyPolicySignUpEnrollsThePasswordAndTheDeviceComesAfter() async throws {
        try await withSandbox(configure: IDXSignInPolicyTests.configure([.password, .oktaVerify])) { api in
            let pkce = PKCEPair()
            let (stateHandle, select) = try await Self.profileAccepted(
                api, email: "new@example.com", pkce: pkce, scope: SandboxClient.manageScope)
            #expect(select.authenticatorOptions("select-authenticator-enroll").map { $0.values["methodType"] } == ["password"])
            let success = try await Self.enrollPassword(api, stateHandle: stateHandle, password: "Sunny-Meadow-42")
            let tokens = try await api.redeem(success, pkce: pkce)
            let accessToken = try #require(tokens["access_token"] as? String)

            // Until a device is enrolled, a sign-in is refused; afterwards it goes through the push.
            let (_, refused) = try await api.passwordAccepted(login: "new@example.com", password: "Sunny-Meadow-42", pkce: PKCEPair())
            #expect(refused.messageKeys == ["idflow.sandbox.oktaVerifyNotEnrolled"])
            let device = try await api.enrollDevice(accessToken: accessToken, login: "new@example.com")
            let signInPKCE = PKCEPair()
            let (signIn, _) = try await IDXSignInPolicyTests.pushSent(api, device, pkce: signInPKCE, password: "Sunny-Meadow-42")
            let challenge = try #require(try await api.pendingChallenges(device).first)
            #expect(try await api.respond(to: challenge, device: device).status == .ok)
            try await api.redeem(try await api.idx("authenticators/poll", ["stateHandle": signIn]), pkce: signInPKCE)
        }
    }

    @Test func withSignUpOffTheIdentifyDocumentOffersNoneAndEnrollIsRefused() async throws {
        try await withSandbox(configure: IDXSignInPolicyTests.configure([.password], signUp: false)) { api in
            let handle = try await api.interact(pkce: PKCEPair())
            let identify = try IDXDocument(
                try await api.send(.post, "/idp/idx/introspect", json: ["interactionHandle": handle], auth: .none))
            // No `select-enroll-profile`; `unlock-account` stays (the password policy's self-service unlock, on by default).
            #expect(identify.remediationNames == ["identify", "unlock-account"])
            let stateHandle = try #require(identify.stateHandle)
            let refused = try await api.idx("enroll", ["stateHandle": stateHandle])
            #expect(refused.status == .forbidden)
            #expect(refused.messageKeys == ["errors.E0000006"])
            #expect(refused.stateHandle == stateHandle)
            #expect(refused.remediationNames == ["identify", "unlock-account"])
            let info = try await api.send(.get, "/sandbox/info").object()
            let policy = try #require(info["idx"] as? [String: Any])
            #expect((policy["enroll"] as? [String: Any])?["required"] as? [String] == ["password"])
            #expect(policy["signUp"] as? Bool == false)
        }
    }
}
