import Foundation
import IdFlowFoundation

extension IDX.Walk {
    /// Waits the form's `refresh` (milliseconds, idx.md §8) and sends it: the server answers with the same
    /// waiting document until the push is answered elsewhere (`idflow resolve`), then with the next step.
    /// Progress goes to stderr; the whole wait is bounded by `--mfa-timeout` (exit 9, the sign-in cancelled).
    mutating func waitAndPoll(_ form: IDX.Remediation, in document: IDX.Document) async throws(IdFlowError) -> IDX.Document {
        let what = document.authenticatorName(of: form) ?? "the authenticator"
        var clock = poll ?? startWaiting(for: what, form, in: document)
        let resumed = try await clock.wait(Duration.milliseconds(max(form.refresh ?? 4000, 100)))
        poll = clock
        guard resumed else {
            // The number is part of the error too, so a script's JSON line says what was waiting to be picked.
            let number = document.correctAnswer.map { " (number challenge: \($0))" } ?? ""
            throw .timedOut(
                "\(what)\(number) was not answered within \(Int(login.pollTimeout.inSeconds)) s", hint: PushChallenge.unansweredHint)
        }
        context.message("idx: waiting for \(what)… \(Int(clock.elapsed.inSeconds)) s")
        let next = try await proceed(form, body: form.fill(IDX.AnswerSet(), in: document).body)
        if let error = next.errors.first, !next.remediations.isEmpty, !next.offersPoll { throw Self.pollFailure(error, what: what) }
        return next
    }

    /// The first poll of the sign-in starts the clock every later one counts against, and says what it waits for.
    private func startWaiting(for what: String, _ form: IDX.Remediation, in document: IDX.Document) -> PollingClock {
        context.message(
            "idx: \(form.name): waiting up to \(Int(login.pollTimeout.inSeconds)) s for \(what) to be answered, "
                + "e.g. with `idflow resolve --next --approve`")
        if let number = document.correctAnswer {
            // The one thing the person must act on: set apart so it is seen among the progress lines.
            context.notice("idx: \(what) asks for the number \(number); pick it where the push is answered:")
            context.notice("")
            context.notice("        \(number)")
            context.notice("")
            context.notice("idx: e.g. `idflow resolve --next --approve --number \(ShellWord.quote(number))`")
        }
        return PollingClock(context, limit: login.pollTimeout)
    }

    /// A wait that ended in an ERROR: a refused push exits 8, an expired one 9, anything else 4.
    static func pollFailure(_ error: IDX.Message, what: String) -> IdFlowError {
        let words = ((error.key ?? "") + " " + error.message).lowercased()
        if ["reject", "denied", "declin"].contains(where: words.contains) {
            return .denied(error.message, hint: "the sign-in was refused on \(what)")
        }
        if ["expired", "timeout", "time_window", "timed out"].contains(where: words.contains) {
            return .timedOut(error.message, hint: PushChallenge.expiredHint)
        }
        return .authentication(error.message, hint: "start the sign-in again")
    }
}

extension IDX.Document {
    /// Whether the document still waits for something done elsewhere (a remediation that carries `refresh`).
    var offersPoll: Bool { remediations.contains { $0.refresh != nil } }
}
