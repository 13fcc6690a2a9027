import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation

/// How an embedded (Identity Engine) sign-in or sign-up is answered and continued: one `--answer` per form
/// field, the remediation to take by name, and the stopped transaction to resume.
struct AnswerOptions: ParsableArguments {
    @Option(
        name: .customLong("answer"),
        help: ArgumentHelp(
            "With --embedded: the answer for one field, name=value, name=@FILE or name=@- (stdin); repeatable.",
            valueName: "name=value"))
    var answers: [String] = []

    @Option(
        help: ArgumentHelp(
            "With --embedded: continue the sign-in a run stopped for a missing answer (its \"transaction\").", valueName: "transaction"),
        completion: .idxTransactions)
    var resume: String?

    @Option(
        help: ArgumentHelp(
            "With --embedded: take the remediation (or the authenticator's resend/poll) of this name once, instead of the first the answers cover.",
            valueName: "name"))
    var remediation: String?

    @Option(
        name: .customLong("totp-secret-file"),
        help: ArgumentHelp(
            "With --embedded: keep an authenticator app's seed in this new file (0600) when the flow enrolls one, and answer TOTP forms with codes computed from it.",
            valueName: "file"),
        completion: .file())
    var totpSecretFile: String?

    /// Whether any embedded-only option was given.
    var given: Bool { !answers.isEmpty || resume != nil || remediation != nil || totpSecretFile != nil }

    /// The embedded flow these options describe.
    func login(
        _ context: IdFlowContext, clientSecret: ClientSecretOption, store: Bool, signUp: Bool, pollTimeout: Duration = .seconds(300)
    ) throws(IdFlowError) -> EmbeddedLogin {
        EmbeddedLogin(
            answers: try IDX.AnswerSet.parse(answers, reader: context.secrets), remediation: remediation,
            clientSecret: try clientSecret.secret(context), store: store, signUp: signUp, resume: resume, pollTimeout: pollTimeout,
            totpSecretFile: totpSecretFile.map { TOTPSeedFile(URL(fileURLWithPath: $0)) })
    }
}
