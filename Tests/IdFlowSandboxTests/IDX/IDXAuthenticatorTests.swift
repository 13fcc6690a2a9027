import Foundation
import IdFlowSandbox
import IdFlowTestSupport
import OneTimePasscode
import Testing

extension SandboxClient {
    /// The code a phone's authenticator app shows now (sandbox clock), `steps` time steps away.
    func totp(_ secret: String, steps: Int64 = 0) async throws -> String {
        let totp = TOTP(secret: try #require(TOTPSecret(base32: secret)))
        return totp.code(forStep: totp.step(at: await state.now) + steps)
    }

    /// `GET /sandbox/users/{login}/authenticators`, by `key`.
    func authenticators(of login: String) async throws -> [String: [String: Any]] {
        let list = try await send(.get, "/sandbox/users/\(login)/authenticators").object()["authenticators"] as? [[String: Any]] ?? []
        return Dictionary(list.map { ($0["key"] as? String ?? "", $0) }, uniquingKeysWith: { $1 })
    }

    /// The outbox entries for `to` (an address or number), oldest first.
    func outbox(to: String) async throws -> [[String: Any]] {
        try await send(.get, "/sandbox/outbox").array().filter { $0["to"] as? String == to }
    }
}

extension IDXDocument {
    /// The i18n keys of the messages on field `name` of the `credentials` of the first form (either a nested form or,
    /// for the security question's enrollment, its options).
    func credentialMessageKeys(_ name: String) -> [String] {
        let fields = forms.first?["value"] as? [[String: Any]] ?? []
        let credentials = fields.first { $0["name"] as? String == "credentials" }
        var inner = ((credentials?["form"] as? [String: Any])?["value"] as? [[String: Any]]) ?? []
        for option in credentials?["options"] as? [[String: Any]] ?? [] {
            inner += (((option["value"] as? [String: Any])?["form"] as? [String: Any])?["value"] as? [[String: Any]]) ?? []
        }
        return inner.filter { $0["name"] as? String == name }.flatMap { field in
            ((field["messages"] as? [String: Any])?["value"] as? [[String: Any]] ?? []).compactMap {
                ($0["i18n"] as? [String: Any])?["key"] as? String
            }
        }
    }
}

/// The policy of issue 18 end to end: required and optional enrollment with `skip`, several factors to choose from,
/// each authenticator's enrollment and challenge with its wrong answers, and the number challenge.
@Suite struct IDXAuthenticatorTests {
    static let everything = IDXPolicy(
        required: [.password, .email], optional: [.phone, .securityQuestion, .googleOTP, .oktaVerify], factors: 2)

    static func configure(_ policy: IDXPolicy) -> (inout SandboxConfiguration) -> Void { { $0.idx = policy } }

    static func enrollOptions(_ document: IDXDocument) -> [String] {
        document.authenticatorOptions("select-authenticator-enroll").compactMap { $0.values["id"] }
    }

    /// Sign-up through password and e-mail; returns the state handle and the optional-enrollment document.
    static func requiredEnrolled(_ api: SandboxClient, email: String, pkce: PKCEPair) async throws -> (String, IDXDocument) {
        let (stateHandle, select) = try await IDXSignUpPolicyTests.profileAccepted(api, email: email, pkce: pkce)
        #expect(enrollOptions(select) == ["autidflowpassword000", "autidflowemail000000"])
        #expect(!select.remediationNames.contains("skip"), "required ones cannot be skipped")
        _ = try await IDXSignUpPolicyTests.enrollPassword(api, stateHandle: stateHandle, password: "Sunny-Meadow-42")
        _ = try await api.idx("credential/enroll", ["authenticator": ["id": "autidflowemail000000"], "stateHandle": stateHandle])
        let code = try #require(try await api.emailedCodes(to: email).last)
        let optional = try await api.idx("challenge/answer", ["credentials": ["passcode": code], "stateHandle": stateHandle])
        #expect(optional.remediationNames == ["select-authenticator-enroll", "skip"], "\(optional.reply.text)")
        #expect(enrollOptions(optional) == ["autidflowphone000000", "autidflowquestion000", "autidflowgoogleotp00"])
        return (stateHandle, optional)
    }

