import Foundation
import HTTPTypes
import Hummingbird

/// The Identity Engine's documents (idx.md §5), in the recorded fixtures' key order: `stateHandle` in every
/// form, absolute hrefs on the sandbox's own host, `version`, `expiresAt`, `intent`, `app` and `cancel` in
/// every document that is not terminal, `user` once the sandbox has said who signs in.
enum IDXWire {
    static let contentType = "application/ion+json; okta-version=1.0.0"
    static let acceptsJSON = "application/json; okta-version=1.0.0"
    /// The password authenticator every sandbox user has (ids in Okta's shapes).
    static let passwordAuthenticatorID = "autidflowpassword000"
    static let passwordEnrollmentID = "laeidflowpassword000"
    /// The e-mail authenticator: every user's primary address counts as enrolled.
    static let emailAuthenticatorID = "autidflowemail000000"
    static let emailEnrollmentID = "eaeidflowemail000000"
    /// How often a client is told to poll (milliseconds): the e-mail challenge's `poll` (a magic link, never
    /// sent by the sandbox) and Okta Verify's `challenge-poll`, 4000 as in the push recording.
    static let pollRefresh = 4000

    /// An IDX answer: the document as `application/ion+json; okta-version=1.0.0`.
    static func response(_ document: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: contentType, .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: document.serialized())))
    }

    /// The messages-only document for an unknown or expired state handle (fixture
    /// `error-introspect-session-expired.json`).
    static func expired() -> Response {
        response(
            [
                "version": "1.0.0",
                "messages": [
                    "type": "array",
                    "value": [message("The session has expired.", key: "idx.session.expired")],
                ],
            ], status: .unauthorized)
    }

    /// The document for where the transaction stands; `error` adds a top-level ERROR message.
    /// `fieldErrors` puts validation messages into the fields they are about.
    static func document(_ view: IDXView, orgURL: String, error: IDXMessage? = nil, fieldErrors: IDXFieldErrors? = nil) -> JSONValue {
        let transaction = view.transaction
        let stateHandle = transaction.stateHandle
        let errors = fieldErrors?.messages ?? [:]
        func href(_ path: String) -> String { "\(orgURL)/idp/idx/\(path)" }
        var members: [(String, JSONValue)] = [
            ("stateHandle", .string(stateHandle)), ("version", "1.0.0"),
            ("expiresAt", .string(Timestamps.iso8601(transaction.expiresAt))), ("intent", .string(transaction.intent)),
        ]
        var forms: [JSONValue] = []
        var messages: [JSONValue] = []
        var current: (key: String, value: JSONValue)?
        var authenticators: [JSONValue]?
        var enrollments: [JSONValue]?
        var enrollmentAuthenticator: JSONValue?
        var recoveryAuthenticator: JSONValue?
        let offered = view.offered
        let recoverable = !view.passwordPolicy.recovery.authenticators.isEmpty

        /// `select-authenticator-authenticate` with the sign-in's remaining factors, their authenticators and the
        /// user's enrollments of them (one index for both lists).
        func selectAuthenticate() {
            let options = offered.enumerated().map { authenticateOption($1, index: $0, view: view) }
            forms.append(
                form(
                    "select-authenticator-authenticate", href: href("challenge"),
                    fields: [["name": "authenticator", "type": "object", "options": .array(options)]], stateHandle: stateHandle))
            authenticators = offered.map { authenticatorObject($0) }
            enrollments = offered.map { enrollmentObject($0, view: view) }
        }
        /// During a challenge: the way back to another factor, when there is one (as the recordings offer it).
        func otherFactors() {
            if offered.count > 1 {
                selectAuthenticate()
            } else {
                authenticators = offered.map { authenticatorObject($0) }
                enrollments = offered.map { enrollmentObject($0, view: view) }
            }
        }
        /// `select-authenticator-enroll` (and `skip`) with what is left to enroll; the enrolled ones listed.
        func selectEnroll() {
            let options = offered.enumerated().map { enrollOption($1, index: $0) }
            forms.append(
                form(
                    "select-authenticator-enroll", href: href("credential/enroll"),
                    fields: [["name": "authenticator", "type": "object", "options": .array(options)]], stateHandle: stateHandle))
            if view.skippable { forms.append(form("skip", href: href("skip"), fields: [], stateHandle: stateHandle)) }
            authenticators = offered.map { authenticatorObject($0) }
            enrollments = view.enrolled.map { enrollmentObject($0, view: view, withProfile: false) }
        }
        func resend() -> JSONObject { ["resend": form("resend", href: href("challenge/resend"), fields: [], stateHandle: stateHandle)] }

        switch transaction.step {
        case .identify:
            forms.append(identify(stateHandle, orgURL: orgURL))
            if view.policy.signUp {
                forms.append(form("select-enroll-profile", href: href("enroll"), fields: [], stateHandle: stateHandle))
            }
            if view.passwordPolicy.lockout.selfServiceUnlock, recoverable {
                forms.append(unlockAccountForm(stateHandle: stateHandle, orgURL: orgURL))
            }
        case .challengePassword:
            forms.append(challengePassword(stateHandle, orgURL: orgURL))
            let enrollment = enrollmentObject(.password, view: view)
            // `03-challenge-authenticator-password.json`: the password's `recover`, where some authenticator may recover.
            current = (
                "currentAuthenticatorEnrollment",
                recoverable ? withRecover(enrollment, stateHandle: stateHandle, orgURL: orgURL) : enrollment
            )
            authenticators = [authenticatorObject(.password)]
            enrollments = [enrollment]
        case .selectAuthenticator, .pushEnded:
            if case .pushEnded(_, let outcome) = transaction.step { messages.append(pushEnded(outcome)) }
            if !offered.isEmpty { selectAuthenticate() }
        case .selectMethod(_, let authenticator):
            // `phone-verification-data-select-method.json`, `okta-verify-select-method-push-totp.json`.
            let isPhone = authenticator == .phone
            var fields: [JSONValue] = [
                ["name": "id", "required": true, "value": .string(authenticatorID(authenticator)), "mutable": false]
            ]
            if isPhone {
                fields.append(methodChoice(["sms": "SMS", "voice": "Voice call"], order: ["sms", "voice"], required: true))
                fields.append([
                    "name": "enrollmentId", "required": true, "value": .string(view.enrollments.phone?.id ?? ""), "mutable": false,
                ])
            } else {
                fields.append(oktaVerifyMethodChoice(required: true))
                fields.append(
                    [
                        "name": "autoChallenge", "type": "boolean", "label": "Send push automatically", "required": false, "value": false,
                        "mutable": true,
                    ])
            }
            let relatesTo = isPhone ? "$.currentAuthenticatorEnrollment" : "$.currentAuthenticator"
            forms.append(
                form(
                    "authenticator-verification-data", href: href("challenge"),
                    fields: [["name": "authenticator", "label": .string(displayName(authenticator)), "form": ["value": .array(fields)]]],
                    stateHandle: stateHandle, relatesTo: [relatesTo]))
            otherFactors()
            current =
                isPhone
                ? ("currentAuthenticatorEnrollment", prepend(resend(), to: enrollmentObject(.phone, view: view), after: "profile"))
                : ("currentAuthenticator", prepend(resend(), to: authenticatorObject(.oktaVerify)))
        case .challengeCode(_, let code):
            forms.append(
                passcodeForm(
                    "challenge-authenticator", relatesTo: "$.currentAuthenticatorEnrollment", stateHandle: stateHandle, orgURL: orgURL,
                    errors: errors["credentials.passcode"]))
            otherFactors()
            if code.channel == .email {
                current = (
                    "currentAuthenticatorEnrollment",
                    withCodeActions(enrollmentObject(.email, view: view), stateHandle: stateHandle, orgURL: orgURL)
                )
            } else {
                current = (
                    "currentAuthenticatorEnrollment",
                    prepend(resend(), to: enrollmentObject(.phone, view: view, methods: [code.channel.rawValue]), after: "profile")
                )
            }
        case .challengeSecurityQuestion:
            // `security-question-challenge.json`.
            let question = view.enrollments.securityQuestion
            forms.append(
                credentialsForm(
                    "challenge-authenticator", relatesTo: "$.currentAuthenticatorEnrollment",
                    fields: [
                        [
                            "name": "questionKey", "label": .string(question?.question ?? ""), "required": true,
                            "value": .string(question?.questionKey ?? ""), "visible": false, "mutable": false,
                        ],
                        field(
                            ["name": "answer", "label": "Answer", "required": true, "secret": true], errors: errors["credentials.answer"]),
                    ], stateHandle: stateHandle, orgURL: orgURL))
            otherFactors()
            let asked: JSONValue = ["questionKey": .string(question?.questionKey ?? ""), "question": .string(question?.question ?? "")]
            current = (
                "currentAuthenticatorEnrollment",
                with(
                    enrollmentObject(.securityQuestion, view: view), [:],
                    first: ["profile": asked, "contextualData": ["enrolledQuestion": asked]])
            )
        case .challengeTOTP(_, let authenticator):
            if authenticator == .oktaVerify {
                // `okta-verify-totp-challenge.json`: the code in `credentials.totp`; `send` for a push instead.
                forms.append(
                    credentialsForm(
                        "challenge-authenticator", relatesTo: "$.currentAuthenticator",
                        fields: [
                            field(
                                ["name": "totp", "label": "Enter code", "required": true, "visible": true],
                                errors: errors["credentials.totp"])
                        ], stateHandle: stateHandle, orgURL: orgURL))
                otherFactors()
                current = (
                    "currentAuthenticator",
                    prepend(
                        ["send": form("send", href: href("challenge/send"), fields: [], stateHandle: stateHandle)],
                        to: authenticatorObject(.oktaVerify, methods: ["totp"]))
                )
            } else {
                // `google-otp-challenge.json`.
                forms.append(
                    credentialsForm(
                        "challenge-authenticator", relatesTo: "$.currentAuthenticatorEnrollment",
                        fields: [
                            field(["name": "passcode", "label": "Enter code", "required": true], errors: errors["credentials.passcode"])
                        ],
                        stateHandle: stateHandle, orgURL: orgURL))
                otherFactors()
                current = ("currentAuthenticatorEnrollment", enrollmentObject(.googleOTP, view: view))
            }
        case .challengePush:
            // `okta-verify-push-challenge-poll.json`: with the number challenge, `contextualData.correctAnswer`.
            forms.append(
                form(
                    "challenge-poll", href: href("authenticators/poll"), fields: [], stateHandle: stateHandle,
                    relatesTo: ["$.currentAuthenticator"], refresh: pollRefresh))
            selectAuthenticate()
            let resend = form(
                "resend", href: href("challenge"),
                fields: [
                    [
                        "name": "authenticator", "required": true,
                        "value": ["methodType": "push", "id": .string(SandboxState.authenticatorId)], "visible": false,
                        "mutable": false,
                    ]
                ], stateHandle: stateHandle)
            var pushing = prepend(["resend": resend], to: authenticatorObject(.oktaVerify, methods: ["push"]))
            if let answer = view.correctAnswer {
                pushing = prepend(["resend": resend, "contextualData": ["correctAnswer": .string(answer)]], to: pushing)
            }
            current = ("currentAuthenticator", pushing)
        case .oktaVerifyMissing:
            messages.append(
                message(
                    "Okta Verify is not set up for this user: enroll this device first (idflow enroll), then sign in again.",
                    key: "idflow.sandbox.oktaVerifyNotEnrolled"))
        case .enrollProfile:
            forms.append(enrollProfile(stateHandle, orgURL: orgURL, errors: errors))
            forms.append(form("select-identify", href: href("identify/select"), fields: [], stateHandle: stateHandle))
        case .selectEnroll:
            selectEnroll()
        case .enrollPassword:
            forms.append(
                passcodeForm(
                    "enroll-authenticator", relatesTo: "$.currentAuthenticator", label: "Enter password", secret: true,
                    stateHandle: stateHandle, orgURL: orgURL, errors: errors["credentials.passcode"]))
            current = ("currentAuthenticator", authenticatorObject(.password))
        case .enrollEmail:
            forms.append(
                passcodeForm(
                    "enroll-authenticator", relatesTo: "$.currentAuthenticator", stateHandle: stateHandle, orgURL: orgURL,
                    errors: errors["credentials.passcode"]))
            current = ("currentAuthenticator", withCodeActions(authenticatorObject(.email), stateHandle: stateHandle, orgURL: orgURL))
        case .enrollPhoneData:
            // `phone-enroll-data-sms-voice.json`.
            forms.append(
                form(
                    "authenticator-enrollment-data", href: href("credential/enroll"),
                    fields: [
                        [
                            "name": "authenticator", "label": "Phone",
                            "form": [
                                "value": [
                                    ["name": "id", "required": true, "value": .string(phoneAuthenticatorID), "mutable": false],
                                    methodChoice(["sms": "SMS", "voice": "Voice call"], order: ["sms", "voice"], required: true),
                                    ["name": "phoneNumber", "required": true],
                                ]
                            ],
                        ]
                    ], stateHandle: stateHandle, relatesTo: ["$.currentAuthenticator"]))
            selectEnroll()
            current = ("currentAuthenticator", prepend(resend(), to: authenticatorObject(.phone)))
        case .enrollPhone(_, _, let code):
            // `phone-enroll-sms-code.json`, `phone-enroll-voice-code.json`.
            forms.append(
                passcodeForm(
                    "enroll-authenticator", relatesTo: "$.currentAuthenticator", stateHandle: stateHandle, orgURL: orgURL,
                    errors: errors["credentials.passcode"]))
            selectEnroll()
            let phone = authenticatorObject(.phone, methods: [code.channel.rawValue])
            current = ("currentAuthenticator", prepend(resend(), to: phone))
            enrollmentAuthenticator = phone
        case .enrollSecurityQuestion:
            // `security-question-enroll.json`; a short answer as `error-security-question-enroll-answer-too-short.json`.
            forms.append(securityQuestionEnrollForm(stateHandle: stateHandle, orgURL: orgURL, errors: errors))
            selectEnroll()
            current = (
                "currentAuthenticator",
                with(authenticatorObject(.securityQuestion), [:], first: ["contextualData": securityQuestionContext])
            )
            enrollmentAuthenticator = authenticatorObject(.securityQuestion)
        case .enrollGoogleOTP(let enrollee, let secret):
            // `google-otp-enroll-qrcode.json`.
            forms.append(
                credentialsForm(
                    "enroll-authenticator", relatesTo: "$.currentAuthenticator",
                    fields: [field(["name": "passcode", "label": "Enter code", "required": true], errors: errors["credentials.passcode"])],
                    stateHandle: stateHandle, orgURL: orgURL))
            selectEnroll()
            let login: String
            switch enrollee {
            case .signUp(let signUp): login = signUp.profile["login"] ?? signUp.email
            case .signIn: login = view.user?.login ?? ""
            }
            var context: JSONObject = [:]
            if let qrcode = qrcode(otpauthURI(secret: secret, login: login, orgURL: orgURL)) { context["qrcode"] = qrcode }
            context["sharedSecret"] = .string(secret)
            current = ("currentAuthenticator", with(authenticatorObject(.googleOTP), [:], first: ["contextualData": .object(context)]))
            enrollmentAuthenticator = authenticatorObject(.googleOTP)
        case .success:
            break
        case .identifyRecovery:
            forms.append(identifyRecoveryForm(stateHandle: stateHandle, orgURL: orgURL))
        case .selectUnlockAuthenticator:
            forms.append(unlockSelectForm(offered, view: view, stateHandle: stateHandle, orgURL: orgURL))
            authenticators = offered.map { authenticatorObject($0) }
            enrollments = offered.map { anonymousEnrollment($0) }
        case .changePassword(_, let reason):
            // `recovery-reset-authenticator.json`, `password-expired-reenroll-authenticator.json`,
            // `password-expiry-warning.json` (which lists no authenticator and no recovery authenticator).
            forms.append(
                passcodeForm(
                    passwordChangeName(reason), relatesTo: "$.currentAuthenticator", label: "New password", secret: true,
                    stateHandle: stateHandle, orgURL: orgURL, errors: errors["credentials.passcode"]))
            var daysToExpiry: Int?
            if case .expiring(let days) = reason {
                daysToExpiry = days
                forms.append(form("skip", href: href("skip"), fields: [], stateHandle: stateHandle))
                messages.append(message(passwordExpiring))
            }
            let password = with(authenticatorObject(.password), ["settings": passwordSettings(daysToExpiry: daysToExpiry)])
            current = ("currentAuthenticator", password)
            authenticators = daysToExpiry == nil ? [authenticatorObject(.password)] : []
            enrollments = view.enrolled.map { enrollmentObject($0, view: view, withProfile: false) }
            if daysToExpiry == nil { recoveryAuthenticator = password }
        case .unlocked:
            messages.append(message(accountUnlocked))
        }
        // A recovery's factor steps name the authenticator being recovered (`recovery-select-authenticator-authenticate.json`,
        // `recovery-challenge-email.json`).
        if transaction.step.signIn?.purpose == .recoverPassword { recoveryAuthenticator = authenticatorObject(.password) }

        if !forms.isEmpty { members.append(("remediation", ["type": "array", "value": .array(forms)])) }
        if let error { messages.append(message(error)) }
        if !messages.isEmpty { members.append(("messages", ["type": "array", "value": .array(messages)])) }
        if let current { members.append((current.key, ["type": "object", "value": current.value])) }
        if let authenticators { members.append(("authenticators", ["type": "array", "value": .array(authenticators)])) }
        if let enrollments { members.append(("authenticatorEnrollments", ["type": "array", "value": .array(enrollments)])) }
        if let enrollmentAuthenticator {
            members.append(("enrollmentAuthenticator", ["type": "object", "value": enrollmentAuthenticator]))
        }
        if let recoveryAuthenticator { members.append(("recoveryAuthenticator", ["type": "object", "value": recoveryAuthenticator])) }
        if let user = view.user { members.append(("user", ["type": "object", "value": userValue(user)])) }
        members.append(("cancel", form("cancel", href: href("cancel"), fields: [], stateHandle: stateHandle)))
        members.append(
            (
                "app",
                [
                    "type": "object",
                    "value": ["name": "oidc_client", "label": "idflow sandbox app", "id": .string(transaction.request.client.id)],
                ]
            ))
        if case .success(let interactionCode, _) = transaction.step {
            members.append(("successWithInteractionCode", success(transaction, interactionCode: interactionCode, orgURL: orgURL)))
        }
        return .object(JSONObject(members))
    }

    /// A message object; without a key (as Okta sends some), no `i18n`.
    static func message(_ message: IDXMessage) -> JSONValue {
        guard let key = message.key else {
            return .object(JSONObject([("message", .string(message.text)), ("class", .string(message.severity.rawValue))]))
        }
        return self.message(message.text, key: key, params: message.params, severity: message.severity)
    }

    static func message(_ text: String, key: String, params: [JSONValue]? = nil, severity: IDXMessage.Severity = .error) -> JSONValue {
        var i18n: [(String, JSONValue)] = [("key", .string(key))]
        if let params { i18n.append(("params", .array(params))) }
        return .object(
            JSONObject([("message", .string(text)), ("i18n", .object(JSONObject(i18n))), ("class", .string(severity.rawValue))]))
    }

    /// The top-level message of a push that ended without approval. `api.authn.poll.error.push_rejected` is the
    /// key Okta sends (okta-signin-widget's recorded mock `authenticator-verification-okta-verify-reject-push.json`,
    /// which the widget maps to "You have chosen to reject this login."). No recording of an expired push was
    /// found; the sandbox names it `api.authn.poll.error.push_timeout` after it, with the widget's text.
    private static func pushEnded(_ outcome: IDXPushOutcome) -> JSONValue {
        switch outcome {
        case .rejected: return message("You have chosen to reject this login.", key: "api.authn.poll.error.push_rejected", params: [])
        case .expired: return message("Your push notification has expired.", key: "api.authn.poll.error.push_timeout", params: [])
        }
    }

    private static func userValue(_ user: IDXView.User) -> JSONValue {
        // Attributes the user does not have are left out rather than sent as null.
        let profile: [(String, JSONValue)] = [
            ("firstName", user.firstName), ("lastName", user.lastName), ("timeZone", user.timeZone), ("locale", user.locale),
        ].compactMap { name, value in value.map { (name, .string($0)) } }
        return .object(
            JSONObject([("id", .string(user.id)), ("identifier", .string(user.login)), ("profile", .object(JSONObject(profile)))]))
    }

    // MARK: Forms

    private static func identify(_ stateHandle: String, orgURL: String) -> JSONValue {
        form(
            "identify", href: "\(orgURL)/idp/idx/identify",
            fields: [
                ["name": "identifier", "label": "Username", "required": true],
                ["name": "rememberMe", "type": "boolean", "label": "Remember this device"],
            ], stateHandle: stateHandle)
    }

    /// `enroll-profile` (fixture `enroll-profile.json`): the `userProfile` form, every attribute required;
    /// validation messages inside the fields (fixture `error-enroll-profile-field.json`).
    private static func enrollProfile(_ stateHandle: String, orgURL: String, errors: [String: [IDXMessage]]) -> JSONValue {
        let attributes: [(String, String)] = [("firstName", "First name"), ("lastName", "Last name"), ("email", "Email")]
        let fields: [JSONValue] = attributes.map { name, label in
            var members: [(String, JSONValue)] = [("name", .string(name)), ("label", .string(label)), ("required", true)]
            if let messages = errors["userProfile.\(name)"] {
                members.append(("messages", ["type": "array", "value": .array(messages.map { message($0.text, key: $0.key ?? "") })]))
            }
            return .object(JSONObject(members))
        }
        return form(
            "enroll-profile", href: "\(orgURL)/idp/idx/enroll/new",
            fields: [["name": "userProfile", "form": ["value": .array(fields)]]], stateHandle: stateHandle)
    }

    /// A `credentials.passcode` form posted to `challenge/answer` (password or code; fixtures
    /// `challenge-email-with-poll-and-resend.json`, `error-challenge-invalid-passcode.json`), with messages on the
    /// passcode field.
    private static func passcodeForm(
        _ name: String, relatesTo: String, label: String = "Enter code", secret: Bool = false, stateHandle: String,
        orgURL: String, errors: [IDXMessage]?
    ) -> JSONValue {
        var passcode: JSONObject = ["name": "passcode", "label": .string(label)]
        if secret { passcode["secret"] = true }
        return credentialsForm(
            name, relatesTo: relatesTo, fields: [field(.object(passcode), errors: errors)], stateHandle: stateHandle, orgURL: orgURL)
    }

    /// A form of one required `credentials` object posted to `challenge/answer`.
    private static func credentialsForm(_ name: String, relatesTo: String, fields: [JSONValue], stateHandle: String, orgURL: String)
        -> JSONValue
    {
        form(
            name, href: "\(orgURL)/idp/idx/challenge/answer",
            fields: [["name": "credentials", "type": "object", "form": ["value": .array(fields)], "required": true]],
            stateHandle: stateHandle, relatesTo: [relatesTo])
    }

    /// A field with its validation messages last (`{"type":"array","value":[…]}`), as the recordings place them.
    private static func field(_ field: JSONValue, errors: [IDXMessage]?) -> JSONValue {
        guard let errors, !errors.isEmpty else { return field }
        return with(field, ["messages": ["type": "array", "value": .array(errors.map { message($0) })]])
    }

    /// The security question's `enroll-authenticator`: one `credentials` field whose two options are a predefined
    /// question with its answer and a custom question with its answer (`security-question-enroll.json`); a short
    /// answer's message on the `answer` field of both, with `secret` (`error-security-question-enroll-answer-too-short.json`).
    private static func securityQuestionEnrollForm(stateHandle: String, orgURL: String, errors: [String: [IDXMessage]]) -> JSONValue {
        let answerErrors = errors["credentials.answer"]
        var answer: JSONObject = ["name": "answer", "label": "Answer", "required": true]
        if answerErrors != nil { answer["secret"] = true }
        let predefined: [JSONValue] = [
            field(
                [
                    "name": "questionKey", "type": "string", "label": "Choose a security question", "required": true,
                    "options": .array(SecurityQuestions.catalogue.map { ["label": .string($0.question), "value": .string($0.key)] }),
                ], errors: errors["credentials.questionKey"]),
            field(.object(answer), errors: answerErrors),
        ]
        let custom: [JSONValue] = [
            ["name": "questionKey", "required": true, "value": .string(SecurityQuestions.customKey), "mutable": false],
            field(["name": "question", "label": "Create a security question", "required": true], errors: errors["credentials.question"]),
            field(.object(answer), errors: answerErrors),
        ]
        return form(
            "enroll-authenticator", href: "\(orgURL)/idp/idx/challenge/answer",
            fields: [
                [
                    "name": "credentials", "type": "object", "required": true,
                    "options": [
                        ["label": "Choose a security question", "value": ["form": ["value": .array(predefined)]]],
                        ["label": "Create my own security question", "value": ["form": ["value": .array(custom)]]],
                    ],
                ]
            ], stateHandle: stateHandle, relatesTo: ["$.currentAuthenticator"])
    }

    private static func challengePassword(_ stateHandle: String, orgURL: String) -> JSONValue {
        form(
            "challenge-authenticator", href: "\(orgURL)/idp/idx/challenge/answer",
            fields: [
                [
                    "name": "credentials", "type": "object",
                    "form": ["value": [["name": "passcode", "label": "Password", "secret": true]]], "required": true,
                ]
            ], stateHandle: stateHandle, relatesTo: ["$.currentAuthenticatorEnrollment"])
    }

    /// An e-mail authenticator (or enrollment) with its `resend` and `poll` forms.
    private static func withCodeActions(_ authenticator: JSONValue, stateHandle: String, orgURL: String) -> JSONValue {
        prepend(
            [
                "resend": form("resend", href: "\(orgURL)/idp/idx/challenge/resend", fields: [], stateHandle: stateHandle),
                "poll": form(
                    "poll", href: "\(orgURL)/idp/idx/challenge/poll", fields: [], stateHandle: stateHandle, refresh: pollRefresh),
            ], to: authenticator)
    }

    /// The form named `issue` (idx.md §6): its href is the addressed authorization server's token endpoint.
    private static func success(_ transaction: IDXTransaction, interactionCode: String, orgURL: String) -> JSONValue {
        [
            "rel": ["create-form"], "name": "issue",
            "href": .string("\(transaction.request.server.endpointBase(orgURL: orgURL))/token"), "method": "POST",
            "value": [
                ["name": "grant_type", "required": true, "value": "interaction_code"],
                ["name": "interaction_code", "required": true, "value": .string(interactionCode)],
                ["name": "client_id", "required": true, "value": .string(transaction.request.client.id)],
                ["name": "client_secret", "required": true],
                ["name": "code_verifier", "required": true],
            ],
            "accepts": "application/x-www-form-urlencoded",
        ]
    }

    /// A form with its hidden, required, immutable `stateHandle` last, as in every fixture.
    static func form(
        _ name: String, href: String, fields: [JSONValue], stateHandle: String, relatesTo: [String]? = nil, refresh: Int? = nil
    ) -> JSONValue {
        var members: [(String, JSONValue)] = [("rel", ["create-form"]), ("name", .string(name))]
        if let relatesTo { members.append(("relatesTo", .array(relatesTo.map(JSONValue.string)))) }
        members += [("href", .string(href)), ("method", "POST"), ("produces", .string(contentType))]
        if let refresh { members.append(("refresh", .int(refresh))) }
        members += [
            (
                "value",
                .array(
                    fields + [
                        ["name": "stateHandle", "required": true, "value": .string(stateHandle), "visible": false, "mutable": false]
                    ])
            ),
            ("accepts", .string(acceptsJSON)),
        ]
        return .object(JSONObject(members))
    }

    // MARK: JSON helpers

    /// `object` with `changes` applied in place (new keys appended), and `first` put before everything else.
    static func with(_ object: JSONValue, _ changes: JSONObject, first: JSONObject = [:]) -> JSONValue {
        var result = first
        for (key, value) in object.objectValue?.members ?? [] { result[key] = value }
        for (key, value) in changes.members { result[key] = value }
        return .object(result)
    }

    /// `object` with the members of `leading` before its own (as the recordings put `resend`/`poll` first), or right
    /// after its member `after` (`profile`, which the recordings keep first).
    static func prepend(_ leading: JSONObject, to object: JSONValue, after: String? = nil) -> JSONValue {
        let members = object.objectValue?.members ?? []
        guard let after, let index = members.firstIndex(where: { $0.0 == after }) else { return with(object, [:], first: leading) }
        var result = JSONObject(members[...index].map { ($0.key, $0.value) })
        for (key, value) in leading.members { result[key] = value }
        for (key, value) in members[(index + 1)...] where result[key] == nil { result[key] = value }
        return .object(result)
    }
}
