import ArgumentParser
import Testing

@testable import idflow

/// The examples in `idflow help COMMAND` are copied into terminals: at 80 columns each must still be whole
/// command lines, a long one continued with ` \` lines of its own rather than broken by the wrapping.
@Suite struct HelpExamplesTests {
    @Test func everyExampleIsWholeAtEightyColumns() {
        var examples = 0
        var continued = 0
        for (path, type) in CLI.allCommands {
            let name = (["idflow"] + path).joined(separator: " ")
            let lines = IdFlow.helpMessage(for: type, columns: 80).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var inExample = false
            for (number, line) in lines.enumerated() {
                if line.hasPrefix("  $ ") {
                    examples += 1
                    inExample = true
                } else if inExample {
                    // The line after a ` \` continues the command, indented under it.
                    #expect(line.hasPrefix("      ") && !line.trimmingCharacters(in: .whitespaces).isEmpty, "\(name): \(line)")
                    continued += 1
                }
                guard inExample else { continue }
                #expect(line.count <= 80, "\(name): \(line)")
                if line.hasSuffix("\\") { continue }
                inExample = false
                // A finished command is followed by a blank line or the next example, never by its own tail.
                let next = number + 1 < lines.count ? lines[number + 1] : ""
                #expect(next.isEmpty || next.hasPrefix("  $ "), "\(name): the example \"\(line)\" goes on in \"\(next)\"")
            }
        }
        #expect(examples >= 20)
        #expect(continued >= 10)
    }
}
