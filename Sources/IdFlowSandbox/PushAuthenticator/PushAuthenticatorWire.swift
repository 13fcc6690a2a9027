import Foundation

/// The MyAccount app-authenticators API's bodies with the keys of the recorded ones
/// (`okta-devices/well-known-okta-organization.json`, `app-authenticator-configuration.json`,
/// `enrollment-response.json`, `pending-challenges.json`).
enum PushAuthenticatorWire {
    /// `GET /.well-known/okta-organization`.
    static func organization(orgId: String, orgURL: String) -> OrderedJSON {
        ["id": .string(orgId), "_links": ["organization": ["href": .string(orgURL)]]]
    }

    /// `GET /.well-known/app-authenticator-configuration`: the org's one custom app authenticator.
    static func configuration(orgId: String, orgURL: String, userVerification: PushUserVerification, created: Date) -> OrderedJSON {
        [
            [
                "authenticatorId": .string(SandboxState.authenticatorId),
                "orgId": .string(orgId),
                "key": "custom_app",
                "name": "idflow sandbox authenticator",
                "created": .string(Timestamps.iso8601(created)),
                "lastUpdated": .string(Timestamps.iso8601(created)),
                // The policy's level: PREFERRED unless sign-ins require user verification.
                "settings": ["userVerification": userVerification == .required ? "REQUIRED" : "PREFERRED"],
                "supportedMethods": [
                    [
                        "type": "push", "status": "ACTIVE",
                        "settings": [
                            "keyProtection": "ANY", "algorithms": ["ES256", "RS256"], "transactionTypes": ["LOGIN", "CIBA"],
                        ],
                    ]
                ],
                "appAuthenticatorEnrollEndpoint": .string("\(orgURL)/idp/myaccount/app-authenticators"),
            ]
        ]
    }

    /// An enrollment, as POST and PATCH return it. `methods.push.links` has the recording's three
    /// links: `pending` (served), `update` (the PATCH of this enrollment) and `activate` (the Devices
    /// API's, listed for shape only: enrollments are ACTIVE at once). `methods.totp` is the Okta Verify TOTP method:
    /// its seed (`sharedSecret`, Base32, SHA-1, 6 digits, 30 s) only in the answer to the enrollment itself
    /// (`withSeed`), as Okta hands a seed over once. The field names are okta-devices-swift's
    /// (`EnrolledAuthenticatorModel.AuthenticatorMethods`: `id`, `type`, `sharedSecret`, `status`); MyAccount's
    /// own response model decodes `methods.push` only, so SDK clients ignore it.
    static func enrollment(_ snapshot: EnrollmentSnapshot, orgURL: String, withSeed: Bool = false) -> OrderedJSON {
        let enrollment = snapshot.enrollment
        let device = snapshot.device
        let selfURL = "\(orgURL)/idp/myaccount/app-authenticators/\(enrollment.id)"
        let profile = device.profile
        return [
            "id": .string(enrollment.id),
            "authenticatorId": .string(SandboxState.authenticatorId),
            "createdDate": .string(Timestamps.iso8601(enrollment.created)),
            "lastUpdated": .string(Timestamps.iso8601(enrollment.lastUpdated)),
            "device": [
                "id": .string(device.id),
                "status": "ACTIVE",
                "created": .string(Timestamps.iso8601(device.created)),
                "lastUpdated": .string(Timestamps.iso8601(device.lastUpdated)),
                "profile": [
                    "displayName": OrderedJSON(profile.displayName), "platform": OrderedJSON(profile.platform),
                    "manufacturer": OrderedJSON(profile.manufacturer), "model": OrderedJSON(profile.model),
                    "osVersion": OrderedJSON(profile.osVersion), "serialNumber": OrderedJSON(profile.serialNumber),
                    "imei": OrderedJSON(profile.imei), "meid": OrderedJSON(profile.meid), "udid": OrderedJSON(profile.udid),
                    "sid": OrderedJSON(profile.sid),
                ],
                "clientInstanceId": .string(device.clientInstanceId),
            ],
            "user": ["id": .string(snapshot.user.id), "username": .string(snapshot.user.login)],
            "methods": [
                "push": [
                    "id": .string(enrollment.pushMethodId),
                    "createdDate": .string(Timestamps.iso8601(enrollment.created)),
                    "lastUpdated": .string(Timestamps.iso8601(enrollment.lastUpdated)),
                    "links": [
                        "update": link(selfURL, "PATCH"),
                        "pending": link("\(selfURL)/push/notifications", "GET"),
                        "activate": link("\(orgURL)/api/v1/devices/\(device.id)/lifecycle/activate", "POST"),
                    ],
                ],
                "totp": totpMethod(enrollment, withSeed: withSeed),
            ],
            "links": ["self": link(selfURL, "PATCH", "DELETE")],
        ]
    }

