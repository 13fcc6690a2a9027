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
            "With --embedded: name=value (=@FILE, =@-); repeatable.",
            valueName: "name=value"))
    var answers: [String] = []

    @Option(
        help: ArgumentHelp(
            "With --embedded: continue a stopped sign-in.", valueName: "transaction"),
        completion: .idxTransactions)
    var resume: String?

    @Option(
        help: ArgumentHelp(
            "With --embedded: take this remediation once (resend).",
            valueName: "name"))
    var remediation: String?

    @Option(
        name: .customLong("totp-secret-file"),
        help: ArgumentHelp(
            "With --embedded: keep an enrolled TOTP seed (0600).",
            valueName: "file"),
        completion: .file())
    var totpSecretFile: String?

    @Flag(name: .customLong("enroll-now"), help: "With --embedded: enroll, not skip, in a grace period.")
    var enrollNow = false

    @Flag(help: "With --embedded: grant the consent the app asks for.")
    var consent = false

    /// Whether any embedded-only option was given.
    var given: Bool { !answers.isEmpty || resume != nil || remediation != nil || totpSecretFile != nil || enrollNow || consent }

    /// The embedded flow these options describe.
    func login(
        _ context: IdFlowContext, clientSecret: ClientSecretOption, store: Bool, signUp: Bool, pollTimeout: Duration = .seconds(300)
    ) throws(IdFlowError) -> EmbeddedLogin {
        var login = EmbeddedLogin(
            answers: try IDX.AnswerSet.parse(answers, reader: context.secrets), remediation: remediation,
            clientSecret: try clientSecret.secret(context), store: store, signUp: signUp, resume: resume, pollTimeout: pollTimeout,
            totpSecretFile: totpSecretFile.map { TOTPSeedFile(URL(fileURLWithPath: $0)) })
        login.enrollNow = enrollNow
        login.consent = consent
        return login
    }
}
