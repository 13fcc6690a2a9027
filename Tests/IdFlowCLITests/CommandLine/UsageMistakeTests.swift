import Foundation
import IdFlowCore
import IdFlowFoundation
import Testing

@testable import idflow

/// A mistyped command or option is what a person is told about first, with the name they probably meant, and
/// every usage error ends stderr with the contract's JSON error line, as every other failure does.
@Suite struct UsageMistakeTests {
    static let mistakes: [(arguments: [String], message: String)] = [
        // Without the check, the missing --email (or --user) would be reported instead of the typo that caused it.
        (["register", "--emial", "x@example.com"], "Unknown option '--emial'. Did you mean '--email'?"),
        (["activate", "--usr", "foo"], "Unknown option '--usr'. Did you mean '--user'?"),
        (["regsiter", "--email", "x@example.com"], "Unknown command 'regsiter'. Did you mean 'register'?"),
        (["token", "inspct"], "Unknown command 'inspct'. Did you mean 'inspect'?"),
        (["enroll", "--nme", "ci"], "Unknown option '--nme'. Did you mean '--name'?"),
        (["help", "nosuch"], "Unknown command 'nosuch'"),
        (["help", "regster"], "Unknown command 'regster'. Did you mean 'register'?"),
        (["help", "token", "inspct"], "Unknown command 'inspct'. Did you mean 'inspect'?"),
        (["login-device", "--device-timeout", "-5"], "--device-timeout takes a number of 0 or more, not -5"),
        (["register", "--batch", "u.csv", "--concurrency", "-2"], "--concurrency takes a number of 0 or more, not -2"),
        (["-v", "register", "--emial", "x@example.com"], "Unknown option '--emial'. Did you mean '--email'?"),
    ]

    @Test(arguments: mistakes.indices)
    func theMistakeIsReportedFirstWithWhatWasMeant(index: Int) async throws {
        let (arguments, message) = Self.mistakes[index]
        let result = await CLI.run(arguments)
        #expect(result.exitCode == 64, "\(arguments) exited \(result.exitCode)")
        #expect(result.stdout.isEmpty, "help for a mistake is not printed on stdout")
        let last = try #require(result.stderr.split(separator: "\n").last.map(String.init))
        let error = try #require(try JSONValue(data: Data(last.utf8))["error"], "the last line of stderr is the error line")
        #expect(error["message"]?.stringValue == message)
        #expect(error["exitCode"] == 64)
        #expect(result.stderr.hasPrefix("Error: \(message)\n"), "the human text says the same first: \(result.stderr)")
    }

    /// ArgumentParser's own usage errors (the ones no mistyped name explains) keep their text and gain the line.
    @Test func argumentParsersOwnUsageErrorsEndWithTheErrorLine() async throws {
        let result = await CLI.run(["activate"])
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("Missing expected argument '--user <id-or-login>'"))
        let last = try #require(result.stderr.split(separator: "\n").last.map(String.init))
        #expect(try JSONValue(data: Data(last.utf8))["error"]?["message"] == "Missing expected argument '--user <id-or-login>'")
    }

    /// The human text points at --help once: a hint that names it is not followed by "See '… --help'" again.
    @Test(arguments: [["login-pkce", "--bogus"], ["register", "--emial", "x@example.com"], ["token", "inspct"]])
    func aUsageMistakePointsAtHelpOnce(arguments: [String]) async throws {
        let result = await CLI.run(arguments)
        #expect(result.exitCode == 64)
        let human = result.stderr.split(separator: "\n").dropLast().joined(separator: "\n")
        #expect(human.components(separatedBy: "--help").count - 1 <= 1, "\(result.stderr)")
    }

    /// A default is named in the words the values list uses (ArgumentParser would show the raw `access_token`).
    @Test func aTokenKindsDefaultIsShownInTheValuesWords() async throws {
        let result = await CLI.run(["token", "verify", "--help"])
        let help = result.stdout.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        #expect(help.contains("access (the default), refresh or id. (values: access, refresh, id)"), "\(result.stdout)")
        #expect(!help.contains("access_token"), "\(result.stdout)")
    }

    @Test func helpForARealTopicStillWorks() async {
        let result = await CLI.run(["help", "token", "inspect"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("USAGE: idflow token inspect"))
    }

    @Test func aCorrectLineIsNotSecondGuessed() async {
        // A value that looks like an option name is the value of the option before it.
        #expect(UsageCheck.firstMistake(in: ["register", "--email", "a@b.c", "--first-name", "--emial"], root: IdFlow.self) == nil)
        #expect(UsageCheck.firstMistake(in: ["register", "--email=a@b.c"], root: IdFlow.self) == nil)
        #expect(UsageCheck.firstMistake(in: ["register", "--", "--emial"], root: IdFlow.self) == nil)
    }
}
