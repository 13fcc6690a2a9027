import Foundation
import HTTPTypes
import Hummingbird

/// The Identity Engine's documents (idx.md §5), in the recorded fixtures' key order: `stateHandle` in every
/// form, absolute hrefs on the sandbox's own host, `version`, `expiresAt`, `intent`, `app` and `cancel` in
/// every document that is not terminal.
enum IDXWire {
    static let contentType = "application/ion+json; okta-version=1.0.0"
    static let acceptsJSON = "application/json; okta-version=1.0.0"
    /// The password authenticator every sandbox user has (ids in Okta's shapes).
    static let passwordAuthenticatorID = "autidflowpassword000"
    static let passwordEnrollmentID = "laeidflowpassword000"

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

    /// The document for where `transaction` stands; `error` adds a top-level ERROR message.
    /// `fieldErrors` puts validation messages into the fields they are about.
    static func document(
        _ transaction: IDXTransaction, orgURL: String, error: JSONValue? = nil, fieldErrors: IDXFieldErrors? = nil
    ) -> JSONValue {
        let stateHandle = transaction.stateHandle
        let fieldErrors = fieldErrors?.messages ?? [:]
        var members: [(String, JSONValue)] = [
            ("stateHandle", .string(stateHandle)), ("version", "1.0.0"),
            ("expiresAt", .string(Timestamps.iso8601(transaction.expiresAt))), ("intent", "LOGIN"),
        ]
        switch transaction.step {
        case .identify:
            members.append(
                ("remediation", remediations([identify(stateHandle, orgURL: orgURL), selectEnrollProfile(stateHandle, orgURL: orgURL)])))
        case .enrollProfile:
            members.append(
                (
                    "remediation",
                    remediations([
                        enrollProfile(stateHandle, orgURL: orgURL, errors: fieldErrors),
                        form("select-identify", href: "\(orgURL)/idp/idx/identify/select", fields: [], stateHandle: stateHandle),
                    ])
                ))
        case .enrollPassword:
            members.append(
                ("remediation", remediations([enrollPassword(stateHandle, orgURL: orgURL, errors: fieldErrors["credentials.passcode"])])))
            members.append(("currentAuthenticator", ["type": "object", "value": passwordAuthenticator]))
        case .challengePassword:
            members.append(("remediation", remediations([challengePassword(stateHandle, orgURL: orgURL)])))
        case .success:
            break
        }
        if let error { members.append(("messages", ["type": "array", "value": [error]])) }
        if case .challengePassword = transaction.step {
            let authenticator = passwordAuthenticator
            var enrollment = authenticator.objectValue ?? JSONObject()
            enrollment["id"] = .string(passwordEnrollmentID)
            members.append(("currentAuthenticatorEnrollment", ["type": "object", "value": .object(enrollment)]))
            members.append(("authenticators", ["type": "array", "value": [authenticator]]))
            members.append(("authenticatorEnrollments", ["type": "array", "value": [.object(enrollment)]]))
        }
        members.append(("cancel", form("cancel", href: "\(orgURL)/idp/idx/cancel", fields: [], stateHandle: stateHandle)))
        members.append(
            (
                "app",
                [
                    "type": "object",
                    "value": ["name": "oidc_client", "label": "idflow sandbox app", "id": .string(transaction.request.client.id)],
                ]
            ))
        if case .success(let interactionCode) = transaction.step {
            members.append(("successWithInteractionCode", success(transaction, interactionCode: interactionCode, orgURL: orgURL)))
        }
        return .object(JSONObject(members))
    }

    private static let passwordAuthenticator: JSONValue = [
        "type": "password", "key": "okta_password", "id": .string(passwordAuthenticatorID), "displayName": "Password",
        "methods": [["type": "password"]],
    ]

    static func message(_ text: String, key: String) -> JSONValue {
        ["message": .string(text), "i18n": ["key": .string(key)], "class": "ERROR"]
    }

    private static func remediations(_ forms: [JSONValue]) -> JSONValue {
        ["type": "array", "value": .array(forms)]
    }

    private static func identify(_ stateHandle: String, orgURL: String) -> JSONValue {
        form(
            "identify", href: "\(orgURL)/idp/idx/identify",
            fields: [
                ["name": "identifier", "label": "Username", "required": true],
                ["name": "rememberMe", "type": "boolean", "label": "Remember this device"],
            ], stateHandle: stateHandle)
    }

    private static func selectEnrollProfile(_ stateHandle: String, orgURL: String) -> JSONValue {
        form("select-enroll-profile", href: "\(orgURL)/idp/idx/enroll", fields: [], stateHandle: stateHandle)
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

    /// `enroll-authenticator` for the first password, with the policy's messages on the passcode.
    private static func enrollPassword(_ stateHandle: String, orgURL: String, errors: [(text: String, key: String)]?) -> JSONValue {
        var passcode: [(String, JSONValue)] = [("name", "passcode"), ("label", "Enter password"), ("secret", true)]
        if let errors { passcode.append(("messages", fieldMessages(errors))) }
        return form(
            "enroll-authenticator", href: "\(orgURL)/idp/idx/challenge/answer",
            fields: [
                [
                    "name": "credentials", "type": "object", "form": ["value": [.object(JSONObject(passcode))]], "required": true,
                ]
            ], stateHandle: stateHandle, relatesTo: ["$.currentAuthenticator"])
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
        _ name: String, href: String, fields: [JSONValue], stateHandle: String, relatesTo: [String]? = nil
    ) -> JSONValue {
        var members: [(String, JSONValue)] = [("rel", ["create-form"]), ("name", .string(name))]
        if let relatesTo { members.append(("relatesTo", .array(relatesTo.map(JSONValue.string)))) }
        members += [
            ("href", .string(href)), ("method", "POST"), ("produces", .string(contentType)),
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
}