    @Test func optionalEnrollmentsCanBeSkipped() async throws {
        try await withSandbox(configure: Self.configure(Self.everything)) { api in
            let pkce = PKCEPair()
            let (stateHandle, _) = try await Self.requiredEnrolled(api, email: "skip@example.com", pkce: pkce)
            let success = try await api.idx("skip", ["stateHandle": stateHandle])
            #expect(success.status == .ok)
            try await api.redeem(success, pkce: pkce)
            #expect(try await IDXSignUpPolicyTests.userStatus(api, "skip@example.com") == "ACTIVE")
            #expect(Set(try await api.authenticators(of: "skip@example.com").keys) == ["okta_password", "okta_email"])
        }
    }

    @Test func aSignUpEnrollsThePhoneTheQuestionAndGoogleAuthenticator() async throws {
        try await withSandbox(configure: Self.configure(Self.everything)) { api in
            let pkce = PKCEPair()
            let email = "all@example.com"
            let (stateHandle, _) = try await Self.requiredEnrolled(api, email: email, pkce: pkce)

            // Phone: the number first, then the code.
            let data = try await api.idx(
                "credential/enroll", ["authenticator": ["id": "autidflowphone000000"], "stateHandle": stateHandle])
            #expect(data.remediationNames == ["authenticator-enrollment-data", "select-authenticator-enroll", "skip"])
            let bad = try await api.idx(
                "credential/enroll",
                [
                    "authenticator": ["id": "autidflowphone000000", "methodType": "sms", "phoneNumber": "555-1234"],
                    "stateHandle": stateHandle,
                ])
            #expect(bad.status == .badRequest)
            #expect(bad.messageTexts == ["Unable to initiate factor enrollment: Invalid Phone Number."])
            #expect(bad.messageKeys.isEmpty, "recorded without i18n")
            #expect(bad.remediationNames.first == "select-authenticator-enroll")
            let number = "+15555550123"
            let enroll = try await api.idx(
                "credential/enroll",
                ["authenticator": ["id": "autidflowphone000000", "methodType": "sms", "phoneNumber": number], "stateHandle": stateHandle])
            #expect(enroll.remediationNames == ["enroll-authenticator", "select-authenticator-enroll", "skip"])
            let sent = try #require(try await api.outbox(to: number).last)
            #expect(sent["channel"] as? String == "sms")
            let first = try #require(sent["code"] as? String)
            let wrong = try await api.idx("challenge/answer", ["credentials": ["passcode": "000000"], "stateHandle": stateHandle])
            #expect(wrong.status == .badRequest && wrong.passcodeMessageKeys == ["api.authn.error.PASSCODE_INVALID"])
            let soon = try await api.idx("challenge/resend", ["stateHandle": stateHandle])
            #expect(soon.status == .tooManyRequests && soon.messageKeys == ["tooManyRequests"])
            try await api.advanceClock(seconds: 31)
            #expect(try await api.idx("challenge/resend", ["stateHandle": stateHandle]).status == .ok)
            let second = try #require(try await api.outbox(to: number).last?["code"] as? String)
            if first != second {
                let old = try await api.idx("challenge/answer", ["credentials": ["passcode": first], "stateHandle": stateHandle])
                #expect(old.passcodeMessageKeys == ["api.authn.error.PASSCODE_INVALID"], "a resend invalidates the old code")
            }
            let afterPhone = try await api.idx("challenge/answer", ["credentials": ["passcode": second], "stateHandle": stateHandle])
            #expect(Self.enrollOptions(afterPhone) == ["autidflowquestion000", "autidflowgoogleotp00"])

            // Security question: too short, then a custom question.
            let question = try await api.idx(
                "credential/enroll", ["authenticator": ["id": "autidflowquestion000"], "stateHandle": stateHandle])
            let keys = (question.object("currentAuthenticator")?["contextualData"] as? [String: Any])?["questionKeys"] as? [String]
            #expect(keys?.contains("custom") == true && keys?.contains("disliked_food") == true)
            let short = try await api.idx(
                "challenge/answer", ["credentials": ["questionKey": "disliked_food", "answer": "abc"], "stateHandle": stateHandle])
            #expect(short.status == .badRequest)
            #expect(
                short.credentialMessageKeys("answer") == ["securityQuestion.answer.tooShort.arg", "securityQuestion.answer.tooShort.arg"])
            let afterQuestion = try await api.idx(
                "challenge/answer",
                ["credentials": ["questionKey": "custom", "question": "Favourite lemma?", "answer": "Zorn"], "stateHandle": stateHandle])
            #expect(Self.enrollOptions(afterQuestion) == ["autidflowgoogleotp00"])

            // Google Authenticator: a real QR code of the otpauth URI, and a valid code to finish.
            let otp = try await api.idx("credential/enroll", ["authenticator": ["id": "autidflowgoogleotp00"], "stateHandle": stateHandle])
            let context = try #require(otp.object("currentAuthenticator")?["contextualData"] as? [String: Any])
            let secret = try #require(context["sharedSecret"] as? String)
            let qrcode = try #require(context["qrcode"] as? [String: Any])
            #expect(qrcode["method"] as? String == "embedded" && qrcode["type"] as? String == "image/png")
            let href = try #require(qrcode["href"] as? String)
            #expect(href.hasPrefix("data:image/png;base64,"))
            if QRCodeTests.zbarAvailable {
                let png = try #require(Data(base64Encoded: String(href.dropFirst("data:image/png;base64,".count))))
                let uri = try #require(try await QRCodeTests.zbarimg(Array(png)))
                #expect(uri.hasPrefix("otpauth://totp/") && uri.contains(":all@example.com?secret=\(secret)&issuer="))
            }
            let wrongCode = try await api.totp(secret, steps: 5)
            let invalid = try await api.idx("challenge/answer", ["credentials": ["passcode": wrongCode], "stateHandle": stateHandle])
            #expect(invalid.passcodeMessageKeys == ["authfactor.challenge.soft_token.invalid_passcode"])
            let enrolledCode = try await api.totp(secret)
            let success = try await api.idx("challenge/answer", ["credentials": ["passcode": enrolledCode], "stateHandle": stateHandle])
            #expect(success.status == .ok, "\(success.reply.text)")
            try await api.redeem(success, pkce: pkce)

            let authenticators = try await api.authenticators(of: email)
            #expect(authenticators["phone_number"]?["phoneNumber"] as? String == number)
            #expect(authenticators["security_question"]?["question"] as? String == "Favourite lemma?")
            #expect(authenticators["google_otp"]?["sharedSecret"] as? String == secret)

            // The code used at enrollment is not accepted again at the next sign-in (same step).
            let (signIn, select) = try await api.passwordAccepted(login: email, password: "Sunny-Meadow-42", pkce: PKCEPair())
            #expect(select.remediationNames == ["select-authenticator-authenticate"])
            #expect(
                select.authenticatorOptions("select-authenticator-authenticate").compactMap { $0.values["id"] } == [
                    "autidflowemail000000", "autidflowphone000000", "autidflowquestion000", "autidflowgoogleotp00",
                ])
            let challenge = try await api.idx("challenge", ["authenticator": ["id": "autidflowgoogleotp00"], "stateHandle": signIn])
            #expect(challenge.remediationNames == ["challenge-authenticator", "select-authenticator-authenticate"])
            let reused = try await api.idx("challenge/answer", ["credentials": ["passcode": enrolledCode], "stateHandle": signIn])
            #expect(reused.passcodeMessageKeys == ["authfactor.challenge.soft_token.used_passcode"])
            try await api.advanceClock(seconds: 30)
            let next = try await api.idx(
                "challenge/answer", ["credentials": ["passcode": try await api.totp(secret)], "stateHandle": signIn])
            #expect(next.interactionCode != nil, "\(next.reply.text)")
        }
    }

    /// An admin-created user with a phone policy; enrolls the phone at sign-in (which counts as the second factor).
    static func userWithPhone(_ api: SandboxClient, email: String, number: String = "+15555550188") async throws {
        _ = try await api.registerActiveUser(email: email)
        let (stateHandle, enroll) = try await api.passwordAccepted(login: email, pkce: PKCEPair())
        #expect(enroll.remediationNames == ["select-authenticator-enroll"], "a required authenticator the user lacks is enrolled now")
        #expect(enroll.body["intent"] as? String == "LOGIN")
        _ = try await api.idx(
            "credential/enroll",
            ["authenticator": ["id": "autidflowphone000000", "methodType": "voice", "phoneNumber": number], "stateHandle": stateHandle])
        let sent = try #require(try await api.outbox(to: number).last)
        #expect(sent["channel"] as? String == "voice")
        let success = try await api.idx("challenge/answer", ["credentials": ["passcode": sent["code"] as Any], "stateHandle": stateHandle])
        #expect(success.interactionCode != nil, "\(success.reply.text)")
    }

    @Test func aUserWithoutARequiredAuthenticatorEnrollsItAtSignInThenIsChallengedByPhone() async throws {
        try await withSandbox(configure: Self.configure(IDXPolicy(required: [.password, .phone], factors: 2))) { api in
            try await Self.userWithPhone(api, email: "old@example.com")
            let (stateHandle, select) = try await api.passwordAccepted(login: "old@example.com", pkce: PKCEPair())
            let option = try #require(select.authenticatorOptions("select-authenticator-authenticate").first)
            #expect(option.values["id"] == "autidflowphone000000" && option.values["enrollmentId"]?.hasPrefix("sms") == true)
            let method = try await api.idx("challenge", ["authenticator": option.values, "stateHandle": stateHandle])
            #expect(method.remediationNames.first == "authenticator-verification-data")
            #expect(method.object("currentAuthenticatorEnrollment")?["profile"] as? [String: String] == ["phoneNumber": "+1 XXX-XXX-0188"])
            let challenge = try await api.idx(
                "challenge", ["authenticator": ["id": "autidflowphone000000", "methodType": "sms"], "stateHandle": stateHandle])
            #expect(challenge.remediationNames == ["challenge-authenticator"])
            let wrong = try await api.idx("challenge/answer", ["credentials": ["passcode": "999999x"], "stateHandle": stateHandle])
            #expect(wrong.passcodeMessageKeys == ["api.authn.error.PASSCODE_INVALID"])
            let code = try #require(try await api.outbox(to: "+15555550188").last)
            #expect(code["channel"] as? String == "sms")
            let success = try await api.idx(
                "challenge/answer", ["credentials": ["passcode": code["code"] as Any], "stateHandle": stateHandle])
            #expect(success.interactionCode != nil)
        }
    }

    @Test func theSecurityQuestionIsAskedAndAWrongAnswerRefused() async throws {
        try await withSandbox(configure: Self.configure(IDXPolicy(required: [.password, .securityQuestion], factors: 2))) { api in
            _ = try await api.registerActiveUser(email: "q@example.com")
            let (enrolling, _) = try await api.passwordAccepted(login: "q@example.com", pkce: PKCEPair())
            _ = try await api.idx("credential/enroll", ["authenticator": ["id": "autidflowquestion000"], "stateHandle": enrolling])
            let enrolled = try await api.idx(
                "challenge/answer", ["credentials": ["questionKey": "first_computer_game", "answer": "Tetris"], "stateHandle": enrolling])
            #expect(enrolled.interactionCode != nil, "\(enrolled.reply.text)")

            let (stateHandle, _) = try await api.passwordAccepted(login: "q@example.com", pkce: PKCEPair())
            let asked = try await api.idx("challenge", ["authenticator": ["id": "autidflowquestion000"], "stateHandle": stateHandle])
            let fields =
                (((asked.forms.first?["value"] as? [[String: Any]])?.first?["form"] as? [String: Any])?["value"] as? [[String: Any]]) ?? []
            #expect(fields.first?["label"] as? String == "What was the first computer game you played?")
            #expect(fields.first?["value"] as? String == "first_computer_game" && fields.first?["visible"] as? Bool == false)
            let wrong = try await api.idx(
                "challenge/answer", ["credentials": ["questionKey": "first_computer_game", "answer": "Doom"], "stateHandle": stateHandle])
            #expect(wrong.status == .badRequest)
            #expect(wrong.credentialMessageKeys("answer") == ["authfactor.challenge.question_factor.answer_invalid"])
            let right = try await api.idx(
                "challenge/answer",
                ["credentials": ["questionKey": "first_computer_game", "answer": " tetris "], "stateHandle": stateHandle])
            #expect(right.interactionCode != nil)
        }
    }

    /// A Google Authenticator enrolled at sign-in; returns its seed.
    static func googleEnrolled(_ api: SandboxClient, email: String) async throws -> String {
        _ = try await api.registerActiveUser(email: email)
        let (stateHandle, _) = try await api.passwordAccepted(login: email, pkce: PKCEPair())
        let otp = try await api.idx("credential/enroll", ["authenticator": ["id": "autidflowgoogleotp00"], "stateHandle": stateHandle])
        let secret = try #require((otp.object("currentAuthenticator")?["contextualData"] as? [String: Any])?["sharedSecret"] as? String)
        let done = try await api.idx(
            "challenge/answer", ["credentials": ["passcode": try await api.totp(secret)], "stateHandle": stateHandle])
        #expect(done.interactionCode != nil)
        return secret
    }

    @Test(arguments: [(-2, false), (-1, true), (0, true), (1, true), (2, false)])
    func totpCodesAreAcceptedWithinOneStepOfSkew(steps: Int64, accepted: Bool) async throws {
        // The sandbox clock stands still, so a step boundary passing while a loaded machine runs the test cannot turn
        // the code of one step into the next.
        let policy = IDXPolicy(required: [.password, .googleOTP], factors: 2)
        try await withSandbox(configure: {
            $0.idx = policy
            $0.freezeClock = true
        }) { api in
            let secret = try await Self.googleEnrolled(api, email: "skew@example.com")
            try await api.advanceClock(seconds: 120)
            let (stateHandle, _) = try await api.passwordAccepted(login: "skew@example.com", pkce: PKCEPair())
            _ = try await api.idx("challenge", ["authenticator": ["id": "autidflowgoogleotp00"], "stateHandle": stateHandle])
            let answer = try await api.idx(
                "challenge/answer", ["credentials": ["passcode": try await api.totp(secret, steps: steps)], "stateHandle": stateHandle])
            #expect((answer.interactionCode != nil) == accepted, "\(steps): \(answer.reply.text)")
            if !accepted { #expect(answer.passcodeMessageKeys == ["authfactor.challenge.soft_token.invalid_passcode"]) }
        }
    }

    @Test func oktaVerifysTOTPUsesTheSeedOfTheEnrollment() async throws {
        try await withSandbox(configure: Self.configure(IDXPolicy(required: [.password], optional: [.oktaVerify], factors: 2))) { api in
            let device = try await api.enrollDevice(email: "ov@example.com")
            let seed = try #require(device.totpSecret, "the enrollment answer carries methods.totp.sharedSecret")
            let listed = try await api.authenticators(of: "ov@example.com")["okta_verify"]?["methods"] as? [String: Any]
            #expect((listed?["totp"] as? [String: Any])?["sharedSecret"] as? String == seed)

            let (stateHandle, _) = try await api.passwordAccepted(login: "ov@example.com", pkce: PKCEPair())
            let choose = try await api.idx("challenge", ["authenticator": ["id": "autidflowsandbox0000"], "stateHandle": stateHandle])
            #expect(choose.remediationNames.first == "authenticator-verification-data")
            let challenge = try await api.idx(
                "challenge", ["authenticator": ["id": "autidflowsandbox0000", "methodType": "totp"], "stateHandle": stateHandle])
            #expect(challenge.remediationNames == ["challenge-authenticator"])
            let wrong = try await api.idx("challenge/answer", ["credentials": ["totp": "12345"], "stateHandle": stateHandle])
            #expect(wrong.credentialMessageKeys("totp") == ["api.authn.error.PASSCODE_INVALID"])
            let success = try await api.idx(
                "challenge/answer", ["credentials": ["totp": try await api.totp(seed)], "stateHandle": stateHandle])
            #expect(success.interactionCode != nil, "\(success.reply.text)")
        }
    }

    @Test func theNumberChallengeNeedsTheNumberTheSignInPageShows() async throws {
        let policy = IDXPolicy(required: [.password, .oktaVerify], factors: 2, numberChallenge: true)
        try await withSandbox(configure: Self.configure(policy)) { api in
            let device = try await api.enrollDevice(email: "nc@example.com")
            let (stateHandle, poll) = try await IDXSignInPolicyTests.pushSent(api, device, pkce: PKCEPair(), olderShape: false)
            let answer = try #require(
                (poll.object("currentAuthenticator")?["contextualData"] as? [String: Any])?["correctAnswer"] as? String)
            let challenge = try #require(try await api.pendingChallenges(device).first)
            let items = try #require((try jwtClaims(challenge)["challengeContext"] as? [String: Any])?["challengeTextItems"] as? [String])
            #expect(items.count == 3 && items.contains(answer))

            let without = try await api.respond(to: challenge, device: device)
            #expect(without.status == .badRequest && without.text.contains("selectedChallengeTextItem"))
            #expect(try await api.idx("authenticators/poll", ["stateHandle": stateHandle]).remediationNames.first == "challenge-poll")

            let other = try #require(items.first { $0 != answer })
            let wrong = try await api.respond(
                to: challenge, device: device,
                overrides: [
                    "challengeResponseContext": [
                        "userConsent": "APPROVED_CONSENT_PROMPT", "transactionType": "LOGIN", "selectedChallengeTextItem": other,
                    ]
                ])
            #expect(wrong.status == .badRequest)
            let refused = try await api.idx("authenticators/poll", ["stateHandle": stateHandle])
            #expect(refused.status == .forbidden && refused.messageKeys == ["api.authn.poll.error.push_rejected"])

            let again = try await api.idx(
                "challenge", ["authenticator": ["id": "autidflowsandbox0000", "methodType": "push"], "stateHandle": stateHandle])
            let newAnswer = try #require(
                (again.object("currentAuthenticator")?["contextualData"] as? [String: Any])?["correctAnswer"] as? String)
            let second = try #require(try await api.pendingChallenges(device).first)
            let right = try await api.respond(
                to: second, device: device,
                overrides: [
                    "challengeResponseContext": [
                        "userConsent": "APPROVED_CONSENT_PROMPT", "transactionType": "LOGIN", "selectedChallengeTextItem": newAnswer,
                    ]
                ])
            #expect(right.status == .ok, "\(right.text)")
            #expect(try await api.idx("authenticators/poll", ["stateHandle": stateHandle]).interactionCode != nil)
        }
    }
}
