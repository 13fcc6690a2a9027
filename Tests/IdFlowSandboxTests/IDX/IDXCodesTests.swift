import Foundation
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// Temporary Access Codes (an admin's `POST /api/v1/users/{id}/authenticator-enrollments/tac`, then `tac` at sign-in)
/// and custom OTP codes (`custom_otp`, from the outbox): the sandbox's documents have the keys, remediation names,
/// form fields and values of the sign-in widget's recordings (Tests/Fixtures/okta-idx-widget), and the codes are
/// refused as Okta refuses them.
@Suite struct IDXCodesTests {
    static let tacAuthenticatorID = "autidflowtac00000000"
    static let customOTPAuthenticatorID = "autidflowcustomotp00"

    /// A recording of the widget's corpus.
    static func widget(_ name: String) throws -> [String: Any] { try Fixtures.object("okta-idx-widget/\(name)") }

    /// Password and e-mail required, two factors: a TAC stands in for the e-mailed code.
    static func twoFactors(_ configuration: inout SandboxConfiguration) {
        configuration.idx = IDXPolicy(required: [.password, .email], factors: 2)
    }

    /// The guide's request: `{"authenticatorId", "authenticatorType": "tac", "config": {"ttl", "multiUse"}}`.
    static func createTAC(_ api: SandboxClient, userId: String, ttl: Int = 480, multiUse: Bool = false) async throws -> Reply {
        try await api.send(
            .post, "/api/v1/users/\(userId)/authenticator-enrollments/tac",
            json: ["authenticatorId": tacAuthenticatorID, "authenticatorType": "tac", "config": ["ttl": ttl, "multiUse": multiUse]])
    }

    static func code(_ reply: Reply) throws -> String {
        try #require((try reply.object()["profile"] as? [String: Any])?["tac"] as? String)
    }

    /// The sign-in of `login` at `select-authenticator-authenticate`, the TAC chosen: its `challenge-authenticator`.
    static func tacChallenge(_ api: SandboxClient, login: String) async throws -> (stateHandle: String, document: IDXDocument) {
        let (stateHandle, select) = try await api.passwordAccepted(login: login, pkce: PKCEPair())
        #expect(select.remediationNames == ["select-authenticator-authenticate"])
        let challenge = try await api.idx(
            "challenge", ["authenticator": ["id": tacAuthenticatorID, "methodType": "tac"], "stateHandle": stateHandle])
        return (stateHandle, challenge)
    }

    /// The fields of a form's `credentials` object.
    static func credentialFields(_ document: IDXDocument, _ form: [String: Any]?) -> [[String: Any]] {
        let credentials = (form?["value"] as? [[String: Any]])?.first { $0["name"] as? String == "credentials" }
        return (credentials?["form"] as? [String: Any])?["value"] as? [[String: Any]] ?? []
    }

    static func recordedForm(_ recording: [String: Any], _ name: String) -> [String: Any]? {
        ((recording["remediation"] as? [String: Any])?["value"] as? [[String: Any]])?.first { $0["name"] as? String == name }
    }

