import ArgumentParser
import Testing

@testable import idflow

/// `--help` is documentation users read and scripts sometimes grep: a change to it should be on purpose.
@Suite struct HelpSnapshotTests {
    @Test(arguments: CLI.allCommands.indices)
    func helpMatchesTheCheckedInSnapshot(index: Int) async throws {
        let (path, type) = CLI.allCommands[index]
        let result = await CLI.run(path + ["--help"])
        #expect(result.exitCode == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.contains("USAGE: idflow"))
        // At a fixed width, so the snapshot does not depend on the terminal the tests run in.
        let name = (["idflow"] + path).joined(separator: "-") + ".txt"
        try Snapshot.assertMatches(IdFlow.helpMessage(for: type, columns: 80), named: name)
    }

    @Test func everyCommandHasAnAbstract() {
        for (path, type) in CLI.allCommands {
            #expect(!type.configuration.abstract.isEmpty, "\(path) has no abstract")
        }
    }
}
