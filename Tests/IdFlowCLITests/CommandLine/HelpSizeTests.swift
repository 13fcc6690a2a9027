import ArgumentParser
import Testing

@testable import idflow

/// `--help` is read in a terminal: at 80 columns every command's fits in 60 lines, and no line (a table's row, a
/// usage line, a JSON shape) runs past the edge. What is longer belongs in the command's guide under docs/ (or, in
/// a few lines, in its man page: scripts/manual/details/, scripts/gen-man.sh).
@Suite struct HelpSizeTests {
    @Test(arguments: CLI.allCommands.indices)
    func helpFitsSixtyLinesOfEightyColumns(index: Int) {
        let (path, type) = CLI.allCommands[index]
        let name = (["idflow"] + path).joined(separator: " ")
        var lines = IdFlow.helpMessage(for: type, columns: 80).split(separator: "\n", omittingEmptySubsequences: false)
        while lines.last?.isEmpty == true { lines.removeLast() }
        #expect(lines.count <= 60, "\(name) --help has \(lines.count) lines")
        for line in lines {
            #expect(line.count <= 80, "\(name) --help: \(line)")
        }
    }

    /// The configuration options are not listed, but named: the last paragraph says where they are.
    @Test func everyCommandThatTakesTheConfigurationOptionsSaysWhereTheyAre() {
        let configured = Set(CompletionScript.configuredCommands(IdFlow.self))
        #expect(configured.count >= 25)
        for (path, type) in CLI.allCommands where configured.contains(path) {
            let help = IdFlow.helpMessage(for: type, columns: 80)
            #expect(help.contains(GlobalOptions.helpNote), "\(path)")
            #expect(!help.contains("--org-url <url>"), "\(path)")
            #expect(IdFlow.helpMessage(for: type, includeHidden: true, columns: 80).contains("CONFIGURATION OPTIONS:\n  --org-url <url>"))
        }
    }
}
