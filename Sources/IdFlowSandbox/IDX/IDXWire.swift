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
    static func response(_ document: OrderedJSON, status: HTTPResponse.Status = .ok) -> Response {
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
    static func document(_ view: IDXView, orgURL: String, error: IDXMessage? = nil, fieldErrors: IDXFieldErrors? = nil) -> OrderedJSON {
        var builder = DocumentBuilder(view: view, orgURL: orgURL, errors: fieldErrors?.messages ?? [:])
        builder.addStep()
        return builder.document(error: error)
    }

    /// A message object; without a key (as Okta sends some), no `i18n`.
    static func message(_ message: IDXMessage) -> OrderedJSON {
        guard let key = message.key else {
            return .object(JSONObject([("message", .string(message.text)), ("class", .string(message.severity.rawValue))]))
        }
        return self.message(message.text, key: key, params: message.params, severity: message.severity)
    }

    static func message(_ text: String, key: String, params: [OrderedJSON]? = nil, severity: IDXMessage.Severity = .error) -> OrderedJSON {
        var i18n: [(String, OrderedJSON)] = [("key", .string(key))]
        if let params { i18n.append(("params", .array(params))) }
        return .object(
            JSONObject([("message", .string(text)), ("i18n", .object(JSONObject(i18n))), ("class", .string(severity.rawValue))]))
    }

    /// The top-level message of a push that ended without approval. `api.authn.poll.error.push_rejected` is the
    /// key Okta sends (okta-signin-widget's recorded mock `authenticator-verification-okta-verify-reject-push.json`,
    /// which the widget maps to "You have chosen to reject this login."). No recording of an expired push was
    /// found; the sandbox names it `api.authn.poll.error.push_timeout` after it, with the widget's text.
    static func pushEnded(_ outcome: IDXPushOutcome) -> OrderedJSON {
        switch outcome {
        case .rejected: return message("You have chosen to reject this login.", key: "api.authn.poll.error.push_rejected", params: [])
        case .expired: return message("Your push notification has expired.", key: "api.authn.poll.error.push_timeout", params: [])
        }
    }

    static func userValue(_ user: IDXView.User) -> OrderedJSON {
        // Attributes the user does not have are left out rather than sent as null.
        let profile: [(String, OrderedJSON)] = [
            ("firstName", user.firstName), ("lastName", user.lastName), ("timeZone", user.timeZone), ("locale", user.locale),
        ].compactMap { name, value in value.map { (name, .string($0)) } }
        return .object(
            JSONObject([("id", .string(user.id)), ("identifier", .string(user.login)), ("profile", .object(JSONObject(profile)))]))
    }

    // MARK: Forms

    static func identify(_ stateHandle: String, orgURL: String) -> OrderedJSON {
        form(
            "identify", href: "\(orgURL)/idp/idx/identify",
            fields: [
                ["name": "identifier", "label": "Username", "required": true],
                ["name": "rememberMe", "type": "boolean", "label": "Remember this device"],
            ], stateHandle: stateHandle)
    }

    /// `enroll-profile` (fixture `enroll-profile.json`): the `userProfile` form, every attribute required;
    /// validation messages inside the fields (fixture `error-enroll-profile-field.json`).
    static func enrollProfile(_ stateHandle: String, orgURL: String, errors: [String: [IDXMessage]]) -> OrderedJSON {
        let attributes: [(String, String)] = [("firstName", "First name"), ("lastName", "Last name"), ("email", "Email")]
        let fields: [OrderedJSON] = attributes.map { name, label in
            var members: [(String, OrderedJSON)] = [("name", .string(name)), ("label", .string(label)), ("required", true)]
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
    static func passcodeForm(
        _ name: String, relatesTo: String, label: String = "Enter code", secret: Bool = false, stateHandle: String,
        orgURL: String, errors: [IDXMessage]?
    ) -> OrderedJSON {
        var passcode: JSONObject = ["name": "passcode", "label": .string(label)]
        if secret { passcode["secret"] = true }
        return credentialsForm(
            name, relatesTo: relatesTo, fields: [field(.object(passcode), errors: errors)], stateHandle: stateHandle, orgURL: orgURL)
    }

    /// A form of one required `credentials` object posted to `challenge/answer`.
    static func credentialsForm(_ name: String, relatesTo: String, fields: [OrderedJSON], stateHandle: String, orgURL: String)
        -> OrderedJSON
    {
        form(
            name, href: "\(orgURL)/idp/idx/challenge/answer",
            fields: [["name": "credentials", "type": "object", "form": ["value": .array(fields)], "required": true]],
            stateHandle: stateHandle, relatesTo: [relatesTo])
    }

    /// A field with its validation messages last (`{"type":"array","value":[…]}`), as the recordings place them.
    static func field(_ field: OrderedJSON, errors: [IDXMessage]?) -> OrderedJSON {
        guard let errors, !errors.isEmpty else { return field }
        return with(field, ["messages": ["type": "array", "value": .array(errors.map { message($0) })]])
    }

    /// The security question's `enroll-authenticator`: one `credentials` field whose two options are a predefined
    /// question with its answer and a custom question with its answer (`security-question-enroll.json`); a short
    /// answer's message on the `answer` field of both, with `secret` (`error-security-question-enroll-answer-too-short.json`).
    static func securityQuestionEnrollForm(stateHandle: String, orgURL: String, errors: [String: [IDXMessage]]) -> OrderedJSON {
        let answerErrors = errors["credentials.answer"]
        var answer: JSONObject = ["name": "answer", "label": "Answer", "required": true]
        if answerErrors != nil { answer["secret"] = true }
        let predefined: [OrderedJSON] = [
            field(
                [
                    "name": "questionKey", "type": "string", "label": "Choose a security question", "required": true,
                    "options": .array(SecurityQuestions.catalogue.map { ["label": .string($0.question), "value": .string($0.key)] }),
                ], errors: errors["credentials.questionKey"]),
            field(.object(answer), errors: answerErrors),
        ]
        let custom: [OrderedJSON] = [
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

    static func challengePassword(_ stateHandle: String, orgURL: String) -> OrderedJSON {
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
    static func withCodeActions(_ authenticator: OrderedJSON, stateHandle: String, orgURL: String) -> OrderedJSON {
        prepend(
            [
                "resend": form("resend", href: "\(orgURL)/idp/idx/challenge/resend", fields: [], stateHandle: stateHandle),
                "poll": form(
                    "poll", href: "\(orgURL)/idp/idx/challenge/poll", fields: [], stateHandle: stateHandle, refresh: pollRefresh),
            ], to: authenticator)
    }

    /// The form named `issue` (idx.md §6): its href is the addressed authorization server's token endpoint.
    static func success(_ transaction: IDXTransaction, interactionCode: String, orgURL: String) -> OrderedJSON {
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
        _ name: String, href: String, fields: [OrderedJSON], stateHandle: String, relatesTo: [String]? = nil, refresh: Int? = nil
    ) -> OrderedJSON {
        var members: [(String, OrderedJSON)] = [("rel", ["create-form"]), ("name", .string(name))]
        if let relatesTo { members.append(("relatesTo", .array(relatesTo.map(OrderedJSON.string)))) }
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
    static func with(_ object: OrderedJSON, _ changes: JSONObject, first: JSONObject = [:]) -> OrderedJSON {
        var result = first
        for (key, value) in object.objectValue?.members ?? [] { result[key] = value }
        for (key, value) in changes.members { result[key] = value }
        return .object(result)
    }

    /// `object` with the members of `leading` before its own (as the recordings put `resend`/`poll` first), or right
    /// after its member `after` (`profile`, which the recordings keep first).
    static func prepend(_ leading: JSONObject, to object: OrderedJSON, after: String? = nil) -> OrderedJSON {
        let members = object.objectValue?.members ?? []
        guard let after, let index = members.firstIndex(where: { $0.0 == after }) else { return with(object, [:], first: leading) }
        var result = JSONObject(members[...index].map { ($0.key, $0.value) })
        for (key, value) in leading.members { result[key] = value }
        for (key, value) in members[(index + 1)...] where result[key] == nil { result[key] = value }
        return .object(result)
    }
}
