import Foundation
import IdFlowSandbox
import IdFlowTestSupport
import Testing

/// The documents of phone, security question, Google Authenticator, Okta Verify's TOTP and the number challenge have
/// the key paths, remediation names and message keys of the recorded documents of their kind (Tests/Fixtures/okta-idx,
/// idx.md §12).
struct IDXAuthenticatorContractTests {
    typealias Contract = IDXPolicyContractTests

    /// The user, which documents recorded at a sign-in have and those of a sign-up do not.
    static let user: Set<String> = ["user", "user.type", "user.value", "user.value.id"]

    /// Keys some recordings have and the sandbox does not: a time zone and locale on the user, `allowedFor`, the
    /// WebAuthn credential id of a recorded enrollment.
    static let notEmulated: Set<String> = Contract.newer.union([
        "user.value.profile.timeZone", "user.value.profile.locale", "authenticators.value[].allowedFor",
        "authenticatorEnrollments.value[].credentialId",
    ])

    /// The remediation names and the key paths of the whole document, compared with the recording's.
    static func expectRecorded(
        _ document: IDXDocument, _ fixture: String, ignoring: Set<String> = [], sameRemediations: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let recorded = try Contract.fixture(fixture)
        let names = ((recorded["remediation"] as? [String: Any])?["value"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        if sameRemediations { #expect(document.remediationNames == names, "\(fixture): remediation", sourceLocation: sourceLocation) }
        Contract.expectSame(
            keyPaths(document.body), keyPaths(recorded), fixture, ignoring: notEmulated.union(ignoring), sourceLocation: sourceLocation)
    }

    /// Every i18n key of a document (top level and fields).
    static func messageKeys(_ object: Any) -> Set<String> {
        var keys: Set<String> = []
        if let dictionary = object as? [String: Any] {
            if let i18n = dictionary["i18n"] as? [String: Any], let key = i18n["key"] as? String { keys.insert(key) }
            for value in dictionary.values { keys.formUnion(messageKeys(value)) }
        } else if let array = object as? [Any] {
            for value in array { keys.formUnion(messageKeys(value)) }
        }
        return keys
    }

    static func expectMessageKeys(_ document: IDXDocument, as fixture: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(
            messageKeys(document.body) == messageKeys(try Contract.fixture(fixture)), "\(fixture): message keys",
            sourceLocation: sourceLocation)
    }

    @Test func phoneDocumentsHaveTheRecordedKeys() async throws {
        let policy = IDXPolicy(required: [.password, .email], optional: [.phone], factors: 2)
        try await withSandbox(configure: IDXAuthenticatorTests.configure(policy)) { api in
            let (stateHandle, select) = try await IDXAuthenticatorTests.requiredEnrolledPhoneOnly(api, email: "p@example.com")
            // `select-authenticator-enroll-with-skip.json` offers e-mail too (its user had not enrolled it).
            Contract.expectSame(
                try Contract.formPaths(select.body, "select-authenticator-enroll"),
                try Contract.formPaths(try Contract.fixture("select-authenticator-enroll-with-skip.json"), "select-authenticator-enroll"),
                "select-authenticator-enroll")
            #expect(select.remediationNames == ["select-authenticator-enroll", "skip"])

            let data = try await api.idx(
                "credential/enroll", ["authenticator": ["id": "autidflowphone000000"], "stateHandle": stateHandle])
            // Recorded at a sign-in (a user, and the same remediations since its phone was optional there too).
            try Self.expectRecorded(data, "phone-enroll-data-sms-voice.json", ignoring: Self.user)

            let bad = try await api.idx(
                "credential/enroll",
                ["authenticator": ["id": "autidflowphone000000", "methodType": "sms", "phoneNumber": "12"], "stateHandle": stateHandle])
            // Recorded at a sign-in whose phone was required: no `skip` there.
            #expect(bad.remediationNames == ["select-authenticator-enroll", "skip"])
            try Self.expectRecorded(bad, "error-phone-enroll-invalid-number.json", ignoring: Self.user, sameRemediations: false)

            _ = try await api.idx(
                "credential/enroll",
                [
                    "authenticator": ["id": "autidflowphone000000", "methodType": "sms", "phoneNumber": "+15555550100"],
                    "stateHandle": stateHandle,
                ])
            let wrong = try await api.idx("challenge/answer", ["credentials": ["passcode": "0"], "stateHandle": stateHandle])
            try Self.expectMessageKeys(wrong, as: "error-phone-enroll-invalid-passcode.json")
            let sms = try IDXDocument(wrong.reply)
            let recordedCode = try Contract.fixture("phone-enroll-sms-code.json")
            Contract.expectSame(
                Contract.paths(sms.body, under: "currentAuthenticator.value"),
                Contract.paths(recordedCode, under: "currentAuthenticator.value"),
                "currentAuthenticator (phone enrollment)")
            Contract.expectSame(
                Contract.paths(sms.body, under: "enrollmentAuthenticator.value"),
                Contract.paths(recordedCode, under: "enrollmentAuthenticator.value"),
                "enrollmentAuthenticator")
        }
    }

    @Test func phoneChallengeDocumentsHaveTheRecordedKeys() async throws {
        let policy = IDXPolicy(required: [.password, .phone], optional: [.email], factors: 2)
        try await withSandbox(configure: IDXAuthenticatorTests.configure(policy)) { api in
            try await IDXAuthenticatorTests.userWithPhone(api, email: "pc@example.com")
            let (stateHandle, _) = try await api.passwordAccepted(login: "pc@example.com", pkce: PKCEPair())
            let method = try await api.idx("challenge", ["authenticator": ["id": "autidflowphone000000"], "stateHandle": stateHandle])
            try Self.expectRecorded(method, "phone-verification-data-select-method.json")
            let challenge = try await api.idx(
                "challenge", ["authenticator": ["id": "autidflowphone000000", "methodType": "sms"], "stateHandle": stateHandle])
            try Self.expectRecorded(challenge, "phone-challenge-sms.json")
            let wrong = try await api.idx("challenge/answer", ["credentials": ["passcode": "0"], "stateHandle": stateHandle])
            try Self.expectMessageKeys(wrong, as: "error-phone-challenge-invalid-passcode.json")
        }
    }

    @Test func securityQuestionDocumentsHaveTheRecordedKeys() async throws {
        let policy = IDXPolicy(required: [.password, .securityQuestion], optional: [.email], factors: 2)
        try await withSandbox(configure: IDXAuthenticatorTests.configure(policy)) { api in
            _ = try await api.registerActiveUser(email: "sq@example.com")
            let (enrolling, _) = try await api.passwordAccepted(login: "sq@example.com", pkce: PKCEPair())
            let form = try await api.idx("credential/enroll", ["authenticator": ["id": "autidflowquestion000"], "stateHandle": enrolling])
            // Recorded before anything was enrolled (an empty `authenticatorEnrollments`).
            let enrolled = "authenticatorEnrollments.value[]"
            try Self.expectRecorded(
                form, "security-question-enroll.json",
                ignoring: [
                    "\(enrolled).displayName", "\(enrolled).id", "\(enrolled).methods", "\(enrolled).methods[].type", "\(enrolled).type",
                ])
            let short = try await api.idx(
                "challenge/answer", ["credentials": ["questionKey": "disliked_food", "answer": "ab"], "stateHandle": enrolling])
            let recordedShort = try Contract.fixture("error-security-question-enroll-answer-too-short.json")
            Contract.expectSame(
                try Contract.formPaths(short.body, "enroll-authenticator"), try Contract.formPaths(recordedShort, "enroll-authenticator"),
                "enroll-authenticator (answer too short)")
            try Self.expectMessageKeys(short, as: "error-security-question-enroll-answer-too-short.json")
            _ = try await api.idx(
                "challenge/answer", ["credentials": ["questionKey": "first_computer_game", "answer": "Tetris"], "stateHandle": enrolling])

            let (stateHandle, _) = try await api.passwordAccepted(login: "sq@example.com", pkce: PKCEPair())
            let asked = try await api.idx("challenge", ["authenticator": ["id": "autidflowquestion000"], "stateHandle": stateHandle])
            try Self.expectRecorded(asked, "security-question-challenge.json")
        }
    }

    @Test func googleAuthenticatorDocumentsHaveTheRecordedKeys() async throws {
        let policy = IDXPolicy(required: [.password], optional: [.googleOTP, .phone], factors: 2)
        try await withSandbox(configure: IDXAuthenticatorTests.configure(policy)) { api in
            // Recorded at a sign-up whose Google Authenticator and phone were optional, as here.
            let (enrolling, _) = try await IDXSignUpPolicyTests.profileAccepted(api, email: "g@example.com", pkce: PKCEPair())
            _ = try await IDXSignUpPolicyTests.enrollPassword(api, stateHandle: enrolling, password: "Sunny-Meadow-42")
            let form = try await api.idx("credential/enroll", ["authenticator": ["id": "autidflowgoogleotp00"], "stateHandle": enrolling])
            try Self.expectRecorded(form, "google-otp-enroll-qrcode.json", ignoring: Self.user)
            let secret = try #require(
                (form.object("currentAuthenticator")?["contextualData"] as? [String: Any])?["sharedSecret"] as? String)
            _ = try await api.idx("challenge/answer", ["credentials": ["passcode": try await api.totp(secret)], "stateHandle": enrolling])
            #expect(try await api.idx("skip", ["stateHandle": enrolling]).interactionCode != nil)
            try await api.advanceClock(seconds: 30)

            let (stateHandle, _) = try await api.passwordAccepted(login: "g@example.com", password: "Sunny-Meadow-42", pkce: PKCEPair())
            let challenge = try await api.idx("challenge", ["authenticator": ["id": "autidflowgoogleotp00"], "stateHandle": stateHandle])
            // The recorded user has Okta Verify and a security question too (their options' keys are compared in the
            // Okta Verify test), so only the form, the current enrollment and the top level are compared here.
            let recorded = try Contract.fixture("google-otp-challenge.json")
            Contract.expectSame(
                try Contract.formPaths(challenge.body, "challenge-authenticator"),
                try Contract.formPaths(recorded, "challenge-authenticator"),
                "challenge-authenticator (google_otp)")
            Contract.expectSame(
                Contract.paths(challenge.body, under: "currentAuthenticatorEnrollment.value"),
                Contract.paths(recorded, under: "currentAuthenticatorEnrollment.value"), "currentAuthenticatorEnrollment (google_otp)")
            Contract.expectSame(Set(challenge.body.keys), Set(recorded.keys), "top level")
            let wrong = try await api.idx(
                "challenge/answer", ["credentials": ["passcode": try await api.totp(secret, steps: 9)], "stateHandle": stateHandle])
            try Self.expectMessageKeys(wrong, as: "error-google-otp-invalid-passcode.json")
            #expect(
                Self.messageKeys(try Contract.fixture("error-google-otp-used-passcode.json")) == [
                    "authfactor.challenge.soft_token.used_passcode"
                ])
        }
    }

    @Test func oktaVerifyTOTPAndNumberChallengeDocumentsHaveTheRecordedKeys() async throws {
        // The recordings' users have other factors too: e-mail here, so `select-authenticator-authenticate` is offered.
        let policy = IDXPolicy(required: [.password], optional: [.email, .oktaVerify], factors: 2, numberChallenge: true)
        try await withSandbox(configure: IDXAuthenticatorTests.configure(policy)) { api in
            let device = try await api.enrollDevice(email: "ovc@example.com")
            let (stateHandle, _) = try await api.passwordAccepted(login: "ovc@example.com", pkce: PKCEPair())
            let method = try await api.idx("challenge", ["authenticator": ["id": "autidflowsandbox0000"], "stateHandle": stateHandle])
            try Self.expectRecorded(
                method, "okta-verify-select-method-push-totp.json",
                // The recorded user has a phone and a security question; the sandbox's e-mail (whose masked address
                // `select-authenticator-authenticate.json` shows).
                ignoring: [
                    "authenticatorEnrollments.value[].profile.phoneNumber", "authenticatorEnrollments.value[].profile.question",
                    "authenticatorEnrollments.value[].profile.email",
                    "authenticatorEnrollments.value[].profile.questionKey",
                    "remediation.value[].value[].options[].value.form.value[].options",
                    "remediation.value[].value[].options[].value.form.value[].options[].label",
                    "remediation.value[].value[].options[].value.form.value[].options[].value",
                    "remediation.value[].value[].options[].value.form.value[].type",
                ])
            let totp = try await api.idx(
                "challenge", ["authenticator": ["id": "autidflowsandbox0000", "methodType": "totp"], "stateHandle": stateHandle])
            let recordedTOTP = try Contract.fixture("okta-verify-totp-challenge.json")
            Contract.expectSame(
                try Contract.formPaths(totp.body, "challenge-authenticator"),
                try Contract.formPaths(recordedTOTP, "challenge-authenticator"),
                "challenge-authenticator (okta_verify totp)")
            Contract.expectSame(
                Contract.paths(totp.body, under: "currentAuthenticator.value"),
                Contract.paths(recordedTOTP, under: "currentAuthenticator.value"),
                "currentAuthenticator (okta_verify totp)")

            let push = try await api.idx("challenge/send", ["stateHandle": stateHandle])
            let recordedPoll = try Contract.fixture("okta-verify-push-challenge-poll.json")
            Contract.expectSame(
                Contract.paths(push.body, under: "currentAuthenticator.value"),
                Contract.paths(recordedPoll, under: "currentAuthenticator.value"),
                "currentAuthenticator (push with number challenge)")
            _ = device
        }
    }
}

extension IDXAuthenticatorTests {
    /// A sign-up through password and e-mail under a policy whose only optional authenticator is the phone.
    static func requiredEnrolledPhoneOnly(_ api: SandboxClient, email: String) async throws -> (String, IDXDocument) {
        let (stateHandle, _) = try await IDXSignUpPolicyTests.profileAccepted(api, email: email, pkce: PKCEPair())
        _ = try await IDXSignUpPolicyTests.enrollPassword(api, stateHandle: stateHandle, password: "Sunny-Meadow-42")
        _ = try await api.idx("credential/enroll", ["authenticator": ["id": "autidflowemail000000"], "stateHandle": stateHandle])
        let code = try #require(try await api.emailedCodes(to: email).last)
        return (stateHandle, try await api.idx("challenge/answer", ["credentials": ["passcode": code], "stateHandle": stateHandle]))
    }
}
