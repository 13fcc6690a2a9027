import Foundation
import IdFlowFoundation

/// Which authenticator an answer is for (`AnswerSet`): the password's `credentials.passcode` must never reach
/// another authenticator's code form, and where the person would choose which authenticator comes first, the
/// password does.
extension IDX.Walk {
    /// The forms where a person chooses the next authenticator to enroll or verify.
    static let authenticatorChoices: Set<String> = ["select-authenticator-enroll", "select-authenticator-authenticate"]

    /// Where the script left the choice open and the password is among it, the password is chosen when the answers
    /// hold it, as a person would: it is known up front, while a code has to be sent, read or computed first. Then
    /// no choice made for an authenticator app (`--totp-secret-file`) is answered with the password.
    mutating func choosePasswordFirst(_ document: IDX.Document) {
        guard answers.lookup("authenticator") == nil, answers.lookup("credentials.passcode", for: .password) != nil else { return }
        for form in document.remediations where Self.authenticatorChoices.contains(form.name) {
            let options = form.fields.first { $0.name == "authenticator" }?.options ?? []
            guard options.count > 1, options.contains(where: { $0.matches("okta_password", in: document) }) else { continue }
            fill("authenticator", with: "okta_password")
            return
        }
    }

    /// A resumed run answers the form its stop asked for: an unscoped code (`--resume TX --answer
    /// credentials.passcode=@-` after an e-mailed code) is meant for the authenticator whose code form the
    /// document still shows, when that is one authenticator and not the password.
    mutating func scopeResumedAnswers(_ document: IDX.Document) {
        let asking = document.remediations.filter { form in
            form.fill(IDX.AnswerSet(), in: document).inputs.contains { IDX.AnswerSet.sharedFields.contains($0.name) }
        }
        let authenticators = asking.map { document.authenticator(of: $0) }
        guard let first = authenticators.first, let authenticator = first, authenticators.allSatisfy({ $0 == first }) else { return }
        answers.scopeShared(to: authenticator)
    }
}
