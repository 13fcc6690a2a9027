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
    static func document(_ view: IDXView, orgURL: String, error: JSONValue? = nil, fieldErrors: IDXFieldErrors? = nil) -> JSONValue {
        let transaction = view.transaction
        let stateHandle = transaction.stateHandle
        let fieldErrors = fieldErrors?.messages ?? [:]
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

        switch transaction.step {
        case .identify:
            forms.append(identify(stateHandle, orgURL: orgURL))
            if view.policy.signUp {
                forms.append(form("select-enroll-profile", href: href("enroll"), fields: [], stateHandle: stateHandle))
            }
        case .challengePassword:
            forms.append(challengePassword(stateHandle, orgURL: orgURL))
            let enrollment = with(passwordAuthenticator, ["id": .string(passwordEnrollmentID)])
            current = ("currentAuthenticatorEnrollment", enrollment)
            authenticators = [passwordAuthenticator]
            enrollments = [enrollment]
        case .selectAuthenticator, .pushEnded:
            if case .pushEnded(_, let outcome) = transaction.step { messages.append(pushEnded(outcome)) }
            if let factor = secondFactor(view) {
                forms.append(selectAuthenticatorAuthenticate(factor, stateHandle: stateHandle, orgURL: orgURL))
                authenticators = [factor.authenticator]
                enrollments = [factor.enrollment]
            }
        case .challengeEmail:
            let enrollment = emailEnrollment(masked: maskedEmail(view.user?.email ?? ""))
            forms.append(
                passcodeForm(
                    "challenge-authenticator", relatesTo: "$.currentAuthenticatorEnrollment", stateHandle: stateHandle, orgURL: orgURL,
                    errors: fieldErrors["credentials.passcode"]))
            current = ("currentAuthenticatorEnrollment", withCodeActions(enrollment, stateHandle: stateHandle, orgURL: orgURL))
            authenticators = [emailAuthenticator]
            enrollments = [enrollment]
        case .challengePush:
            if let factor = secondFactor(view) {
                forms.append(
                    form(
                        "challenge-poll", href: href("authenticators/poll"), fields: [], stateHandle: stateHandle,
                        relatesTo: ["$.currentAuthenticator"], refresh: pollRefresh))
                forms.append(selectAuthenticatorAuthenticate(factor, stateHandle: stateHandle, orgURL: orgURL))
                let resend = form(
                    "resend", href: href("challenge"),
                    fields: [
                        [
                            "name": "authenticator", "required": true,
                            "value": ["methodType": "push", "id": .string(SandboxState.authenticatorId)], "visible": false,
                            "mutable": false,
                        ]
                    ], stateHandle: stateHandle)
                current = ("currentAuthenticator", prepend(["resend": resend], to: oktaVerifyAuthenticator))
                authenticators = [factor.authenticator]
                enrollments = [factor.enrollment]
            }
        case .oktaVerifyMissing:
            messages.append(
                message(
                    "Okta Verify is not set up for this user: enroll this device first (idflow enroll), then sign in again.",
                    key: "idflow.sandbox.oktaVerifyNotEnrolled"))
        case .enrollProfile:
            forms.append(enrollProfile(stateHandle, orgURL: orgURL, errors: fieldErrors))
            forms.append(form("select-identify", href: href("identify/select"), fields: [], stateHandle: stateHandle))
        case .selectEnroll(let signUp):
            let remaining = signUp.remaining(view.policy)
            let options: [JSONValue] = remaining.enumerated().map { index, authenticator in
                option(
                    label: displayName(authenticator), id: authenticatorID(authenticator), methodType: authenticator.rawValue,
                    relatesTo: "$.authenticators.value[\(index)]")
            }
            forms.append(
                form(
                    "select-authenticator-enroll", href: href("credential/enroll"),
                    fields: [["name": "authenticator", "type": "object", "options": .array(options)]], stateHandle: stateHandle))
            authenticators = remaining.map(authenticator)
            enrollments = signUp.enrolled.map(authenticator)
        case .enrollPassword:
            forms.append(
                passcodeForm(
                    "enroll-authenticator", relatesTo: "$.currentAuthenticator", label: "Enter password", secret: true,
                    stateHandle: stateHandle, orgURL: orgURL, errors: fieldErrors["credentials.passcode"]))
            current = ("currentAuthenticator", passwordAuthenticator)
        case .enrollEmail:
            forms.append(
                passcodeForm(
                    "enroll-authenticator", relatesTo: "$.currentAuthenticator", stateHandle: stateHandle, orgURL: orgURL,
                    errors: fieldErrors["credentials.passcode"]))
            current = ("currentAuthenticator", withCodeActions(emailAuthenticator, stateHandle: stateHandle, orgURL: orgURL))
        case .success:
            break
        }

        if !forms.isEmpty { members.append(("remediation", ["type": "array", "value": .array(forms)])) }
        if let error { messages.append(error) }
        if !messages.isEmpty { members.append(("messages", ["type": "array", "value": .array(messages)])) }
        if let current { members.append((current.key, ["type": "object", "value": current.value])) }
        if let authenticators { members.append(("authenticators", ["type": "array", "value": .array(authenticators)])) }
        if let enrollments { members.append(("authenticatorEnrollments", ["type": "array", "value": .array(enrollments)])) }
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

    static func message(_ text: String, key: String, params: [JSONValue]? = nil) -> JSONValue {
        var i18n: [(String, JSONValue)] = [("key", .string(key))]
        if let params { i18n.append(("params", .array(params))) }
        return .object(JSONObject([("message", .string(text)), ("i18n", .object(JSONObject(i18n))), ("class", "ERROR")]))
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

    // MARK: Authenticators

    private static let passwordAuthenticator: JSONValue = [
        "type": "password", "key": "okta_password", "id": .string(passwordAuthenticatorID), "displayName": "Password",
        "methods": [["type": "password"]],
    ]

    private static let emailAuthenticator: JSONValue = [
        "type": "email", "key": "okta_email", "id": .string(emailAuthenticatorID), "displayName": "Email",
        "methods": [["type": "email"]],
    ]

    private static let oktaVerifyAuthenticator: JSONValue = [
        "type": "app", "key": "okta_verify", "id": .string(SandboxState.authenticatorId), "displayName": "Okta Verify",
        "methods": [["type": "push"]],
    ]

    private static func emailEnrollment(masked: String) -> JSONValue {
        with(emailAuthenticator, ["id": .string(emailEnrollmentID), "profile": ["email": .string(masked)]])
    }

    private static func authenticator(_ authenticator: IDXPolicy.Authenticator) -> JSONValue {
        switch authenticator {
        case .password: return passwordAuthenticator
        case .email: return emailAuthenticator
        case .oktaVerify: return oktaVerifyAuthenticator
        }
    }

    private static func authenticatorID(_ authenticator: IDXPolicy.Authenticator) -> String {
        switch authenticator {
        case .password: return passwordAuthenticatorID
        case .email: return emailAuthenticatorID
        case .oktaVerify: return SandboxState.authenticatorId
        }
    }

    private static func displayName(_ authenticator: IDXPolicy.Authenticator) -> String {
        switch authenticator {
        case .password: return "Password"
        case .email: return "Email"
        case .oktaVerify: return "Okta Verify"
        }
    }

    /// The policy's second factor as `select-authenticator-authenticate` offers it: the authenticator, the
    /// user's enrollment of it, and the option (which points at the enrollment, as the e-mail recording does).
    private static func secondFactor(
        _ view: IDXView
    ) -> (authenticator: JSONValue, enrollment: JSONValue, option: JSONValue)? {
        switch view.policy.secondFactor {
        case .email:
            return (
                emailAuthenticator, emailEnrollment(masked: maskedEmail(view.user?.email ?? "")),
                option(label: "Email", id: emailAuthenticatorID, methodType: "email", relatesTo: "$.authenticatorEnrollments.value[0]")
            )
        case .oktaVerify:
            guard let enrollment = view.oktaVerify else { return nil }
            return (
                oktaVerifyAuthenticator,
                with(
                    oktaVerifyAuthenticator, ["id": .string(enrollment.id)],
                    first: ["profile": ["deviceName": .string(enrollment.deviceName)]]),
                option(
                    label: "Okta Verify", id: SandboxState.authenticatorId, methodType: "push",
                    relatesTo: "$.authenticatorEnrollments.value[0]")
            )
        case nil, .password:
            return nil
        }
    }

    /// `m***r@okta.com`: the first and last character of the local part, as Okta masks addresses.
    static func maskedEmail(_ address: String) -> String {
        guard let at = address.lastIndex(of: "@") else { return "*****" }
        let local = address[..<at]
        guard let first = local.first, let last = local.last else { return "*****" }
        return "\(first)***\(local.count > 1 ? String(last) : "")\(address[at...])"
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
    private static func enrollProfile(_ stateHandle: String, orgURL: String, errors: [String: [(text: String, key: String)]]) -> JSONValue {
        let attributes: [(String, String)] = [("firstName", "First name"), ("lastName", "Last name"), ("email", "Email")]
        let fields: [JSONValue] = attributes.map { name, label in
            var members: [(String, JSONValue)] = [("name", .string(name)), ("label", .string(label)), ("required", true)]
            if let messages = errors["userProfile.\(name)"] { members.append(("messages", fieldMessages(messages))) }
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
        orgURL: String, errors: [(text: String, key: String)]?
    ) -> JSONValue {
        var passcode: [(String, JSONValue)] = [("name", "passcode"), ("label", .string(label))]
        if secret { passcode.append(("secret", true)) }
        if let errors {
            passcode.append(
                ("messages", ["type": "array", "value": .array(errors.map { message($0.text, key: $0.key, params: []) })]))
        }
        return form(
            name, href: "\(orgURL)/idp/idx/challenge/answer",
            fields: [
                [
                    "name": "credentials", "type": "object", "form": ["value": [.object(JSONObject(passcode))]], "required": true,
                ]
            ], stateHandle: stateHandle, relatesTo: [relatesTo])
    }

    private static func fieldMessages(_ messages: [(text: String, key: String)]) -> JSONValue {
        ["type": "array", "value": .array(messages.map { message($0.text, key: $0.key) })]
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

    /// `select-authenticator-authenticate` (fixture `select-authenticator-authenticate.json`) with one option, so
    /// a client takes it without asking.
    private static func selectAuthenticatorAuthenticate(
        _ factor: (authenticator: JSONValue, enrollment: JSONValue, option: JSONValue), stateHandle: String, orgURL: String
    ) -> JSONValue {
        form(
            "select-authenticator-authenticate", href: "\(orgURL)/idp/idx/challenge",
            fields: [["name": "authenticator", "type": "object", "options": [factor.option]]], stateHandle: stateHandle)
    }

    /// An option whose value is a form of immutable `id` and `methodType` (the client copies them through).
    private static func option(label: String, id: String, methodType: String, relatesTo: String) -> JSONValue {
        [
            "label": .string(label),
            "value": [
                "form": [
                    "value": [
                        ["name": "id", "required": true, "value": .string(id), "mutable": false],
                        ["name": "methodType", "required": false, "value": .string(methodType), "mutable": false],
                    ]
                ]
            ],
            "relatesTo": .string(relatesTo),
        ]
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
    private static func form(
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
    private static func with(_ object: JSONValue, _ changes: JSONObject, first: JSONObject = [:]) -> JSONValue {
        var result = first
        for (key, value) in object.objectValue?.members ?? [] { result[key] = value }
        for (key, value) in changes.members { result[key] = value }
        return .object(result)
    }

    /// `object` with the members of `leading` before its own (as the recordings put `resend`/`poll` first).
    private static func prepend(_ leading: JSONObject, to object: JSONValue) -> JSONValue {
        with(object, [:], first: leading)
    }
}
