import ArgumentParser
import Foundation
import Testing

@testable import idflow

/// The configuration flags work before the subcommand too, as in git and kubectl.
@Suite struct GlobalFlagsTests {
    @Test func flagsBeforeTheSubcommandMeanTheSameAsAfterIt() throws {
        let before = try #require(
            try CLI.parse(["-v", "--profile", "staging", "--org-url=https://o.example.com", "register", "--email", "jo@example.com"])
                as? RegisterCommand)
        let after = try #require(
            try CLI.parse(["register", "--email", "jo@example.com", "-v", "--profile", "staging", "--org-url", "https://o.example.com"])
                as? RegisterCommand)
        #expect(before.global.verbose && after.global.verbose)
        #expect(before.global.profile == "staging" && after.global.profile == "staging")
        #expect(before.global.orgURL == "https://o.example.com" && after.global.orgURL == "https://o.example.com")
        #expect(before.profile.email == "jo@example.com")
    }

    @Test func flagsBeforeANestedSubcommandReachIt() throws {
        let command = try #require(
            try CLI.parse(["--state-dir", "/tmp/s", "--compact", "token", "inspect", "--type", "id"]) as? TokenInspectCommand)
        #expect(command.global.stateDirectory == "/tmp/s")
        #expect(command.global.compact)
        #expect(command.type == .id)
    }

    @Test func argumentsThatNameNoSubcommandAreLeftForArgumentParser() {
        #expect(GlobalArguments.hoist(["-v"], root: IdFlow.self) == ["-v"])
        #expect(GlobalArguments.hoist(["--profile"], root: IdFlow.self) == ["--profile"])
        #expect(GlobalArguments.hoist(["-v", "token"], root: IdFlow.self) == ["-v", "token"])
        #expect(GlobalArguments.hoist(["--version"], root: IdFlow.self) == ["--version"])
        #expect(GlobalArguments.hoist(["register", "--email", "a@b.c"], root: IdFlow.self) == ["register", "--email", "a@b.c"])
    }

    @Test func aGlobalFlagBeforeAGroupWithoutLeafIsAUsageError() async {
        let result = await CLI.run(["-v", "token"])
        #expect(result.exitCode == 64)
    }

    /// The table `GlobalArguments` relies on lists exactly the options `GlobalOptions` declares.
    @Test func theNameTableMatchesTheDeclaredOptions() {
        let help = GlobalOptions.helpMessage(columns: 1000)
        var declared: [String: Bool] = [:]
        for line in help.split(separator: "\n") {
            let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
            guard let first = words.first, first.hasPrefix("-") else { continue }
            // "-v, --verbose" or "--org-url <url>"
            let names = line.split(separator: " ").filter { $0.hasPrefix("-") }.map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: ","))
            }
            let takesValue = line.contains("<")
            for name in names where name != "-h" && name != "--help" { declared[name] = takesValue }
        }
        #expect(declared == GlobalOptions.names)
    }

    @Test func aFlagValueThatLooksLikeASubcommandIsNotTakenForOne() throws {
        let command = try #require(try CLI.parse(["--profile", "register", "register", "--email", "a@b.c"]) as? RegisterCommand)
        #expect(command.global.profile == "register")
    }
}
