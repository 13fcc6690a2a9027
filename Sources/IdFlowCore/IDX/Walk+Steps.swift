import Foundation
import IdFlowFoundation

extension IDX {
    /// What the loop does with a document (idx.md §10).
    enum NextStep {
        /// Send this form, filled.
        case send(Remediation, FilledForm)
        /// Wait the form's `refresh`, then send it (an out-of-band answer is awaited, §8).
        case poll(Remediation)
        /// Go on at another identity provider in a browser (`redirect-idp`, §7).
        case redirect(Remediation)
        /// At a terminal: fill the form (or choose one of several) at prompts.
        case ask([Remediation])
        /// In a script: stop with the form that needs answers (exit 3).
        case stop(PendingForm)
    }
}

extension IDX.Walk {
    /// The step to take (idx.md §10): the form asked for by name; else the first an explicit answer covers;
    /// else a poll (the server waits for something done elsewhere); else the server's first form when a single
    /// choice fills it on its own; else, at a terminal, prompts (a numbered choice when several forms are offered, `redirect-idp`
    /// among them); else `redirect-idp` when it is all there is; else the pending form for the script.
    func nextStep(_ document: IDX.Document) throws(IdFlowError) -> IDX.NextStep {
        guard !document.remediations.isEmpty else { throw endOfDocument(document) }
        if let wanted {
            guard let form = document.form(named: wanted) else {
                let offered = document.remediations.map(\.name) + document.capabilities.map(\.name)
                throw .rejected(
                    "the Identity Engine does not offer \(wanted) at this step", hint: "offered: \(offered.joined(separator: ", "))")
            }
            if form.refresh != nil { return .poll(form) }
            if form.method.uppercased() == "GET" { return .redirect(form) }
            return decide(form, form.fill(answers, in: document), document)
        }
        let offered = document.remediations.filter { $0.method.uppercased() == "POST" }
        let forms = offered.filter { $0.refresh == nil }
        let filled = forms.map { ($0, $0.fill(answers, in: document)) }
        if let (form, fill) = filled.first(where: { $0.1.isComplete && !$0.1.used.isEmpty }) { return .send(form, fill) }
        if let poll = offered.first(where: { $0.refresh != nil }) { return .poll(poll) }
        // Only the server's first form: a later one filled by its single choice is the way back to the choice just
        // made (`select-authenticator-enroll` beside the phone's `enroll-authenticator`, as recorded), not a way on.
        if let (form, fill) = filled.first, fill.isComplete, fill.tookInput { return .send(form, fill) }
        let elsewhere = document.remediations.filter { $0.method.uppercased() == "GET" && $0.name == "redirect-idp" }
        guard let first = forms.first else {
            if let redirect = elsewhere.first { return .redirect(redirect) }
            throw onlyUnsupported(document)
        }
        if atTerminal { return .ask(forms + elsewhere) }
        return .stop(pending(first, first.fill(answers, in: document), document))
    }

    private func decide(_ form: IDX.Remediation, _ filled: IDX.FilledForm, _ document: IDX.Document) -> IDX.NextStep {
        if filled.isComplete { return .send(form, filled) }
        return atTerminal ? .ask([form]) : .stop(pending(form, filled, document))
    }

    func pending(_ form: IDX.Remediation, _ filled: IDX.FilledForm, _ document: IDX.Document) -> IDX.PendingForm {
        var hint: String?
        if form.name == "enroll-authenticator", document.resolve("$.currentAuthenticator")?["contextualData"]?["sharedSecret"] != nil {
            hint =
                "this form enrolls an authenticator app whose seed is not printed: add --totp-secret-file FILE to keep the seed "
                + "and answer with its code, or run at a terminal to scan the QR code"
        }
        return IDX.PendingForm(transaction: nil, remediation: form.name, fields: filled.inputs, messages: document.messages, hint: hint)
    }

    /// The answers still unspent that cannot be meant for any form of this sign-in, with the fields offered now:
    /// a mistyped name (`identifer`) would otherwise be ignored in silence while the flow asks for the field it
    /// meant. Checked only where the flow needs input it was not given. An answer that fills no field offered
    /// here may still be for a later form (the password given before the identifier was asked), so it counts
    /// only when it reads as a misspelling of a field offered here, or is no name the Identity Engine uses.
    func strayAnswers(in document: IDX.Document) -> (answers: [String], fields: [String]) {
        let forms = document.remediations.filter { $0.method.uppercased() == "POST" }
        var fields: [String] = []
        for name in forms.flatMap({ $0.fill(IDX.AnswerSet(), in: document).inputs.map(\.name) }) where !fields.contains(name) {
            fields.append(name)
        }
        // A nested field's parents count too (`authenticator` for `authenticator.methodType`).
        var offered = Set<String>()
        for field in fields {
            let parts = field.split(separator: ".")
            for end in parts.indices { offered.insert(parts[...end].joined(separator: ".")) }
            // A field inside another may be answered by its own name (`methodType=voice`).
            if let last = parts.last { offered.insert(String(last)) }
        }
        let stray = answers.names.filter { scoped in
            // A scoped answer (`google_otp:credentials.passcode`) is judged by its field; its form may come later.
            let name = IDX.AnswerSet.field(of: scoped)
            guard !offered.contains(name) else { return false }
            return Suggestion.closest(to: name, among: fields) != nil || !IDX.AnswerSet.isIdentityEngineFieldName(name)
        }
        return (stray.sorted(), fields)
    }

    /// The error for answers that fill no field where the flow stopped for input, naming the fields they could
    /// have been.
    func strayAnswerError(_ stray: [String], fields: [String], at remediation: String) -> IdFlowError {
        let guesses = stray.map { name in "\(name)\(Suggestion.didYouMean(name, among: fields))" }
        return .invalidInput(
            "--answer \(guesses.joined(separator: ", ")) matches no field of \(remediation), the form the sign-in reached",
            hint: "its fields: \(fields.joined(separator: ", ")); correct the name and run again")
    }

    /// A form the server sent back with an ERROR (idx.md §5.4): bad credentials exit 4, anything else
    /// (validation) exit 3, with the server's own words. `resume`: the kept transaction the corrected answer
    /// goes to.
    func refuseErrors(_ document: IDX.Document, after form: IDX.Remediation, resume: String? = nil) throws(IdFlowError) {
        guard let error = document.errors.first else { return }
        let credentials: Set<String> = ["errors.E0000004", "api.authn.error.PASSCODE_INVALID", "incorrectPassword"]
        let command = login.signUp ? "register" : "login-pkce"
        let hint =
            resume.map {
                "the sign-in is kept: correct the answers for \(form.name) and run "
                    + "`idflow \(command) --embedded --resume \(ShellWord.quote($0)) --answer …` (the server allows a few tries)"
            } ?? "correct the answers for \(form.name) and run again"
        if let key = error.key, credentials.contains(key) { throw .authentication(error.message, hint: hint) }
        if document.remediations.isEmpty { throw .authentication(error.message, hint: "start the sign-in again") }
        throw .rejected(error.message, hint: hint)
    }
}
