import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// A replay is pointed at a server that is not the one the run talked to: what it answers must not become
/// curl options (write or read a local file, send a request elsewhere) however it spells its values.
extension CurlReplayTests {
    /// The `login-pkce` script sends the session token of the `/authn` answer in the authorize URL, through a
    /// `-K` config. A server answers the replay's `/authn` with a session token that would close that URL's
    /// quotes and add `output = …` (write a file), `upload-file = …` (send one) and a second `url = …`: the
    /// replay stops right after that answer, with a message naming the value, and sends nothing more.
    @Test func aHostileAnswerCannotAddCurlOptionsToTheReplay() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "hostile@example.com", password: Self.password)
        let file = curlFile(sandbox, "hostile")
        let login = try await sandbox.idflow(
            ["login-pkce", "--username", "hostile@example.com", "--password-stdin", "--no-store", "--curl-file", file.path],
            stdin: Self.password)
        #expect(login.exitCode == 0, "\(login)")
        let text = try script(file, withoutAny: [Self.password])
        #expect(text.contains("SESSION_TOKEN: .sessionToken of the answer above"), "\(text)")

        let directory = sandbox.home.appendingPathComponent("hostile-replay")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let written = directory.appendingPathComponent("WRITTEN-BY-THE-SERVER")
        let local = directory.appendingPathComponent("local-secret.txt")
        try Data("local secret 42".utf8).write(to: local)
        let extra = Locked<String>("")
        let listener = try TinyHTTPListener { head in
            guard head.hasPrefix("POST /api/v1/authn ") else { return (404, ["Content-Type": "application/json"], "{}") }
            let hostile =
                "x\"\noutput = \"\(written.path)\"\nupload-file = \"\(local.path)\"\nurl = \"\(extra.current)/extra?"
            let body = JSONValue.object(["status": "SUCCESS", "sessionToken": .string(hostile)])
            return (200, ["Content-Type": "application/json"], String(decoding: try! JSONEncoder().encode(body), as: UTF8.self))
        }
        extra.withLock { $0 = listener.url }

        let replayed = try await replay(
            text.replacingOccurrences(of: sandbox.orgURL, with: listener.url), in: directory,
            exporting: ["PASSWORD": Self.password, "PKCE_VERIFIER": try #require(spentValue(text, "PKCE_VERIFIER"), "\(text)")])
        #expect(replayed.status == 65, "\(replayed)")
        #expect(
            replayed.standardError.contains("idflow replay: stopped: SESSION_TOKEN, read from an answer, holds a quote"), "\(replayed)")
        #expect(!FileManager.default.fileExists(atPath: written.path), "the server chose a file for curl to write: \(replayed)")
        let heads = listener.requests
        #expect(heads.last?.hasPrefix("POST /api/v1/authn ") == true, "nothing was sent after the hostile answer: \(heads)")
        #expect(!heads.contains { $0.contains("/extra") || $0.hasPrefix("PUT ") || $0.contains("/authorize") }, "\(heads)")
        #expect(replayed.statuses.last == 200, "\(replayed)")
    }
}
