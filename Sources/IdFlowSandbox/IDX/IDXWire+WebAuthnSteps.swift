import Foundation

/// The passkey steps' documents (`webauthn`, "Passkeys"), in the recordings' shapes: `activationData` at enrollment
/// and promotion, `challengeData` at a challenge and in `webauthnAutofillUIChallenge`.
extension IDXWire.DocumentBuilder {
    /// The passkey's hidden credential fields (`label`, `required`, `visible` false), as recorded.
    private static func hiddenFields(_ fields: [(String, String)]) -> [OrderedJSON] {
        fields.map { ["name": .string($0.0), "label": .string($0.1), "required": true, "visible": false] }
    }

    /// `currentAuthenticator` of a passkey step: `contextualData` first, then the authenticator's own members
    /// (`widget-v3-credential_enroll_webauthn-enroll-mfa.json`).
    private func webAuthnAuthenticator(contextualData: OrderedJSON) -> OrderedJSON {
        IDXWire.with(IDXWire.authenticatorObject(.webAuthn), [:], first: ["contextualData": contextualData])
    }

    /// The creation options (`activationData`): the relying party (with `id` only for a custom RP ID), the user (id,
    /// login, name), the challenge, ES256 then RS256, direct attestation, the policy's user verification, the org's
    /// origin as `u2fParams.appid`, and the passkeys the user has already as `excludeCredentials`.
    private func activationData(challenge: String) -> OrderedJSON {
        let policy = view.policy.webAuthn
        var rp: JSONObject = ["name": "idflow sandbox"]
        if let rpId = policy.rpId { rp["id"] = .string(rpId) }
        let user: (id: String, name: String, displayName: String)
        if case .signUp(let signUp) = transaction.step.enrollee {
            let login = signUp.profile["login"] ?? signUp.email
            let name = [signUp.profile["firstName"], signUp.profile["lastName"]].compactMap { $0 }.joined(separator: " ")
            user = (signUp.userId ?? "", login, name.isEmpty ? login : name)
        } else {
            let known = view.user
            let name = [known?.firstName, known?.lastName].compactMap { $0 }.joined(separator: " ")
            user = (known?.id ?? "", known?.login ?? "", name.isEmpty ? known?.login ?? "" : name)
        }
        let exclude: [OrderedJSON] = view.enrollments.webAuthn.map {
            ["type": "public-key", "id": .string($0.credentialIdText)]
        }
        return [
            "rp": .object(rp),
            "user": ["displayName": .string(user.displayName), "name": .string(user.name), "id": .string(user.id)],
            "pubKeyCredParams": [["type": "public-key", "alg": -7], ["type": "public-key", "alg": -257]],
            "challenge": .string(challenge),
            "attestation": "direct",
            "authenticatorSelection": ["userVerification": .string(policy.userVerification.rawValue), "requireResidentKey": false],
            "u2fParams": ["appid": .string(orgURL)],
            "excludeCredentials": .array(exclude),
        ]
    }

    /// The request options (`challengeData`): the challenge, the policy's user verification, the org's origin as the
    /// `appid` extension, and `rpId` only for a custom RP ID.
    private func challengeData(challenge: String) -> OrderedJSON {
        let policy = view.policy.webAuthn
        var data: JSONObject = [
            "challenge": .string(challenge), "userVerification": .string(policy.userVerification.rawValue),
            "extensions": ["appid": .string(orgURL)],
        ]
        if let rpId = policy.rpId { data["rpId"] = .string(rpId) }
        return .object(data)
    }

