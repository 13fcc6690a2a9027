import Foundation
import IdFlowFoundation

/// Consent (`consent`, `granular-consent`, `admin-consent`): the app asks the person to let it have scopes. Granting
/// access is the person's decision, never a runbook's silent default: `--consent` grants it, a person at a terminal
/// is asked (y/n) with the scopes shown, and a script without `--consent` stops (exit 8) naming the flag. Refusing
/// is sent as `consent: false`, which ends the sign-in on the server as Okta does ("Operation cancelled by user."),
/// and the run exits 8.
extension IDX.Walk {
    /// The consent forms Okta sends, as the widget's recordings name them.
    static let consentForms: Set<String> = ["consent", "granular-consent", "admin-consent"]

    /// The consent form of `document` answered (granted, or refused by the person), or nil when there is none:
    /// `--answer consent=true|false` first, then `--consent`, then the person at a terminal.
    mutating func consentAnswer(_ document: IDX.Document) throws(IdFlowError) -> (form: IDX.Remediation, granted: Bool)? {
        guard let form = document.remediations.first(where: { Self.consentForms.contains($0.name) }) else { return nil }
        if let given = answers["consent"] {
            guard let granted = IDX.FormPrompter.yesOrNo(given) else {
                throw .invalidInput("--answer consent=\(given) is neither a yes nor a no", hint: "give consent=true or consent=false")
            }
            answers.spend(["consent"])
            return (form, granted)
        }
        if login.consent { return (form, true) }
        let scopes = document.consentScopes(form)
        let app = document.resolve("$.app.value.label")?.stringValue ?? "The app"
        let asked = scopes.isEmpty ? "access to your account" : scopes.joined(separator: ", ")
        guard atTerminal else {
            throw .denied(
                "\(app) asks for consent (\(form.name)) to: \(asked); a script does not grant it unasked",
                hint: "add --consent to grant it, or sign in once at a terminal")
        }
        context.console.line("\(app) asks for access (\(form.name)):")
        for line in document.consentScopeLines(form) { context.console.line("  \(line)") }
        let granted = try prompter.askYesOrNo(
            "Allow access? (y/n): ", unanswered: .rejected("consent was not answered", hint: "answer y or n, or give --consent"))
        return (form, granted)
    }

    /// Sends the consent answer; a refusal ends the sign-in (exit 8) once the server has been told.
    func sendConsent(_ consent: (form: IDX.Remediation, granted: Bool), in document: IDX.Document) async throws(IdFlowError) -> IDX.Document
    {
        var answers = IDX.AnswerSet()
        answers.answer("consent", with: consent.granted ? "true" : "false")
        var body = consent.form.fill(answers, in: document).body
        // `granular-consent` hides its `consent` field (`visible: false`), so filling leaves it out.
        body["consent"] = .bool(consent.granted)
        context.message("idx: \(consent.form.name): \(consent.granted ? "granted" : "refused")")
        let next = try await proceed(consent.form, body: body)
        guard consent.granted else {
            let said = next.errors.first?.message ?? next.messages.first?.message
            throw .denied("consent was refused\(said.map { ": \($0)" } ?? ""); the sign-in ended", hint: "sign in again and allow access")
        }
        return next
    }
}

extension IDX.Document {
    /// The scopes a consent form asks for: `scopes[].name` (`consent`, `admin-consent`), or the names of
    /// `optedScopes`' fields (`granular-consent`).
    func consentScopes(_ form: IDX.Remediation) -> [String] {
        consentScopeEntries(form).map(\.name)
    }

    /// One line per scope asked for: its name and the label Okta shows.
    func consentScopeLines(_ form: IDX.Remediation) -> [String] {
        consentScopeEntries(form).map { entry in entry.label.map { "\(entry.name): \($0)" } ?? entry.name }
    }

    private func consentScopeEntries(_ form: IDX.Remediation) -> [(name: String, label: String?)] {
        let listed = remediationJSON(named: form.name)?["scopes"]?.arrayValue ?? []
        if !listed.isEmpty {
            return listed.compactMap { scope in
                scope["name"]?.stringValue.map { ($0, scope["label"]?.stringValue) }
            }
        }
        let opted = form.fields.first { $0.name == "optedScopes" }?.form ?? []
        return opted.compactMap { field in field.name.map { ($0, field.label) } }
    }

    /// The remediation's JSON as sent, for members the form model does not keep (`scopes`).
    func remediationJSON(named name: String) -> JSONValue? {
        (resolve("$.remediation.value")?.arrayValue ?? []).first { $0["name"]?.stringValue == name }
    }
}
