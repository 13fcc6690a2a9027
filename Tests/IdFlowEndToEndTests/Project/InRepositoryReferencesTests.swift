import Foundation
import IdFlowTestSupport
import Testing

/// The protocol notes (`docs/protocols/`) and the output contract (`docs/contract.md`) live in the repository, so a
/// clone has everything the code and the docs cite: nothing may point at a folder beside the repository, and a
/// citation such as `idx.md §12.3` must name a section the note has as a heading.
struct InRepositoryReferencesTests {
    /// The notes the code cites by name, each `docs/protocols/NAME.md`.
    static let notes = ["okta-core", "devices", "idx", "custom-registration", "direct-auth", "webauthn", "native-sso"]

    /// A section identifier: `H6`, `5b`, `12.3` (a dot ends it unless a letter or digit follows, as in a sentence).
    static let section = #"[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*"#

    @Test func nothingPointsOutsideTheRepository() throws {
        let root = Fixtures.packageRoot
        // Built, so that this file does not find itself.
        let outside = ".." + "/shared"
        var found: [String] = []
        for (path, text) in try Self.textFiles(
            under: root, folders: ["Sources", "Tests", "docs", "scripts"], files: ["README.md", "DESIGN.md"])
        {
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains(outside) {
                found.append("\(path):\(index + 1)")
            }
        }
        #expect(found.isEmpty, "these lines point outside the repository (the notes are in docs/): \(found.joined(separator: ", "))")
    }

    @Test func everyCitedSectionIsAHeadingOfItsNote() throws {
        let root = Fixtures.packageRoot
        var headings: [String: Set<String>] = [:]
        let heading = try Regex(#"^#+ §("# + Self.section + ")")
        for note in Self.notes {
            let url = root.appendingPathComponent("docs/protocols/\(note).md")
            let text = try String(contentsOf: url, encoding: .utf8)
            headings[note] = Set(
                text.split(separator: "\n").compactMap { line in
                    line.prefixMatch(of: heading).flatMap { $0.output[1].substring.map(String.init) }
                })
        }
        // `devices.md §5`, `idx.md §12.3–12.5`, `devices.md §1–§7`: both ends of a range are checked.
        let names = Self.notes.joined(separator: "|")
        let citation = try Regex(
            "(?:^|[^A-Za-z0-9_-])(" + names + #")\.md §("# + Self.section + ")(?:[–-]§?(" + Self.section + "))?")
        var checked = 0
        var missing: [String] = []
        for (path, text) in try Self.textFiles(under: root, folders: ["Sources", "Tests"], files: ["DESIGN.md"]) {
            for match in text.matches(of: citation) {
                guard let note = match.output[1].substring.map(String.init) else { continue }
                let cited = [match.output[2].substring, match.output[3].substring].compactMap { $0.map(String.init) }
                for id in cited {
                    checked += 1
                    if headings[note]?.contains(id) != true { missing.append("\(path): \(note).md §\(id)") }
                }
            }
        }
        #expect(checked >= 100, "found \(checked) citations; the pattern no longer finds them")
        #expect(missing.isEmpty, "cited sections with no heading in docs/protocols/: \(missing.joined(separator: "; "))")
    }

    /// The UTF-8 text files in `folders` (recursively) and the given top-level `files`, by path relative to
    /// `root`; binary files (a fixture's key, a fuzz seed) are skipped.
    static func textFiles(under root: URL, folders: [String], files: [String]) throws -> [(String, String)] {
        var paths = files
        let (all, _) = try DesignPathsTests.tree(under: root)
        paths += all.filter { path in folders.contains { path.hasPrefix($0 + "/") } }.sorted()
        return paths.compactMap { path in
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path),
                !data.contains(0), let text = String(data: data, encoding: .utf8)
            else { return nil }
            return (path, text)
        }
    }
}
