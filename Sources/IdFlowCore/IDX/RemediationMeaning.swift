import IdFlowFoundation

extension IDX {
    /// What a remediation offers, in a person's words. The Identity Engine names its steps for machines
    /// (`select-enroll-profile`), and a terminal that lists only those names leaves a new user guessing which
    /// number signs them up; the name stays first, since it is what `--remediation` takes.
    enum RemediationMeaning {
        static func of(_ name: String) -> String? { meanings[name] }

        private static let meanings: [String: String] = [
            "identify": "sign in with a username",
            "identify-recovery": "name the account to recover",
            "select-identify": "sign in with a username",
            "select-enroll-profile": "sign up: create a new account",
            "enroll-profile": "sign up: fill in the new account's profile",
            "profile-update": "complete the account's profile",
            "redirect-idp": "sign in with another identity provider (in a browser)",
            "redirect-idverify": "verify your identity with an ID-verification provider (in a browser)",
            "select-authenticator-authenticate": "choose how to verify it is you",
            "select-authenticator-enroll": "choose an authenticator to set up",
            "select-authenticator-unlock-account": "choose how to verify it is you, to unlock the account",
            "challenge-authenticator": "verify it is you with this authenticator",
            "enroll-authenticator": "set up this authenticator",
            "authenticator-verification-data": "choose how the code is sent (text or call)",
            "authenticator-enrollment-data": "give the phone number or other details to enroll",
            "select-enrollment-channel": "choose how to receive the enrollment link (QR code, e-mail or text)",
            "enrollment-channel-data": "give where the enrollment link is sent",
            "enroll-poll": "wait for the authenticator app to finish enrolling",
            "challenge-poll": "wait for the push to be approved",
            "poll": "wait for the server",
            "resend": "send the code again",
            "recover": "forgot password: recover the account",
            "reset-authenticator": "set a new password",
            "reenroll-authenticator": "the password has expired: choose a new one",
            "reenroll-authenticator-warning": "the password expires soon: change it now",
            "unlock-account": "unlock the account",
            "skip": "skip this step for now",
            "cancel": "cancel the sign-in",
            "consent": "grant the app the access it asks for",
            "granular-consent": "choose which access the app gets",
            "launch-authenticator": "open Okta Verify on this device",
            "device-challenge-poll": "wait for Okta Verify on this device",
            "enroll-authenticator-promotion": "set up a passkey now (--passkey), or skip it",
            "challenge-webauthn-autofillui-authenticator": "sign in with a passkey alone, no username (--passkey)",
            "launch-passkeys-authenticator": "sign in with a passkey alone, no username (--passkey)",
            "launch-webauthn-authenticator": "sign in with a security key or passkey",
            "enroll-webauthn-residentkey": "set up a passkey that signs in without a username",
            "device-assurance-grace-period": "the device falls short of the policy: continue within the grace period",
            // Screens of the sign-in widget's recordings (docs/idx-screens.md says which idflow stops at, and why).
            "cancel-transaction": "give up: the device's Okta Verify did not answer",
            "device-apple-sso-extension": "let Okta Verify's sign-in extension on macOS or iOS answer",
            "launch-nfc-authenticator": "hold the NFC authenticator to the phone",
            "piv-idp": "sign in with a smart card (in a browser)",
            "success-redirect": "go on to the app (in a browser)",
            "failure-redirect": "see why the sign-in failed (in a browser)",
            "user-code": "enter the code a device shows, to let it sign in",
            "keep-me-signed-in": "choose whether to stay signed in",
            "request-activation-email": "send a new activation e-mail",
            "admin-consent": "grant the app the admin access it asks for",
            "email-challenge-consent": "allow the sign-in that the e-mailed link started elsewhere",
            "reenroll-custom-password-expiry": "the password has expired: choose a new one",
            "reenroll-custom-password-expiry-warning": "the password expires soon: change it now",
        ]
    }
}
