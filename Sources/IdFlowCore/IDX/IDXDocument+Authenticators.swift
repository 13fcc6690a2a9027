import Foundation

extension IDX.Document {
    /// The authenticator being verified or enrolled (idx.md §5.3): `currentAuthenticatorEnrollment` in older
    /// documents, `currentAuthenticator` in newer ones.
    public var currentAuthenticator: JSONValue? {
        resolve("$.currentAuthenticatorEnrollment") ?? resolve("$.currentAuthenticator")
    }

    /// The forms the current authenticator carries (`send`, `resend`, `poll`, `recover`): posted like any
    /// remediation, so `--remediation resend` asks for another e-mailed code.
    public var capabilities: [IDX.Remediation] {
        var forms: [IDX.Remediation] = []
        for path in ["$.currentAuthenticatorEnrollment", "$.currentAuthenticator"] {
            guard let authenticator = resolve(path) else { continue }
            for name in ["send", "resend", "poll", "recover"] where !forms.contains(where: { $0.name == name }) {
                if let form = authenticator[name], let parsed = try? IDX.Remediation(json: form) { forms.append(parsed) }
            }
        }
        return forms
    }

    /// The number Okta Verify asks the person to pick (number matching), shown while the push waits.
    public var correctAnswer: String? {
        guard let answer = currentAuthenticator?["contextualData"]?["correctAnswer"] else { return nil }
        return answer.stringValue ?? answer.intValue.map(String.init)
    }

    /// The display name of the authenticator a form is about (its `relatesTo`), or of the identity provider a
    /// `redirect-idp` goes to, for prompts and progress.
    public func authenticatorName(of form: IDX.Remediation) -> String? {
        if let identityProvider = form.identityProvider { return identityProvider }
        for path in form.relatesTo {
            if let name = resolve(path)?["displayName"]?.stringValue { return name }
        }
        return nil
    }

    /// The form to take by name: a remediation, else a capability of the current authenticator.
    func form(named name: String) -> IDX.Remediation? {
        remediations.first { $0.name == name } ?? capabilities.first { $0.name == name }
    }
}
