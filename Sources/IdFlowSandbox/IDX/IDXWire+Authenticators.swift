import Crypto
import Foundation
import QRCodeImage

/// The authenticator objects of IDX documents (idx.md §5.3, §12.2), their ids, their users' enrollments and the
/// options that choose them, in the recordings' shapes and key order.
extension IDXWire {
    /// The phone, security question and Google Authenticator authenticators (ids in Okta's shapes).
    static let phoneAuthenticatorID = "autidflowphone000000"
    static let securityQuestionAuthenticatorID = "autidflowquestion000"
    static let googleOTPAuthenticatorID = "autidflowgoogleotp00"
    /// The passkeys authenticator (`webauthn`).
    static let webAuthnAuthenticatorID = "autidflowwebauthn000"
    /// The custom OTP and Temporary Access Code authenticators (`SandboxState+IDXCustomOTP.swift`, `+IDXTAC.swift`).
    static let customOTPAuthenticatorID = "autidflowcustomotp00"
    static let tacAuthenticatorID = "autidflowtac00000000"

    /// The authenticator an `authenticator.id` names, or nil.
    static func authenticator(id: String?) -> IDXPolicy.Authenticator? {
        IDXPolicy.Authenticator.allCases.first { authenticatorID($0) == id }
    }

    static func authenticatorID(_ authenticator: IDXPolicy.Authenticator) -> String {
        switch authenticator {
        case .password: return passwordAuthenticatorID
        case .email: return emailAuthenticatorID
        case .phone: return phoneAuthenticatorID
        case .securityQuestion: return securityQuestionAuthenticatorID
        case .googleOTP: return googleOTPAuthenticatorID
        case .oktaVerify: return SandboxState.authenticatorId
        case .webAuthn: return webAuthnAuthenticatorID
        case .customOTP: return customOTPAuthenticatorID
        case .tac: return tacAuthenticatorID
        }
    }

    static func displayName(_ authenticator: IDXPolicy.Authenticator) -> String {
        switch authenticator {
        case .password: return "Password"
        case .email: return "Email"
        case .phone: return "Phone"
        case .securityQuestion: return "Security Question"
        case .googleOTP: return "Google Authenticator"
        case .oktaVerify: return "Okta Verify"
        case .webAuthn: return "Passkeys"
        case .customOTP: return "Custom OTP"
        case .tac: return "Temporary Access Code"
        }
    }

    /// `type`, `key` and the method types, as §12.2 lists them.
    private static func identity(_ authenticator: IDXPolicy.Authenticator) -> (type: String, key: String, methods: [String]) {
        switch authenticator {
        case .password: return ("password", "okta_password", ["password"])
        case .email: return ("email", "okta_email", ["email"])
        case .phone: return ("phone", "phone_number", ["sms", "voice"])
        case .securityQuestion: return ("security_question", "security_question", ["security_question"])
        case .googleOTP: return ("app", "google_otp", ["otp"])
        case .oktaVerify: return ("app", "okta_verify", ["push", "totp"])
        case .webAuthn: return ("security_key", "webauthn", ["webauthn"])
        // `authenticator-verification-select-authenticator.json` (the verification recording swaps type and method).
        case .customOTP: return ("security_key", "custom_otp", ["otp"])
        case .tac: return ("tac", "tac", ["tac"])
        }
    }

    /// The authenticator object: `{type, key, id, displayName, methods}`, `methods` narrowed when given.
    static func authenticatorObject(_ authenticator: IDXPolicy.Authenticator, methods: [String]? = nil) -> OrderedJSON {
        let identity = identity(authenticator)
        return [
            "type": .string(identity.type), "key": .string(identity.key), "id": .string(authenticatorID(authenticator)),
            "displayName": .string(displayName(authenticator)),
            "methods": .array((methods ?? identity.methods).map { ["type": .string($0)] }),
        ]
    }

