import Foundation
import IdFlowFoundation

extension IDX {
    /// One field a script still has to answer, as the pending-form document lists it.
    public struct PendingField: Sendable, Equatable, Encodable {
        public var name: String
        @NullWhenAbsent public var label: String?
        public var required: Bool
        public var secret: Bool
        /// The labels of the choices, for a field with options.
        @NullWhenAbsent public var options: [String]?
        /// A yes/no field (`type: boolean`), asked as one at a terminal; not part of the printed form.
        public var isBoolean: Bool

        public init(name: String, label: String?, required: Bool, secret: Bool, options: [String]? = nil, isBoolean: Bool = false) {
            self.name = name
            self.label = label
            self.required = required
            self.secret = secret
            self.options = options
            self.isBoolean = isBoolean
        }

        /// A choice with one option is taken as it is, never asked.
        var isTakenAsIs: Bool { options?.count == 1 }

        enum CodingKeys: String, CodingKey { case name, label, required, secret, options }
    }

    /// A form filled from the answers (idx.md §4): the body to send, which answers it spent, and what is
    /// still missing.
    public struct FilledForm: Sendable, Equatable {
        public var body: [String: JSONValue]
        public var used: Set<String>
        /// Required fields nobody answered; the form cannot be sent while any remain.
        public var missing: [PendingField]
        /// Every field a person would fill in, answered or not (for the pending-form document).
        public var inputs: [PendingField]
        /// Whether any visible field got a value (an answer, or the only choice of a required field).
        public var tookInput: Bool

        public var isComplete: Bool { missing.isEmpty }
    }
}

extension IDX.Remediation {
    /// Fills this form from `answers`: immutable values copied through, nested forms as objects, a choice by
    /// its label, value, authenticator key or method type (a choice with one option is taken as it is), boolean fields from `true`/`false`. Fields without a value are left out.
    /// Answers scoped to another authenticator than this form's are not its (`AnswerSet`).
    public func fill(_ answers: IDX.AnswerSet, in document: IDX.Document) -> IDX.FilledForm {
        var filled = IDX.FilledForm(body: [:], used: [], missing: [], inputs: [], tookInput: false)
        let answers = Answers(set: answers, authenticator: document.authenticator(of: self))
        filled.body = Self.fill(fields, prefix: "", answers: answers, document: document, into: &filled)
        return filled
    }

    /// The answers as this form sees them: those for the authenticator it is about.
    fileprivate struct Answers {
        let set: IDX.AnswerSet
        let authenticator: IDX.FormAuthenticator?

        func lookup(_ path: String) -> (name: String, value: String)? { set.lookup(path, for: authenticator) }
    }

    /// `parentRequired`: a required object (`credentials`) whose own fields are all marked optional needs them
    /// all, as a required `credentials` with one `passcode` needs the passcode.
    private static func fill(
        _ fields: [IDX.Field], prefix: String, answers: Answers, document: IDX.Document, into filled: inout IDX.FilledForm,
        parentRequired: Bool = false
    ) -> [String: JSONValue] {
        var body: [String: JSONValue] = [:]
        let inheritRequired = parentRequired && !fields.contains { $0.required && $0.isInput }
        for var field in fields {
            if inheritRequired { field.required = true }
            guard let name = field.name else { continue }
            let path = prefix + name
            guard field.isInput else {
                if let value = field.value { body[name] = value }
                continue
            }
            if let form = field.form {
                let nested = fill(
                    form, prefix: path + ".", answers: answers, document: document, into: &filled, parentRequired: field.required)
                if !nested.isEmpty { body[name] = .object(nested) }
                continue
            }
            let pending = IDX.PendingField(
                name: path, label: field.label, required: field.required, secret: field.secret,
                options: field.options.map { $0.enumerated().map { index, option in option.label ?? "option \(index + 1)" } },
                isBoolean: field.type == "boolean")
            filled.inputs.append(pending)
            if let options = field.options {
                var chosen: IDX.Option?
                if let answer = answers.lookup(path) {
                    chosen = options.first { $0.matches(answer.value, in: document) }
                    if chosen != nil { filled.used.insert(answer.name) }
                } else if options.count == 1 {
                    // Okta leaves the authenticator choice unmarked though the form means nothing without it.
                    chosen = options[0]
                } else if name != "authenticator" {
                    // Not for authenticators: answers for one (a phone number) must not pick it before another the
                    // password answer was meant for.
                    chosen = chosenByItsFields(options, path: path, answers: answers, document: document)
                }
                guard let chosen else {
                    if field.required { filled.missing.append(pending) }
                    continue
                }
                filled.tookInput = true
                if let form = chosen.form {
                    body[name] = .object(fill(form, prefix: path + ".", answers: answers, document: document, into: &filled))
                } else if let value = chosen.value {
                    body[name] = value
                }
            } else if let answer = answers.lookup(path) {
                filled.used.insert(answer.name)
                filled.tookInput = true
                body[name] =
                    field.type == "boolean" ? .bool(["true", "yes", "1", "on"].contains(answer.value.lowercased())) : .string(answer.value)
            } else if let value = field.value {
                body[name] = value
            } else if field.required {
                filled.missing.append(pending)
            }
        }
        return body
    }
}

extension IDX.Remediation {
    /// The option whose own fields the answers fill, when the choice itself was not answered: the security
    /// question's "Create my own" is meant by `credentials.question`, the predefined one by a `credentials.questionKey`
    /// among its keys. Only an option whose required fields are all answered counts, and only when it is the one.
    fileprivate static func chosenByItsFields(
        _ options: [IDX.Option], path: String, answers: Answers, document: IDX.Document
    ) -> IDX.Option? {
        let complete = options.filter { option in
            guard let form = option.form else { return false }
            var probe = IDX.FilledForm(body: [:], used: [], missing: [], inputs: [], tookInput: false)
            _ = fill(form, prefix: path + ".", answers: answers, document: document, into: &probe, parentRequired: false)
            return probe.missing.isEmpty && !probe.used.isEmpty
        }
        return complete.count == 1 ? complete[0] : nil
    }
}

extension IDX.Option {
    /// Whether `answer` names this option: its label, its scalar value, the `id` or `methodType` it carries,
    /// or the `key`, `type` or name of the authenticator its `relatesTo` points at (case-insensitive).
    func matches(_ answer: String, in document: IDX.Document) -> Bool {
        var names: [String] = [label, value?.stringValue].compactMap { $0 }
        for field in form ?? [] where ["id", "methodType"].contains(field.name ?? "") {
            if let value = field.value?.stringValue { names.append(value) }
            for option in field.options ?? [] { if let value = option.value?.stringValue { names.append(value) } }
        }
        // The authenticator named by `relatesTo`, and the one whose id the option carries: an option about an
        // enrollment points at the enrollment, which has no `key`; its authenticator in `authenticators` has.
        let id = form?.first { $0.name == "id" }?.value?.stringValue
        let byID = (document.resolve("$.authenticators.value")?.arrayValue ?? []).filter { id != nil && $0["id"]?.stringValue == id }
        for authenticator in relatesTo.compactMap(document.resolve) + byID {
            names += [authenticator["key"], authenticator["type"], authenticator["displayName"]].compactMap { $0?.stringValue }
        }
        return names.contains { $0.caseInsensitiveCompare(answer) == .orderedSame }
    }
}
