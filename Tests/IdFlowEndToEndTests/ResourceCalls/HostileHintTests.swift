import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// A resource chooses the scope its 403 names and the issuers its metadata lists, and `idflow api` puts them
/// into the login command its hint suggests. Pasted into a shell, that command must run nothing the server
/// wrote, and a value that is no scope or issuer at all must not be suggested.
@Suite(.serialized)
struct HostileHintTests {
    /// A scope and an issuer that are valid by their grammar yet hold shell syntax.
    static let shellScope = "orders$(touch${IFS}PWNED-SCOPE)`touch${IFS}PWNED-TICK`'x'"
    static let shellIssuer = "https://login.example/$(touch$IFS'PWNED-ISSUER')'x'"

    /// The command the hint suggests (`log in with `…` (or …`), run by bash with `idflow` a function that prints
    /// each argument on a line; returns those lines and whether anything the server wrote ran (a PWNED file).
    func runSuggestedCommand(_ hint: String) async throws -> (arguments: [String], ran: Bool) {
        let start = try #require(hint.range(of: "log in with `"), "\(hint)")
        let end = try #require(hint.range(of: "` (or `idflow login-device", range: start.upperBound..<hint.endIndex), "\(hint)")
        let command = String(hint[start.upperBound..<end.lowerBound])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = "idflow() { printf '%s\\n' \"$@\"; }\n" + command + "\n"
        let result = try await ExternalCommand.run("/bin/bash", ["-c", script], directory: directory)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        return (result.output.split(separator: "\n").map(String.init), files.contains { $0.hasPrefix("PWNED") })
    }

    @Test func issuersFromMetadataAreQuotedOrNotSuggestedAtAll() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let origin = Locked("")
        let listener = try TinyHTTPListener { head in
            if head.hasPrefix("GET /.well-known/oauth-protected-resource/data ") {
                let servers: [JSONValue] = [
                    "https://evil.example/ ; touch PWNED-SPACE", "http://evil.example/plain", "https://evil.example/?q=1",
                    .string(Self.shellIssuer),
                ]
                let body = JSONValue.object(["resource": .string(origin.current + "/data"), "authorization_servers": .array(servers)])
                return (200, ["Content-Type": "application/json"], String(decoding: try! JSONEncoder().encode(body), as: UTF8.self))
            }
            let metadata = origin.current + "/.well-known/oauth-protected-resource/data"
            return (401, ["WWW-Authenticate": "Bearer resource_metadata=\"\(metadata)\""], "")
        }
        origin.withLock { $0 = listener.url }
        let result = try await sandbox.idflow(["api", listener.url + "/data"])
        #expect(result.exitCode == 4, "\(result)")
        let hint = try #require(result.error?["hint"]?.stringValue, "\(result)")
        #expect(!hint.contains("evil.example"), "an issuer outside the grammar is not suggested: \(hint)")
        let (arguments, ran) = try await runSuggestedCommand(hint)
        #expect(!ran, "the suggested command ran what the server wrote: \(hint)")
        #expect(arguments == ["login-pkce", "--issuer", Self.shellIssuer], "\(hint)")
    }

    @Test func insufficientScopeIsQuotedOrNotSuggestedAtAll() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        let (_, session) = try await sandbox.createActiveUser(email: "hint@example.com")
        let login = try await sandbox.idflow(["login-pkce", "--session-token-stdin"], stdin: session)
        #expect(login.exitCode == 0, "\(login)")
        let granted = try #require(try login.json()["scope"]?.stringValue, "\(login)")
        let issuer = try #require(sandbox.info["issuer"]?.stringValue)
        let scope = Locked("")
        let listener = try TinyHTTPListener { _ in
            (403, ["WWW-Authenticate": "Bearer error=\"insufficient_scope\", scope=\"\(scope.current)\""], "")
        }

        scope.withLock { $0 = Self.shellScope }
        let quoted = try await sandbox.idflow(["api", listener.url + "/orders"])
        #expect(quoted.exitCode == 4, "\(quoted)")
        let hint = try #require(quoted.error?["hint"]?.stringValue, "\(quoted)")
        let (arguments, ran) = try await runSuggestedCommand(hint)
        #expect(!ran, "the suggested command ran what the server wrote: \(hint)")
        #expect(arguments == ["login-pkce", "--issuer", issuer, "--scope", granted + " " + Self.shellScope], "\(hint)")

        // A quote (escaped in the header's quoted string), a backslash: not scope-tokens, so no --scope at all.
        for hostile in [#"orders\" ; touch PWNED"#, #"orders\\x"#] {
            scope.withLock { $0 = hostile }
            let refused = try await sandbox.idflow(["api", listener.url + "/orders"])
            #expect(refused.exitCode == 4, "\(refused)")
            let refusedHint = try #require(refused.error?["hint"]?.stringValue, "\(refused)")
            #expect(!refusedHint.contains("--scope"), "\(refusedHint)")
            #expect(try await runSuggestedCommand(refusedHint).arguments == ["login-pkce", "--issuer", issuer], "\(refusedHint)")
        }
    }
}
