import Foundation
import IdFlowFoundation

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

extension IDX {
    /// The authenticator a form is about, by every name an answer may scope itself with (`google_otp:credentials.passcode`):
    /// the same key, type, label and id an `authenticator=` answer chooses it by.
    struct FormAuthenticator: Sendable, Equatable {
        var names: [String]

        /// The password, as an answer scoped to it (`okta_password:…`) or unscoped would name it.
        static let password = FormAuthenticator(names: ["okta_password", "password"])

        func isNamed(_ name: String) -> Bool {
            names.contains { $0.caseInsensitiveCompare(name) == .orderedSame }
        }

        var isPassword: Bool { isNamed("okta_password") || isNamed("password") }

        /// The name a scoped answer idflow adds itself is stored under: the key where known.
        var scope: String { names.first ?? "" }
    }
}

extension IDX.Document {
    /// The authenticator `form` is about (its `relatesTo`): an enrollment's `key` may be missing, so the
    /// authenticator of the same id, or the only one of its type, in `authenticators` lends its key.
    func authenticator(of form: IDX.Remediation) -> IDX.FormAuthenticator? {
        guard let related = form.relatesTo.lazy.compactMap(resolve).first else { return nil }
        func names(_ value: JSONValue) -> [String] {
            ["key", "type", "displayName", "id"].compactMap { value[$0]?.stringValue }
        }
        var found = names(related)
        if related["key"] == nil {
            let listed = resolve("$.authenticators.value")?.arrayValue ?? []
            let sameType = listed.filter { $0["type"] != nil && $0["type"] == related["type"] }
            let sameID = listed.first { $0["id"] != nil && $0["id"] == related["id"] }
            let lender: JSONValue? = sameID ?? (sameType.count == 1 ? sameType.first : nil)
            if let key = lender?["key"]?.stringValue { found.insert(key, at: 0) }
        }
        return found.isEmpty ? nil : IDX.FormAuthenticator(names: found)
    }
}
