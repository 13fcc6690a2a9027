import Foundation
import IdFlowTestSupport
import Testing

/// README.md is the front door and docs/ holds one guide per task: the README stays short, every guide a newcomer
/// looks for exists and the README links to it, and no relative link in either leads nowhere.
struct DocsTests {
    /// The task guides the README must link to, one per task.
    static let guides = [
        "getting-started.md", "registration.md", "logging-in.md", "push-mfa.md", "embedded-sign-in.md", "account-recovery.md",
        "service-apps-and-dpop.md", "company-networks.md", "calling-apis.md", "bulk-provisioning.md", "debugging.md", "sandbox.md",
        "configuration.md", "exit-codes.md", "performance.md", "reliability.md", "development.md",
    ]

    static func text(_ file: String) throws -> String {
        try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(file), encoding: .utf8)
    }

    /// README.md and every `docs/*.md`, relative to the package root.
    static func documents() throws -> [String] {
        let docs = Fixtures.packageRoot.appendingPathComponent("docs", isDirectory: true)
        let guides = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        return ["README.md"] + guides.map { "docs/" + $0 }
    }

    @Test func theReadmeIsAtMost12KB() throws {
        let size = try Data(contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md")).count
        #expect(size <= 12_288, "README.md is \(size) bytes; move detail into a guide under docs/")
    }

    @Test func everyGuideExistsAndTheReadmeLinksToIt() throws {
        let readme = try Self.text("README.md")
        for guide in Self.guides {
            let text = try? Self.text("docs/" + guide)
            #expect(text != nil, "docs/\(guide) is missing")
            #expect(readme.contains("](docs/\(guide))"), "README.md does not link to docs/\(guide)")
            // A reader who lands on the page learns what it is for first: a title, then one sentence.
            if let lines = text?.components(separatedBy: "\n") {
                #expect(lines.first?.hasPrefix("# ") == true, "docs/\(guide) does not start with a title")
                #expect(lines.count > 2 && !lines[2].isEmpty, "docs/\(guide) does not say what it is for under its title")
            }
        }
    }

    @Test func everyRelativeLinkNamesAFileThatExists() throws {
        var checked = 0
        var broken: [String] = []
        for document in try Self.documents() {
            let folder = Fixtures.packageRoot.appendingPathComponent(document).deletingLastPathComponent()
            for (line, target) in try Self.relativeLinks(in: Self.text(document)) {
                checked += 1
                let path = String(target.prefix { $0 != "#" })
                guard !path.isEmpty else { continue }
                let url = folder.appendingPathComponent(path).standardizedFileURL
                if !FileManager.default.fileExists(atPath: url.path) { broken.append("\(document):\(line): \(target)") }
            }
        }
        #expect(checked >= 40, "found \(checked) relative links; the pattern no longer finds them")
        #expect(broken.isEmpty, "links to nothing:\n\(broken.joined(separator: "\n"))")
    }

    /// The targets of the markdown links `[text](target)` outside code (fenced blocks and `code spans`) that name no
    /// scheme (`https:`, `mailto:`), with their line numbers.
    static func relativeLinks(in text: String) -> [(line: Int, target: String)] {
        var links: [(line: Int, target: String)] = []
        var inFence = false
        for (index, raw) in text.components(separatedBy: "\n").enumerated() {
            if raw.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                continue
            }
            guard !inFence else { continue }
            let line = raw.replacing(/`[^`]*`/, with: "")
            for match in line.matches(of: /\]\(([^)\s]+)\)/) {
                let target = String(match.1)
                if target.contains(/^[A-Za-z][A-Za-z0-9+.\-]*:/) { continue }
                links.append((index + 1, target))
            }
        }
        return links
    }
}
