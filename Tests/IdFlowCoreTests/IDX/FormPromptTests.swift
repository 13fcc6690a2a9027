import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// What a person at a terminal is shown for every form in the recorded Identity Engine answers
/// (Tests/Fixtures/okta-idx), and what each form sends once every field is answered (idx.md §4).
/// The snapshots are under `Tests/IdFlowCoreTests/Snapshots/idx-prompts`; `RECORD_SNAPSHOTS=1` rewrites them.
struct FormPromptTests {
    static let snapshots = SnapshotDirectory(
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Snapshots/idx-prompts", isDirectory: true))

    /// Every visible field answered: text fields with a placeholder naming the field, choices with their last
    /// option (so a nested form is reached where there is one), booleans yes.
    static func answerEverything(_ form: IDX.Remediation, in document: IDX.Document) -> IDX.AnswerSet {
        var answers = IDX.AnswerSet()
        var answered: Set<String> = []
        while let field = form.fill(answers, in: document).inputs.first(where: { !answered.contains($0.name) }) {
            answered.insert(field.name)
            if let options = field.options {
                answers.answer(field.name, with: options.last ?? "")
            } else if field.name == "credentials.passcode", let authenticator = document.authenticatorName(of: form) {
                // As a person at the prompt answers it: the code of this form's authenticator, not the password.
                answers.answer("\(authenticator):\(field.name)", with: "<\(field.name)>")
            } else {
                answers.answer(field.name, with: field.isBoolean ? "true" : "<\(field.name)>")
            }
        }
        return answers
    }

    static func body(_ filled: IDX.FilledForm) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(JSONValue.object(filled.body)), as: UTF8.self)
    }

    @Test(arguments: try Fixtures.files(in: "okta-idx").filter { $0.hasSuffix(".json") })
    func everyFormIsShownAndSentAsTheRecordingAsks(file: String) throws {
        guard let document = try? IDX.Document(data: Fixtures.data("okta-idx/\(file)")),
            !document.remediations.isEmpty || document.successWithInteractionCode != nil
        else { return }
        var text: [String] = []
        for form in document.remediations + document.capabilities {
            text.append("== \(form.name) \(form.method) \(form.href.path)\(form.refresh.map { " refresh \($0) ms" } ?? "")")
            text.append(IDX.FormPrompter.render(form, in: document))
            let filled = form.fill(Self.answerEverything(form, in: document), in: document)
            text.append("-> \(try Self.body(filled))\(filled.isComplete ? "" : " (incomplete)")")
            text.append("")
        }
        let name = file.replacingOccurrences(of: ".json", with: ".txt")
        if let mismatch = try Self.snapshots.mismatch(text.joined(separator: "\n"), named: name) {
            Issue.record(Comment(rawValue: mismatch))
        }
    }

    @Test func aSecretFieldIsMarkedHiddenAndAChoiceIsNumbered() throws {
        let password = try IDX.Document(data: Fixtures.data("okta-idx/03-challenge-authenticator-password.json"))
        let prompt = IDX.FormPrompter.render(try #require(password.remediations.first), in: password)
        #expect(prompt.contains("Password (required, hidden): "))
        let select = try IDX.Document(data: Fixtures.data("okta-idx/select-authenticator-authenticate.json"))
        let menu = IDX.FormPrompter.render(try #require(select.remediations.first), in: select)
        #expect(menu.contains("  1) "), "options are numbered: \(menu)")
        #expect(menu.contains("[1-"))
    }

    @Test func anEnumProfileAttributeIsAChoiceOfItsValues() throws {
        let document = try IDX.Document(data: Fixtures.data("okta-idx/enroll-profile.json"))
        let form = try #require(document.remediations.first { $0.name == "enroll-profile" })
        let answers = IDX.AnswerSet([
            "userProfile.firstName": "A", "userProfile.lastName": "B", "userProfile.email": "a@b.example", "userProfile.enumAttr": "false",
        ])
        let filled = form.fill(answers, in: document)
        #expect(filled.body["userProfile"]?["enumAttr"] == "false")
        #expect(filled.inputs.first { $0.name == "userProfile.enumAttr" }?.options == ["true", "false"])
    }

    @Test func theCurrentAuthenticatorsResendAndPollAreForms() throws {
        let email = try IDX.Document(data: Fixtures.data("okta-idx/challenge-email-with-poll-and-resend.json"))
        #expect(email.capabilities.map(\.name) == ["resend", "poll"])
        #expect(email.capabilities.first { $0.name == "poll" }?.refresh == 500)
        let push = try IDX.Document(data: Fixtures.data("okta-idx/okta-verify-push-challenge-poll.json"))
        #expect(push.capabilities.map(\.name) == ["resend"])
        #expect(push.correctAnswer != nil, "number matching shows the number to pick")
        #expect(push.remediations.first { $0.name == "challenge-poll" }?.refresh == 4000)
    }
}
