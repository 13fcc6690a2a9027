import Foundation
import IdFlowFoundation

/// Okta Verify's methods (`methodType`): one authenticator, `okta_verify`, offers a push, a code (`totp`) and Okta
/// FastPass (`signed_nonce`). A push and a code are what idflow can answer: the method the answers name is taken,
/// else a push (what a person would pick), else the code. FastPass proves the device with a key only Okta Verify on
/// it holds, so it is refused by name, with the way that works (the browser, where Okta Verify answers it).
extension IDX.Walk {
    /// The methods of Okta Verify idflow cannot take.
    static let fastPassMethod = "signed_nonce"

    /// Fills Okta Verify's `methodType` where Okta Verify is the authenticator chosen and no answer names a method;
    /// refuses FastPass where it is the method named or the only one left. A method is filled in only on the form the
    /// server asks for now (the first): a choice offered beside a challenge under way is the way back to another
    /// factor, and filling it would send a new push instead of answering the one waiting.
    mutating func chooseOktaVerifyMethod(_ document: IDX.Document) throws(IdFlowError) {
        try refuseFastPassChallenge(document)
        let named = answers.lookup("authenticator.methodType")?.value
        for (index, form) in document.remediations.enumerated() where form.method.uppercased() == "POST" && form.refresh == nil {
            guard let methods = oktaVerifyMethods(chosenIn: form, document) else { continue }
            if let named {
                if named.caseInsensitiveCompare(Self.fastPassMethod) == .orderedSame { throw Self.fastPassRefusal(at: form.name) }
                return
            }
            guard index == 0 else { return }
            if let method = ["push", "totp"].first(where: methods.contains) {
                fill("authenticator.methodType", with: method)
                context.message("idx: \(form.name): Okta Verify by \(method == "push" ? "push" : "code (totp)")")
            } else if methods.contains(Self.fastPassMethod) {
                throw Self.fastPassRefusal(at: form.name)
            }
            return
        }
    }

    /// The methods Okta Verify offers in `form`, when the form chooses Okta Verify: a choice among authenticators
    /// where the answers name it (or it is the only one), or Okta Verify's own choice of method.
    private func oktaVerifyMethods(chosenIn form: IDX.Remediation, _ document: IDX.Document) -> [String]? {
        guard let field = form.fields.first(where: { $0.name == "authenticator" }) else { return nil }
        switch form.name {
        case "select-authenticator-authenticate":
            let options = field.options ?? []
            guard let verify = options.first(where: { $0.matches("okta_verify", in: document) }) else { return nil }
            let chosen = answers.lookup("authenticator").map { verify.matches($0.value, in: document) } ?? (options.count == 1)
            return chosen ? verify.methods : nil
        case "authenticator-verification-data":
            guard document.authenticator(of: form)?.isNamed("okta_verify") == true else { return nil }
            return (field.form ?? []).first { $0.name == "methodType" }?.offeredValues ?? []
        default:
            return nil
        }
    }

    /// A challenge already sent to Okta FastPass (`currentAuthenticator.methods` signed_nonce, waiting with
    /// `challenge-poll`) can only be answered by Okta Verify on this device: refused instead of polled to its end.
    private func refuseFastPassChallenge(_ document: IDX.Document) throws(IdFlowError) {
        guard let poll = document.remediations.first(where: { $0.refresh != nil }),
            let current = document.currentAuthenticator, current["key"]?.stringValue == "okta_verify",
            let methods = current["methods"]?.arrayValue?.compactMap({ $0["type"]?.stringValue }),
            methods == [Self.fastPassMethod]
        else { return }
        throw Self.fastPassRefusal(at: poll.name)
    }

    static func fastPassRefusal(at remediation: String) -> IdFlowError {
        .rejected(
            "\(remediation): Okta Verify's FastPass (methodType signed_nonce) needs Okta Verify on this device, which idflow cannot answer for",
            hint: "choose another method (--answer authenticator.methodType=push or =totp), or sign in with login-pkce --browser")
    }
}

extension IDX.Option {
    /// The `methodType` values this authenticator choice offers, fixed or among its options.
    var methods: [String] { form?.first(where: { $0.name == "methodType" })?.offeredValues ?? [] }
}

extension IDX.Field {
    /// The values this field offers: its fixed value, then each option's.
    var offeredValues: [String] { [value?.stringValue].compactMap { $0 } + (options ?? []).compactMap { $0.value?.stringValue } }
}