    @Test func anAdminCreatesATACAsOktaDocumentsIt() async throws {
        try await withSandbox { api in
            let (userId, _) = try await api.registerActiveUser(email: "tac@example.com")
            let created = try await Self.createTAC(api, userId: userId, ttl: 120, multiUse: true)
            #expect(created.status == .ok)
            let body = try created.object()
            // The guide's response example, key for key.
            #expect(
                Set(body.keys) == ["id", "type", "key", "name", "status", "profile", "created", "lastUpdated", "nickname", "_links"])
            #expect((body["id"] as? String)?.hasPrefix("tac") == true && body["key"] as? String == "tac")
            #expect(body["status"] as? String == "ACTIVE" && body["name"] as? String == "Temporary Access Code")
            let profile = try #require(body["profile"] as? [String: Any])
            #expect((profile["tac"] as? String)?.count == 16 && profile["multiUse"] as? Bool == true)
            let createdAt = try #require((body["created"] as? String).flatMap { try? Date($0, strategy: .iso8601) })
            let expires = try #require((profile["expiresAt"] as? String).flatMap { try? Date($0 + "Z", strategy: .iso8601) })
            #expect(expires.timeIntervalSince(createdAt) == 120 * 60, "ttl is in minutes")

            let unknown = try await Self.createTAC(api, userId: "00unobody")
            #expect(unknown.status == .notFound)
            #expect(try unknown.object()["errorCode"] as? String == "E0000007")
            let tooShort = try await Self.createTAC(api, userId: userId, ttl: 5)
            #expect(tooShort.status == .badRequest)
            #expect(try tooShort.object()["errorCode"] as? String == "E0000001")
            let noToken = try await api.send(.post, "/api/v1/users/\(userId)/authenticator-enrollments/tac", json: [:], auth: .none)
            #expect(noToken.status == .unauthorized, "a management call: SSWS needed")
        }
    }

    @Test func theSignInOffersTheTACAsRecordedAndTakesItOnce() async throws {
        try await withSandbox(configure: Self.twoFactors) { api in
            let (userId, _) = try await api.registerActiveUser(email: "ada@example.com")
            let (_, withoutTAC) = try await api.passwordAccepted(login: "ada@example.com", pkce: PKCEPair())
            #expect(withoutTAC.authenticatorOptions("select-authenticator-authenticate").map(\.label) == ["Email"])

            let code = try Self.code(try await Self.createTAC(api, userId: userId))
            let (stateHandle, select) = try await api.passwordAccepted(login: "ada@example.com", pkce: PKCEPair())
            let tacOption = try #require(select.authenticatorOptions("select-authenticator-authenticate").last)
            // `authenticator-verification-select-authenticator.json`'s option: its label, id and fixed method.
            #expect(tacOption.label == "Temporary Access Code")
            #expect(tacOption.values == ["id": Self.tacAuthenticatorID, "methodType": "tac"])
            #expect(select.list("authenticatorEnrollments").last?["key"] as? String == "tac")

            let challenge = try await api.idx(
                "challenge", ["authenticator": ["id": Self.tacAuthenticatorID, "methodType": "tac"], "stateHandle": stateHandle])
            let recording = try Self.widget("authenticator-verification-tac.json")
            #expect(challenge.remediationNames == ["challenge-authenticator", "select-authenticator-authenticate"])
            // The current enrollment and the code field, as recorded (`secret`: typed hidden).
            let current = try #require(challenge.object("currentAuthenticatorEnrollment"))
            let recorded = try #require((recording["currentAuthenticatorEnrollment"] as? [String: Any])?["value"] as? [String: Any])
            #expect(Set(current.keys) == Set(recorded.keys))
            for key in ["type", "key", "displayName"] { #expect(current[key] as? String == recorded[key] as? String, "\(key)") }
            #expect((current["id"] as? String)?.hasPrefix("tac") == true)
            let field = try #require(Self.credentialFields(challenge, challenge.form("challenge-authenticator")).first)
            let recordedField = try #require(
                Self.credentialFields(challenge, Self.recordedForm(recording, "challenge-authenticator")).first)
            #expect(Set(field.keys) == Set(recordedField.keys))
            #expect(field["name"] as? String == "passcode" && field["secret"] as? Bool == true && field["label"] as? String == "Enter code")

            // A wrong code: `error-authenticator-verification-tac.json`'s message on the field. (The widget's playground
            // serves that file with 403; the sandbox answers a wrong code 400, as it does every wrong code.)
            let wrong = try await api.idx("challenge/answer", ["credentials": ["passcode": "not-it"], "stateHandle": stateHandle])
            #expect(wrong.status == .badRequest && wrong.passcodeMessageKeys == ["api.authn.error.PASSCODE_INVALID"])
            let recordedError = try Self.widget("error-authenticator-verification-tac.json")
            let errorField = try #require(Self.credentialFields(wrong, wrong.form("challenge-authenticator")).first)
            let recordedErrorField = try #require(
                Self.credentialFields(wrong, Self.recordedForm(recordedError, "challenge-authenticator")).first)
            #expect(keyPaths(errorField) == keyPaths(recordedErrorField))

            let success = try await api.idx("challenge/answer", ["credentials": ["passcode": code], "stateHandle": stateHandle])
            #expect(success.body["successWithInteractionCode"] != nil, "the TAC is the second factor: \(success.reply.text)")

            // Single-use: the next sign-in no longer offers it, and a challenge for it is refused.
            let (again, afterUse) = try await api.passwordAccepted(login: "ada@example.com", pkce: PKCEPair())
            #expect(afterUse.authenticatorOptions("select-authenticator-authenticate").map(\.label) == ["Email"])
            let refused = try await api.idx(
                "challenge", ["authenticator": ["id": Self.tacAuthenticatorID, "methodType": "tac"], "stateHandle": again])
            #expect(refused.status == .badRequest)
        }
    }

    @Test func aMultiUseTACWorksUntilItExpiresOnTheSandboxClock() async throws {
        // A frozen clock: only the advances below move it, however slow the machine.
        let configure: (inout SandboxConfiguration) -> Void = {
            Self.twoFactors(&$0)
            $0.freezeClock = true
        }
        try await withSandbox(configure: configure) { api in
            let (userId, _) = try await api.registerActiveUser(email: "grace@example.com")
            let code = try Self.code(try await Self.createTAC(api, userId: userId, ttl: 10, multiUse: true))
            for _ in 0..<2 {
                let (stateHandle, _) = try await Self.tacChallenge(api, login: "grace@example.com")
                let success = try await api.idx("challenge/answer", ["credentials": ["passcode": code], "stateHandle": stateHandle])
                #expect(success.body["successWithInteractionCode"] != nil, "multi-use: accepted again")
            }
            // Ten seconds before it expires the code is still offered; by the answer, it has expired (the transaction,
            // younger, has not).
            try await api.advanceClock(seconds: 10 * 60 - 10)
            let (stateHandle, challenge) = try await Self.tacChallenge(api, login: "grace@example.com")
            #expect(challenge.remediationNames.first == "challenge-authenticator")
            try await api.advanceClock(seconds: 10)
            let expired = try await api.idx("challenge/answer", ["credentials": ["passcode": code], "stateHandle": stateHandle])
            #expect(expired.status == .badRequest && expired.passcodeMessageKeys == ["api.authn.error.PASSCODE_INVALID"])
        }
    }

    @Test func aNewTACReplacesTheOldOne() async throws {
        try await withSandbox(configure: Self.twoFactors) { api in
            let (userId, _) = try await api.registerActiveUser(email: "lin@example.com")
            let first = try Self.code(try await Self.createTAC(api, userId: userId, multiUse: true))
            let second = try Self.code(try await Self.createTAC(api, userId: userId, multiUse: true))
            let (stateHandle, _) = try await Self.tacChallenge(api, login: "lin@example.com")
            if first != second {
                let old = try await api.idx("challenge/answer", ["credentials": ["passcode": first], "stateHandle": stateHandle])
                #expect(old.passcodeMessageKeys == ["api.authn.error.PASSCODE_INVALID"])
            }
            let success = try await api.idx("challenge/answer", ["credentials": ["passcode": second], "stateHandle": stateHandle])
            #expect(success.body["successWithInteractionCode"] != nil)
        }
    }

    @Test func aDeletedTACIsNoLongerOffered() async throws {
        try await withSandbox(configure: Self.twoFactors) { api in
            let (userId, _) = try await api.registerActiveUser(email: "del@example.com")
            let id = try #require(try await Self.createTAC(api, userId: userId).object()["id"] as? String)
            let path = "/api/v1/users/\(userId)/authenticator-enrollments"
            #expect(try await api.send(.delete, "\(path)/tacnothisone").status == .notFound)
            #expect(try await api.send(.delete, "\(path)/\(id)").status == .noContent)
            let (_, select) = try await api.passwordAccepted(login: "del@example.com", pkce: PKCEPair())
            #expect(select.authenticatorOptions("select-authenticator-authenticate").map(\.label) == ["Email"])
            #expect(try await api.send(.delete, "\(path)/\(id)").status == .notFound, "deleted once")
        }
    }

    @Test func customOTPIsListedOnlyUnderAPolicyThatNamesIt() async throws {
        // A required phone the user lacks: the enrollment at sign-in lists what the user has enrolled.
        try await withSandbox(configure: IDXAuthenticatorTests.configure(IDXPolicy(required: [.password, .phone]))) { api in
            _ = try await api.registerActiveUser(email: "plain@example.com")
            let (_, enroll) = try await api.passwordAccepted(login: "plain@example.com", pkce: PKCEPair())
            #expect(enroll.remediationNames.first == "select-authenticator-enroll")
            let keys = enroll.list("authenticatorEnrollments").compactMap { $0["key"] as? String }
            #expect(!keys.isEmpty && !keys.contains("custom_otp") && !keys.contains("tac"), "\(keys)")
        }
    }

    @Test func aPolicyCannotNameTAC() throws {
        let data = Data(#"{"enroll": {"required": ["password"], "optional": ["tac"]}}"#.utf8)
        let policy = try JSONDecoder().decode(IDXPolicy.self, from: data)
        var configuration = SandboxConfiguration()
        configuration.idx = policy
        #expect(throws: SandboxConfigurationError.self) { try configuration.validate() }
    }

    @Test func customOTPCodesComeFromTheOutboxWithTheRecordedDocument() async throws {
        let configure: (inout SandboxConfiguration) -> Void = {
            $0.idx = IDXPolicy(required: [.password, .customOTP], factors: 2)
            $0.freezeClock = true
        }
        try await withSandbox(configure: configure) { api in
            _ = try await api.registerActiveUser(email: "otp@example.com")
            let (stateHandle, select) = try await api.passwordAccepted(login: "otp@example.com", pkce: PKCEPair())
            let option = try #require(select.authenticatorOptions("select-authenticator-authenticate").first)
            #expect(option.values == ["id": Self.customOTPAuthenticatorID, "methodType": "otp"])
            #expect(try await api.outbox(to: "otp@example.com").isEmpty, "nothing sent before it is chosen")

            let challenge = try await api.idx(
                "challenge", ["authenticator": ["id": Self.customOTPAuthenticatorID, "methodType": "otp"], "stateHandle": stateHandle])
            let recording = try Self.widget("authenticator-verification-custom-otp.json")
            // The recording also offers the password again; the sandbox's sign-in has passed it.
            #expect(challenge.remediationNames == ["challenge-authenticator"])
            let field = try #require(Self.credentialFields(challenge, challenge.form("challenge-authenticator")).first)
            let recordedField = try #require(
                Self.credentialFields(challenge, Self.recordedForm(recording, "challenge-authenticator")).first)
            #expect(keyPaths(field) == keyPaths(recordedField))
            let current = try #require(challenge.object("currentAuthenticatorEnrollment"))
            let recorded = try #require((recording["currentAuthenticatorEnrollment"] as? [String: Any])?["value"] as? [String: Any])
            // `resend` is the sandbox's own (its codes come from the outbox); `type` and `methods` as the option list of
            // `authenticator-verification-select-authenticator.json` has them, which this recording swaps.
            #expect(Set(current.keys).subtracting(["resend"]) == Set(recorded.keys))
            #expect(current["key"] as? String == "custom_otp" && current["type"] as? String == "security_key")

            let sent = try #require(try await api.outbox(to: "otp@example.com").last)
            #expect(sent["channel"] as? String == "custom_otp")

            // A wrong code: `error-authenticator-verification-custom-otp.json` has `api.authn.error.PASSCODE_INVALID` at
            // the top level; the sandbox puts it on the field, as for every code it checks (and as the TAC's recording
            // does), so the message stands next to what was typed. Same key, same text.
            let wrong = try await api.idx("challenge/answer", ["credentials": ["passcode": "000000x"], "stateHandle": stateHandle])
            #expect(wrong.status == .badRequest && wrong.passcodeMessageKeys == ["api.authn.error.PASSCODE_INVALID"])
            let recordedError = try Self.widget("error-authenticator-verification-custom-otp.json")
            #expect(IDXAuthenticatorContractTests.messageKeys(recordedError) == ["api.authn.error.PASSCODE_INVALID"])
            // `error-authenticator-enroll-custom-otp.json` ("Contact your administrator", `enroll.hotp.restricted`) has no
            // counterpart: the sandbox never offers custom OTP for enrollment, every user named by the policy has it.
            let first = try #require(sent["code"] as? String)

            let soon = try await api.idx("challenge/resend", ["stateHandle": stateHandle])
            #expect(soon.status == .tooManyRequests && soon.messageTexts == ["Too many requests"])
            try await api.advanceClock(seconds: 30)
            #expect(try await api.idx("challenge/resend", ["stateHandle": stateHandle]).status == .ok)
            let second = try #require(try await api.outbox(to: "otp@example.com").last?["code"] as? String)
            if first != second {
                let old = try await api.idx("challenge/answer", ["credentials": ["passcode": first], "stateHandle": stateHandle])
                #expect(old.passcodeMessageKeys == ["api.authn.error.PASSCODE_INVALID"], "a resend replaces the code")
            }
            let success = try await api.idx("challenge/answer", ["credentials": ["passcode": second], "stateHandle": stateHandle])
            #expect(success.body["successWithInteractionCode"] != nil, "\(success.reply.text)")
        }
    }
}
