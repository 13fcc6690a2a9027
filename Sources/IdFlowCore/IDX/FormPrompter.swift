import Foundation
import IdFlowFoundation

extension IDX {
    /// A form's fields as prompts for a person at a terminal: the field's label, whether it is required,
    /// hidden input for secrets, numbered choices for options, yes/no for booleans. A script never sees
    /// these: without a terminal, a missing answer stops the run with the pending form instead.
    public struct FormPrompter: Sendable {
        public var console: Console
        /// An answer a required field cannot do without is asked for this many times before giving up.
        static let attempts = 3

        public init(console: Console) {
            self.console = console
        }

        /// A yes or a no as a person types it or an `--answer` gives it (y, yes, true, 1; n, no, false, 0); nil for
        /// anything else, which is asked again or refused rather than read as either.
        static func yesOrNo(_ text: String) -> Bool? {
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "y", "yes", "true", "1": true
            case "n", "no", "false", "0": false
            default: nil
            }
        }

        /// A yes/no question asked until it is answered, at most `attempts` times; `unanswered` after that.
        func askYesOrNo(_ prompt: String, unanswered: IdFlowError) throws(IdFlowError) -> Bool {
            for _ in 0..<Self.attempts {
                if let yes = Self.yesOrNo(try PromptInterruption.run { console.promptLine(prompt) } ?? "") { return yes }
                console.line("answer y or n")
            }
            throw unanswered
        }

        /// What a person is shown for one field: the numbered choices (if any), then the prompt.
        static func question(_ field: PendingField) -> (choices: [String], prompt: String) {
            let label = field.label ?? field.name
            var marks: [String] = []
            if field.required { marks.append("required") }
            if field.secret { marks.append("hidden") }
            let marked = marks.isEmpty ? label : "\(label) (\(marks.joined(separator: ", ")))"
            if let options = field.options {
                let choices = options.enumerated().map { index, option in "  \(index + 1)) \(option)" }
                return (choices, "\(marked) [1-\(options.count)]: ")
            }
            if field.isBoolean { return ([], "\(marked) [y/N]: ") }
            return ([], "\(marked): ")
        }

        /// Every line the form would show before its first answer, in order: the form's name (and the
        /// authenticator it is about), then each field a person fills in. Fields copied through as they are
        /// (the state handle, a required choice with one option) are not shown.
        public static func render(_ form: Remediation, in document: Document) -> String {
            var lines = [heading(form, in: document)]
            for field in form.fill(AnswerSet(), in: document).inputs where !field.isTakenAsIs {
                let question = question(field)
                lines += question.choices
                lines.append(question.prompt)
            }
            return lines.joined(separator: "\n")
        }

        /// The form's name (what `--remediation` takes), the authenticator it is about, then what it means.
        static func heading(_ form: Remediation, in document: Document) -> String {
            let named = document.authenticatorName(of: form).map { "\(form.name) (\($0))" } ?? form.name
            return RemediationMeaning.of(form.name).map { "\(named): \($0)" } ?? named
        }

        /// Asks which of several remediations to take; Enter takes the first, the server's preference.
        public func choose(_ forms: [Remediation], in document: Document) throws(IdFlowError) -> Remediation {
            console.line("The Identity Engine offers:")
            for (index, form) in forms.enumerated() { console.line("  \(index + 1)) \(Self.heading(form, in: document))") }
            for _ in 0..<Self.attempts {
                let typed = try PromptInterruption.run { console.promptLine("Choose [1-\(forms.count)] (Enter: 1): ") } ?? ""
                let text = typed.trimmingCharacters(in: .whitespaces)
                if text.isEmpty { return forms[0] }
                if let number = Int(text), forms.indices.contains(number - 1) { return forms[number - 1] }
                if let named = forms.first(where: { $0.name == text }) { return named }
                console.line("choose a number from 1 to \(forms.count)")
            }
            throw .rejected(
                "no remediation was chosen",
                hint: "choose one by number, or name it with --remediation (\(forms.map(\.name).joined(separator: ", ")))")
        }

        /// Asks for every field of `form` that `answers` leave open and returns the answers with them added.
        /// An optional field left empty is skipped; a choice's own fields are asked once it is chosen.
        public func fill(_ form: Remediation, in document: Document, answers: AnswerSet) throws(IdFlowError) -> AnswerSet {
            console.line(Self.heading(form, in: document))
            var answers = answers
            var asked: Set<String> = []
            // What is typed here answers this form's authenticator (a code, not the password given for later).
            let authenticator = document.authenticator(of: form)
            while let field = form.fill(answers, in: document).inputs.first(where: {
                answers.lookup($0.name, for: authenticator) == nil && !asked.contains($0.name) && !$0.isTakenAsIs
            }) {
                asked.insert(field.name)
                if let value = try ask(field) { answers.answer(field.name, with: value, for: authenticator) }
            }
            return answers
        }

        /// One field's answer: a choice by its number or label, yes/no for a boolean, the text otherwise;
        /// nil when an optional field is left empty.
        private func ask(_ field: PendingField) throws(IdFlowError) -> String? {
            let question = Self.question(field)
            for line in question.choices { console.line(line) }
            for _ in 0..<Self.attempts {
                let typed = try PromptInterruption.run {
                    field.secret ? console.promptSecret(question.prompt) : console.promptLine(question.prompt)
                }
                let text = field.secret ? (typed ?? "") : (typed ?? "").trimmingCharacters(in: .whitespaces)
                if text.isEmpty {
                    if !field.required { return nil }
                    console.line("\(field.label ?? field.name) is required")
                    continue
                }
                if let options = field.options {
                    if let number = Int(text), options.indices.contains(number - 1) { return options[number - 1] }
                    if let label = options.first(where: { $0.caseInsensitiveCompare(text) == .orderedSame }) { return label }
                    console.line("choose a number from 1 to \(options.count)")
                    continue
                }
                if field.isBoolean {
                    guard let yes = Self.yesOrNo(text) else {
                        console.line("answer y or n")
                        continue
                    }
                    return yes ? "true" : "false"
                }
                return text
            }
            throw .rejected(
                "\(field.label ?? field.name) was not answered", hint: "answer it at the prompt, or give it with --answer \(field.name)=…")
        }
    }
}
