import Foundation
import IdFlowCore
import IdFlowFoundation
import Testing

/// The browser is handed only web URLs: a link a server sends (`login-device --open`) may be anything.
@Suite struct BrowserOpenerTests {
    /// A "browser" that writes the URL it was given into a file, so a test sees whether it ran and with what.
    func opener() -> (BrowserOpener, URL) {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-browser-\(UUID().uuidString)")
        return (BrowserOpener(environment: ["BROWSER": "echo %s > '\(marker.path)'"]), marker)
    }

    func opened(_ marker: URL) async throws -> String? {
        for _ in 0..<100 {
            if let text = try? String(contentsOf: marker, encoding: .utf8), text.hasSuffix("\n") { return text }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    @Test(arguments: [
        "file:///etc/passwd", "javascript:alert(1)", "smb://fileserver.example.com/share", "http://collector.example.net/activate",
        "ssh://host", "https:-oProxyCommand=id",
    ])
    func aLinkThatIsNotAWebPageIsRefusedAndTheBrowserNeverStarts(link: String) async throws {
        let (opener, marker) = opener()
        let url = try #require(URL(string: link))
        let problem = opener.open(url)
        #expect(problem?.contains("not opening") == true)
        try await Task.sleep(for: .milliseconds(300))
        #expect(!FileManager.default.fileExists(atPath: marker.path), "the launcher ran for \(link)")
    }

    @Test(arguments: ["https://o.example.com/activate?user_code=WDJB-MJHT", "http://127.0.0.1:8080/activate"])
    func aWebPageIsOpened(link: String) async throws {
        let (opener, marker) = opener()
        #expect(opener.open(try #require(URL(string: link))) == nil)
        #expect(try await opened(marker) == link + "\n")
    }
}
