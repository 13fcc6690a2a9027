import ArgumentParser
import IdFlowCore

/// The answers of an embedded (Identity Engine) sign-in or sign-up, one form field each.
struct AnswerOptions: ParsableArguments {
    @Option(
        name: .customLong("answer"),
        help: ArgumentHelp(
            "With --embedded: the answer for one field, name=value, name=@FILE or name=@- (stdin); repeatable.",
            valueName: "name=value"))
    var answers: [String] = []

    var given: Bool { !answers.isEmpty }

    func read(_ context: IdFlowContext) throws(IdFlowError) -> IDX.AnswerSet {
        try IDX.AnswerSet.parse(answers, reader: context.secrets)
    }
}