    /// The user's enrollment of `authenticator`: its own id, and before the rest the `profile` the recordings show
    /// (masked address or number, the question, the device name); without it (`withProfile` false) as the enrollment
    /// documents list what is enrolled already (`phone-enroll-data-sms-voice.json`).
    static func enrollmentObject(
        _ authenticator: IDXPolicy.Authenticator, view: IDXView, methods: [String]? = nil, withProfile: Bool = true
    ) -> OrderedJSON {
        let object = authenticatorObject(authenticator, methods: methods)
        if !withProfile {
            let full = enrollmentObject(authenticator, view: view, methods: methods)
            return with(object, ["id": full["id"] ?? ""])
        }
        switch authenticator {
        case .password:
            return with(object, ["id": .string(passwordEnrollmentID)])
        case .email:
            return with(
                object, ["id": .string(emailEnrollmentID)], first: ["profile": ["email": .string(maskedEmail(view.user?.email ?? ""))]])
        case .phone:
            let phone = view.enrollments.phone
            return with(
                object, ["id": .string(phone?.id ?? "")], first: ["profile": ["phoneNumber": .string(phone?.masked ?? "")]])
        case .securityQuestion:
            let question = view.enrollments.securityQuestion
            return with(
                object, ["id": .string(question?.id ?? "")],
                first: ["profile": ["questionKey": .string(question?.questionKey ?? ""), "question": .string(question?.question ?? "")]])
        case .googleOTP:
            return with(object, ["id": .string(view.enrollments.googleOTP?.id ?? "")])
        case .oktaVerify:
            return with(
                object, ["id": .string(view.oktaVerify?.id ?? "")],
                first: ["profile": ["deviceName": .string(view.oktaVerify?.deviceName ?? "idflow")]])
        case .webAuthn:
            return enrollmentObjects(.webAuthn, view: view, withProfile: true).first ?? object
        case .customOTP:
            return with(object, ["id": .string(customOTPEnrollmentID(userId: view.user?.id ?? ""))])
        case .tac:
            // `authenticator-verification-tac.json`: no profile, the code's own id.
            return with(object, ["id": .string(view.enrollments.tac?.id ?? "")])
        }
    }

    /// The user's enrollments of `authenticator`: one per passkey for `webauthn` (each with its `credentialId`, and
    /// `profile.aaguid` with the profile, as `swift-idx-webauthn-authentication-challenge-response.json` lists them),
    /// one otherwise.
    static func enrollmentObjects(_ authenticator: IDXPolicy.Authenticator, view: IDXView, withProfile: Bool = true) -> [OrderedJSON] {
        guard authenticator == .webAuthn else { return [enrollmentObject(authenticator, view: view, withProfile: withProfile)] }
        let object = authenticatorObject(.webAuthn)
        return view.enrollments.webAuthn.map { credential in
            var members: JSONObject = [:]
            if withProfile { members["profile"] = ["aaguid": .string(credential.aaguidText)] }
            for (key, value) in object.objectValue?.members ?? [] {
                members[key] = key == "id" ? .string(webAuthnEnrollmentID(credential)) : value
                if key == "displayName" { members["credentialId"] = .string(credential.credentialIdText) }
            }
            return .object(members)
        }
    }

    /// A passkey's enrollment id (`fwf…`, as Okta's), the same for the credential every time it is listed.
    static func webAuthnEnrollmentID(_ credential: WebAuthnCredential) -> String {
        let digest = SHA256.hash(data: Data(credential.credentialId))
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return "fwf" + String(digest.prefix(17).map { alphabet[Int($0) % alphabet.count] })
    }

    /// An option of `select-authenticator-authenticate` (`authenticatorEnrollments` index `index`): a fixed
    /// `methodType`, or for the phone (`phone-challenge-sms.json`) and Okta Verify (`google-otp-challenge.json`) the
    /// methods to choose from; Okta Verify's and passkeys' relate to `authenticators`, as recorded (`enrollmentIndex`, when
    /// a user's several passkeys make the two lists differ, is the enrollment's own index). Before the user is known
    /// (`enrollmentKnown` false, `unlock-account-select-authenticator.json`) the phone's has no `enrollmentId`.
    static func authenticateOption(
        _ authenticator: IDXPolicy.Authenticator, index: Int, view: IDXView, enrollmentKnown: Bool = true, enrollmentIndex: Int? = nil
    ) -> OrderedJSON {
        let id = authenticatorID(authenticator)
        var fields: [OrderedJSON] = [["name": "id", "required": true, "value": .string(id), "mutable": false]]
        var relatesTo = "$.authenticatorEnrollments.value[\(enrollmentIndex ?? index)]"
        switch authenticator {
        case .phone:
            fields.append(methodChoice(["sms": "SMS", "voice": "Voice call"], order: ["sms", "voice"], required: false))
            if enrollmentKnown {
                fields.append([
                    "name": "enrollmentId", "required": true, "value": .string(view.enrollments.phone?.id ?? ""), "mutable": false,
                ])
            }
        case .oktaVerify:
            fields.append(view.policy.oktaVerifyTOTP ? oktaVerifyMethodChoice(required: false) : fixedMethod("push"))
            relatesTo = "$.authenticators.value[\(index)]"
        case .webAuthn:
            // `swift-idx-webauthn-authentication-challenge-response.json`: a passkey option relates to `authenticators`.
            fields.append(fixedMethod("webauthn"))
            relatesTo = "$.authenticators.value[\(index)]"
        default:
            fields.append(fixedMethod(identity(authenticator).methods[0]))
        }
        return [
            "label": .string(displayName(authenticator)), "value": ["form": ["value": .array(fields)]], "relatesTo": .string(relatesTo),
        ]
    }

