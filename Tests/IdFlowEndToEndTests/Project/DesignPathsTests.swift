import Foundation
import IdFlowTestSupport
import Testing

/// DESIGN.md is where a newcomer learns where things are: every path it names must exist, so a moved or renamed
/// file cannot leave the folder map, the recipes or "how one command flows" pointing at nothing.
struct DesignPathsTests {
    /// Extensions of the files DESIGN.md names; a last segment with another dot is a symbol (`ParsingTests.valid`).
    static let fileExtensions: Set<String> = ["swift", "sh", "md", "json", "yaml", "yml", "mdoc", "1", "txt", "py", "lua", "h", "c"]

    @Test func everyPathDesignNamesExists() throws {
        let root = Fixtures.packageRoot
        let design = try String(contentsOf: root.appendingPathComponent("DESIGN.md"), encoding: .utf8)
        let (files, folders) = try Self.tree(under: root)
        var checked = 0
        var missing: [String] = []
        for match in design.matches(of: /`([A-Za-z0-9_+.\-]+(?:\/[A-Za-z0-9_+.\-]+)+\/?)`/) {
            let path = String(match.1).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            let segments = path.split(separator: "/").map(String.init)
            // A path starts at a folder the repository has (`Sources`, `App`, `Storage`…); `Flows/`, which DESIGN
            // names as what there is not, and `routes.get/post`, a method list, do not. An upper-case segment is
            // a placeholder (`Fuzz/Seeds/TARGET/`).
            guard folders.contains(where: { $0.hasSuffix("/" + segments[0]) || $0 == segments[0] }),
                !segments.contains(where: { $0.count > 1 && $0 == $0.uppercased() && $0.allSatisfy(\.isLetter) })
            else { continue }
            if let dot = segments.last!.lastIndex(of: "."), !Self.fileExtensions.contains(String(segments.last![dot...].dropFirst())) {
                continue
            }
            checked += 1
            // Relative to the repository, or to a target or test folder (`App/SandboxState+Purge.swift`,
            // `Storage/TokenStore`, with or without `.swift`).
            let found = [path, path + ".swift"].contains { candidate in
                files.contains(candidate) || folders.contains(candidate)
                    || files.contains { $0.hasSuffix("/" + candidate) } || folders.contains { $0.hasSuffix("/" + candidate) }
            }
            if !found { missing.append(path) }
        }
        #expect(checked >= 50, "DESIGN.md names \(checked) paths; the pattern no longer finds them")
        #expect(missing.isEmpty, "DESIGN.md names paths that do not exist: \(missing.joined(separator: ", "))")
    }

    /// The repository's files and folders, relative to `root`, without the build and version-control folders.
    static func tree(under root: URL) throws -> (files: Set<String>, folders: Set<String>) {
        var files: Set<String> = []
        var folders: Set<String> = []
        let skipped: Set<String> = [".build", ".git", ".build-bench", ".swiftpm"]
        let base = root.standardizedFileURL.path + "/"
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey]) else { return ([], []) }
        for case let url as URL in walker {
            let relative = String(url.standardizedFileURL.path.dropFirst(base.count))
            if skipped.contains(url.lastPathComponent) {
                walker.skipDescendants()
                continue
            }
            if (try url.resourceValues(forKeys: [.isDirectoryKey])).isDirectory == true {
                folders.insert(relative)
            } else {
                files.insert(relative)
            }
        }
        return (files, folders)
    }
}