    private static func totpMethod(_ enrollment: RegisteredEnrollment, withSeed: Bool) -> OrderedJSON {
        var method: JSONObject = ["id": .string(enrollment.totpMethodId), "type": "totp", "status": "ACTIVE"]
        if withSeed { method["sharedSecret"] = .string(enrollment.totpSecret.base32) }
        method["createdDate"] = .string(Timestamps.iso8601(enrollment.created))
        method["lastUpdated"] = .string(Timestamps.iso8601(enrollment.lastUpdated))
        return .object(method)
    }

    /// One entry of the pending list: `{"payloadVersion":"IDXv1","challenge":<JWT>}`.
    static func pendingChallenge(_ jwt: String) -> OrderedJSON {
        ["payloadVersion": "IDXv1", "challenge": .string(jwt)]
    }

    private static func link(_ href: String, _ methods: String...) -> OrderedJSON {
        ["href": .string(href), "hints": ["allow": .array(methods.map(OrderedJSON.string))]]
    }
}

/// A push enrollment as an Authn factor (`authn-mfa-required.json`, `authn-mfa-challenge-push-*.json`):
/// the factor id is the push method's id (`opf…`).
enum PushFactorWire {
    /// The factor of MFA_REQUIRED (with its `verify` link) and of a WAITING challenge (without).
    static func factor(_ factor: PushFactor, orgURL: String, links: Bool) -> OrderedJSON {
        let profile = factor.device.profile
        var object: JSONObject = [
            "id": .string(factor.enrollment.pushMethodId),
            "factorType": "push",
            "provider": "OKTA",
            "vendorName": "OKTA",
            "profile": [
                "credentialId": .string(factor.login),
                "deviceType": .string(deviceType(profile.platform)),
                "keys": [
                    [
                        "kty": "PKIX", "use": "sig", "kid": "default",
                        "x5c": [.string(factor.proofOfPossessionKey.derRepresentation.base64EncodedString())],
                    ]
                ],
                "name": .string(profile.displayName ?? "idflow"),
                "platform": OrderedJSON(profile.platform),
                "version": OrderedJSON(profile.osVersion),
            ],
        ]
        if links {
            object["_links"] = [
                "verify": [
                    "href": .string("\(orgURL)/api/v1/authn/factors/\(factor.enrollment.pushMethodId)/verify"),
                    "hints": ["allow": ["POST"]],
                ]
            ]
        }
        return .object(object)
    }

    /// The factor of a REJECTED or TIMEOUT answer.
    static func shortFactor(_ factor: PushFactor) -> OrderedJSON {
        let profile = factor.device.profile
        return [
            "id": .string(factor.enrollment.pushMethodId),
            "factorType": "push",
            "provider": "OKTA",
            "profile": [
                "deviceType": .string(deviceType(profile.platform)), "name": .string(profile.displayName ?? "idflow"),
                "platform": OrderedJSON(profile.platform), "version": OrderedJSON(profile.osVersion),
            ],
        ]
    }

    /// The push factor of MFA_ENROLL (enrolling it through Authn is not emulated).
    static func enrollableFactor(orgURL: String) -> OrderedJSON {
        [
            "factorType": "push", "provider": "OKTA", "vendorName": "OKTA",
            "_links": ["enroll": ["href": .string("\(orgURL)/api/v1/authn/factors"), "hints": ["allow": ["POST"]]]],
            "status": "NOT_SETUP", "enrollment": "REQUIRED",
        ]
    }

    /// Okta's `deviceType` for a platform: `SmartPhone_IPhone` for iOS, `Desktop_<Platform>` otherwise.
    static func deviceType(_ platform: String?) -> String {
        switch platform?.uppercased() {
        case "IOS": return "SmartPhone_IPhone"
        case "ANDROID": return "SmartPhone_Android"
        case let other?: return "Desktop_" + other.prefix(1) + other.dropFirst().lowercased()
        case nil: return "Unknown"
        }
    }
}
