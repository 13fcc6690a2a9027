import Foundation

/// A user's authenticators as a test reads them (`GET /sandbox/users/{id or login}/authenticators`), secrets
/// included: what a person would have on their phone (TOTP seeds, the phone number) and what they chose (the
/// question); for passkeys, the credential id, AAGUID and the sign count the sandbox last saw. Okta's own Factors API (`/api/v1/users/{id}/factors`) never shows a seed again after enrollment, and no
/// recording of it is in the fixtures, so this is a sandbox control rather than an imitation of it.
extension SandboxState {
    func idxAuthenticators(idOrLogin: String) throws -> OrderedJSON {
        let user = try user(idOrLogin: idOrLogin)
        let enrollments = idx.enrollments[user.id] ?? IDXUserEnrollments()
        var list: [OrderedJSON] = [["key": "okta_password", "type": "password", "id": .string(IDXWire.passwordEnrollmentID)]]
        if !user.email.isEmpty {
            list.append(["key": "okta_email", "type": "email", "id": .string(IDXWire.emailEnrollmentID), "email": .string(user.email)])
        }
        if let phone = enrollments.phone {
            list.append([
                "key": "phone_number", "type": "phone", "id": .string(phone.id), "phoneNumber": .string(phone.phoneNumber),
                "created": .string(Timestamps.iso8601(phone.created)),
            ])
        }
        if let question = enrollments.securityQuestion {
            list.append([
                "key": "security_question", "type": "security_question", "id": .string(question.id),
                "questionKey": .string(question.questionKey), "question": .string(question.question),
                "created": .string(Timestamps.iso8601(question.created)),
            ])
        }
        if let otp = enrollments.googleOTP {
            list.append([
                "key": "google_otp", "type": "app", "id": .string(otp.id), "sharedSecret": .string(otp.secret.base32),
                "created": .string(Timestamps.iso8601(otp.created)),
            ])
        }
        for enrollment in activeEnrollments(userId: user.id) {
            list.append([
                "key": "okta_verify", "type": "app", "id": .string(enrollment.id),
                "deviceName": .string(push.devices[enrollment.deviceId]?.profile.displayName ?? "idflow"),
                "methods": [
                    "push": ["id": .string(enrollment.pushMethodId)],
                    "totp": ["id": .string(enrollment.totpMethodId), "sharedSecret": .string(enrollment.totpSecret.base32)],
                ],
                "created": .string(Timestamps.iso8601(enrollment.created)),
            ])
        }
        for credential in enrollments.webAuthn {
            list.append([
                "key": "webauthn", "type": "security_key", "id": .string(IDXWire.webAuthnEnrollmentID(credential)),
                "credentialId": .string(credential.credentialIdText), "aaguid": .string(credential.aaguidText),
                "algorithm": .string(credential.publicKey.name), "attestation": .string(credential.attestationFormat),
                "signCount": .int(Int(credential.signCount)), "created": .string(Timestamps.iso8601(credential.created)),
            ])
        }
        return ["userId": .string(user.id), "login": .string(user.login), "authenticators": .array(list)]
    }
}
