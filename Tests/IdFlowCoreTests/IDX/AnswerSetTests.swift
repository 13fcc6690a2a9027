import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// Answers given on the command line: secrets warned about as `--password` is, and a value after `@` that is
/// not a file never printed back.
@Suite struct AnswerSetTests {
    func reader(_ warnings: Locked<[String]>, stdin: String = "") -> SecretReader {
        SecretReader(readStandardInput: { Data(stdin.utf8) }, environment: [:], warn: { line in warnings.withLock { $0.append(line) } })
    }

    @Test(arguments: ["credentials.passcode", "credentials.answer", "credentials.totp", "password"])
    func aSecretFieldAnsweredOnTheCommandLineIsWarnedAbout(field: String) throws {
        let warnings = Locked<[String]>([])
        let answers = try IDX.AnswerSet.parse(["\(field)=hunter2hunter2"], reader: reader(warnings))
        #expect(answers[field] == "hunter2hunter2")
        #expect(warnings.current.count == 1)
        #expect(warnings.current.first?.contains("visible to other users in `ps`") == true)
        #expect(warnings.current.first?.contains("\(field)=@-") == true)
        #expect(warnings.current.first?.contains("hunter2") == false)
    }

    @Test func plainFieldsAndSecretsFromStdinOrFilesAreNotWarnedAbout() throws {
        let warnings = Locked<[String]>([])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-answer-\(UUID().uuidString)")
        try "from-a-file\n".write(to: file, atomically: true, encoding: .utf8)
        let answers = try IDX.AnswerSet.parse(
            ["identifier=jo@example.com", "credentials.passcode=@-", "credentials.answer=@\(file.path)"],
            reader: reader(warnings, stdin: "from-stdin\n"))
        #expect(answers["credentials.passcode"] == "from-stdin")
        #expect(answers["credentials.answer"] == "from-a-file")
        #expect(warnings.current.isEmpty)
    }

    @Test func aValueAfterAtThatIsNoFileIsNeverEchoed() {
        let warnings = Locked<[String]>([])
        do {
            _ = try IDX.AnswerSet.parse(["credentials.passcode=@Sup3r-S3cret"], reader: reader(warnings))
            Issue.record("an unreadable @FILE was accepted")
        } catch {
            #expect(error.exitStatus == .usage)
            #expect(!error.message.contains("Sup3r-S3cret") && !(error.hint ?? "").contains("Sup3r-S3cret"))
            #expect(error.message.contains("credentials.passcode"))
        }
    }

    @Test func registrationDataOnTheCommandLineIsWarnedAboutAndAnUnreadableFileNotEchoed() throws {
        let warnings = Locked<[String]>([])
        #expect(try RegistrationData(argument: "K7Q2").read("data", reader(warnings)) == "K7Q2")
        #expect(warnings.current.count == 1)
        #expect(warnings.current.first?.contains("--data-stdin") == true)
        #expect(warnings.current.first?.contains("K7Q2") == false)
        // What a program passes (the demo) is no command line: no warning.
        #expect(try RegistrationData.text("K7Q2").read("data", reader(warnings)) == "K7Q2")
        #expect(warnings.current.count == 1)
        do {
            _ = try RegistrationData(argument: "@Sup3r-S3cret").read("data", reader(warnings))
            Issue.record("an unreadable @FILE was accepted")
        } catch {
            #expect(error.exitStatus == .usage)
            #expect(!error.message.contains("Sup3r-S3cret") && !(error.hint ?? "").contains("Sup3r-S3cret"))
        }
    }
}
