import Foundation
import IdFlowTestSupport
import Testing

/// A function longer than 80 lines is split, unless it is a flat checklist listed in DESIGN.md's table under
/// "Targets and what may import what" (file and function); a new long function fails here until it is either.
struct FunctionLengthTests {
    static let limit = 80

    @Test func noFunctionIsLongerThanTheLimitUnlessDesignListsIt() throws {
        let root = Fixtures.packageRoot
        let design = try String(contentsOf: root.appendingPathComponent("DESIGN.md"), encoding: .utf8)
        let allowed = Set(
            design.matches(of: /\| `(Sources\/[^`]+\.swift)` \| `(\w+)` \|/).map { "\($0.1) \($0.2)" })
        let (files, _) = try DesignPathsTests.tree(under: root)
        var long: [String] = []
        var measured = 0
        for file in files where file.hasPrefix("Sources/") && file.hasSuffix(".swift") {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for (name, lines) in Self.functions(in: text) {
                measured += 1
                if lines > Self.limit, !allowed.contains("\(file) \(name)") { long.append("\(file) \(name) (\(lines) lines)") }
            }
        }
        #expect(measured > 1000, "only \(measured) functions measured: the pattern no longer finds them")
        #expect(long.isEmpty, "split these, or list a flat checklist in DESIGN.md: \(long.joined(separator: "; "))")
    }

    /// Each `func`, `init` and `subscript` with a body, and its length from the declaration to the brace that closes
    /// it at the declaration's indentation (swift-format keeps that layout).
    static func functions(in text: String) -> [(name: String, lines: Int)] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var result: [(String, Int)] = []
        for (index, line) in lines.enumerated() where line.contains("func ") || line.contains("init") || line.contains("subscript") {
            guard
                let match = line.firstMatch(
                    of:
                        /^( *)(?:@\w+(?:\([^)]*\))? +)*(?:(?:public|package|private|fileprivate|internal|static|final|override|mutating|nonisolated|convenience|required|class)(?:\(set\))? +)*(func +([A-Za-z_][A-Za-z0-9_]*)|init[?!]?|subscript)\b/
                )
            else { continue }
            let indent = match.1.count
            guard let open = lines[index...].firstIndex(where: { $0.contains("{") }) else { continue }
            let name = match.3.map(String.init) ?? (line.contains("subscript") ? "subscript" : "init")
            // A body that closes on the line it opens (`subscript(x:y:) -> UInt8 { pixels[…] }`).
            if lines[open].filter({ $0 == "{" }).count == lines[open].filter({ $0 == "}" }).count {
                result.append((name, open - index + 1))
                continue
            }
            let closing = " ".repeated(indent) + "}"
            guard let end = lines[(open + 1)...].firstIndex(where: { $0.hasPrefix(closing) && !$0.hasPrefix(closing + " ") }) ?? nil
            else { continue }
            result.append((name, end - index + 1))
        }
        return result
    }
}

extension String {
    fileprivate func repeated(_ count: Int) -> String { String(repeating: self, count: count) }
}