    /// A passkey's enrollment: `enroll-authenticator` with `attestation` and `clientData`
    /// (`swift-idx-webauthn-enrolment-challenge-response.json`), and the way back to the other authenticators.
    mutating func enrollWebAuthnStep(_ enrollee: IDXEnrollee, challenge: String) {
        forms.append(
            IDXWire.credentialsForm(
                "enroll-authenticator", relatesTo: "$.currentAuthenticator",
                fields: Self.hiddenFields([("attestation", "Attestation"), ("clientData", "Client Data")]), stateHandle: stateHandle,
                orgURL: orgURL))
        selectEnroll()
        current = ("currentAuthenticator", webAuthnAuthenticator(contextualData: ["activationData": activationData(challenge: challenge)]))
        enrollmentAuthenticator = IDXWire.authenticatorObject(.webAuthn)
    }

    /// A passkey's challenge: `challenge-authenticator` with `authenticatorData`, `clientData` and `signatureData`
    /// (`swift-idx-webauthn-authentication-challenge-response.json`); on a failed assertion the same again
    /// (`widget-error-authenticator-webauthn-failure.json`).
    mutating func challengeWebAuthnStep(challenge: String) {
        forms.append(
            IDXWire.credentialsForm(
                "challenge-authenticator", relatesTo: "$.currentAuthenticator",
                fields: Self.hiddenFields([
                    ("authenticatorData", "Authenticator Data"), ("clientData", "Client Data"), ("signatureData", "Signature Data"),
                ]), stateHandle: stateHandle, orgURL: orgURL))
        otherFactors()
        current = ("currentAuthenticator", webAuthnAuthenticator(contextualData: ["challengeData": challengeData(challenge: challenge)]))
    }

    /// Passkey promotion (`widget-authenticator-enroll-passkey-promotion.json`): `enroll-authenticator-promotion`
    /// posted to `credential/enroll`, its fields hinted `webauthn`, and `skip`.
    mutating func promoteWebAuthnStep(challenge: String) {
        let fields: [OrderedJSON] = [
            ("clientData", "Client Data"), ("attestation", "Attestation"), ("transports", "Transports"),
            ("clientExtensions", "clientExtensions"),
        ].map { ["name": .string($0.0), "label": .string($0.1), "visible": false, "required": true, "hint": "webauthn"] }
        forms.append(
            IDXWire.form(
                "enroll-authenticator-promotion", href: href("credential/enroll"),
                fields: [["name": "credentials", "form": ["value": .array(fields)]]], stateHandle: stateHandle,
                relatesTo: ["$.currentAuthenticator"]))
        forms.append(IDXWire.form("skip", href: href("skip"), fields: [], stateHandle: stateHandle))
        let object = IDXWire.authenticatorObject(.webAuthn)
        current = (
            "currentAuthenticator",
            [
                "displayName": object["displayName"] ?? "", "catalogKey": "webauthn", "type": object["type"] ?? "",
                "key": object["key"] ?? "", "id": object["id"] ?? "", "settings": [:],
                "contextualData": ["activationData": activationData(challenge: challenge)],
            ]
        )
        authenticators = [object]
        enrollments = view.enrolled.flatMap { IDXWire.enrollmentObjects($0, view: view, withProfile: false) }
        enrollmentAuthenticator = object
    }

    /// The usernameless passkey sign-in at `identify` (`swift-idx-webauthn-autofillui-authentication-challenge-response.json`):
    /// `challenge-webauthn-autofillui-authenticator` with an optional `userHandle`, and `webauthnAutofillUIChallenge`.
    mutating func webAuthnAutofill(challenge: String) {
        var fields = Self.hiddenFields([
            ("authenticatorData", "Authenticator Data"), ("clientData", "Client Data"), ("signatureData", "Signature Data"),
        ])
        fields.append(["name": "userHandle", "label": "User Handle", "required": false, "visible": false])
        forms.append(
            IDXWire.form(
                "challenge-webauthn-autofillui-authenticator", href: href("challenge/answer/webauthn-autofillui"),
                fields: [["name": "credentials", "type": "object", "form": ["value": .array(fields)], "required": true]],
                stateHandle: stateHandle, relatesTo: ["webauthnAutofillUIChallenge"]))
        autofillChallenge = ["challengeData": challengeData(challenge: challenge)]
    }
}