    /// An option of `select-authenticator-enroll` (`authenticators` index `index`), as
    /// `select-authenticator-enroll-many.json` shows it: the phone's method and optional number, a fixed method
    /// otherwise.
    static func enrollOption(_ authenticator: IDXPolicy.Authenticator, index: Int) -> OrderedJSON {
        var fields: [OrderedJSON] = [["name": "id", "required": true, "value": .string(authenticatorID(authenticator)), "mutable": false]]
        if authenticator == .phone {
            fields.append(methodChoice(["sms": "SMS", "voice": "Voice call"], order: ["sms", "voice"], required: false))
            fields.append(["name": "phoneNumber", "label": "Phone number", "required": false])
        } else {
            fields.append(fixedMethod(identity(authenticator).methods[0]))
        }
        return [
            "label": .string(displayName(authenticator)), "value": ["form": ["value": .array(fields)]],
            "relatesTo": .string("$.authenticators.value[\(index)]"),
        ]
    }

    private static func fixedMethod(_ method: String) -> OrderedJSON {
        ["name": "methodType", "required": false, "value": .string(method), "mutable": false]
    }

    static func methodChoice(_ labels: [String: String], order: [String], required: Bool) -> OrderedJSON {
        [
            "name": "methodType", "type": "string", "required": .bool(required),
            "options": .array(order.map { ["label": .string(labels[$0] ?? $0), "value": .string($0)] }),
        ]
    }

    static func oktaVerifyMethodChoice(required: Bool) -> OrderedJSON {
        methodChoice(["totp": "Enter a code", "push": "Get a push notification"], order: ["totp", "push"], required: required)
    }

    /// `m***r@okta.com`: the first and last character of the local part, as Okta masks addresses.
    static func maskedEmail(_ address: String) -> String {
        guard let at = address.lastIndex(of: "@") else { return "*****" }
        let local = address[..<at]
        guard let first = local.first, let last = local.last else { return "*****" }
        return "\(first)***\(local.count > 1 ? String(last) : "")\(address[at...])"
    }

    /// The security question catalogue as `security-question-enroll.json`'s `contextualData` has it: every key (and
    /// `custom`) in `questionKeys`, and the predefined questions with their texts.
    static var securityQuestionContext: OrderedJSON {
        [
            "questionKeys": .array((SecurityQuestions.catalogue.map(\.key) + [SecurityQuestions.customKey]).map(OrderedJSON.string)),
            "questions": .array(
                SecurityQuestions.catalogue.map { ["questionKey": .string($0.key), "question": .string($0.question)] }),
        ]
    }

    /// `otpauth://totp/{issuer}:{login}?secret=…&issuer=…` (Google Authenticator's key URI format), the issuer
    /// being the org's host.
    static func otpauthURI(secret: String, login: String, orgURL: String) -> String {
        let issuer = URL(string: orgURL)?.host ?? "idflow"
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~@"))
        func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
        return "otpauth://totp/\(encoded(issuer)):\(encoded(login))?secret=\(secret)&issuer=\(encoded(issuer))"
    }

    /// `contextualData.qrcode`: the PNG data URL of `uri` (nil should the URI not fit a version-10 code).
    static func qrcode(_ uri: String) -> OrderedJSON? {
        guard let code = try? QRCode(uri), let href = try? PNGImage.dataURL(code) else { return nil }
        return ["method": "embedded", "href": .string(href), "type": "image/png"]
    }
}
