import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// The committed bash completion, sourced into a real bash and asked what TAB offers, with the built binary
/// answering the script's `---completion` calls from a throwaway home.
@Suite struct ShellCompletionTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-tab-\(UUID().uuidString)", isDirectory: true)
    var stateDirectory: URL { home.appendingPathComponent("state/idflow", isDirectory: true) }

    /// What `_idflow` puts in COMPREPLY for the command line `words` (the last word is the one completed), with
    /// the binary's path in place of the first word, as the script runs it for its `---completion` calls.
    func complete(_ words: [String], in directory: URL? = nil) async throws -> [String] {
        let script = """
            source "$1"; shift
            COMP_WORDS=("$@")
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT=${#COMP_LINE}
            COMPREPLY=()
            _idflow "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let completion = Fixtures.packageRoot.appendingPathComponent("completions/idflow.bash").path
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let bash = try await ExternalCommand.run(
            "/bin/bash", ["-c", script, "bash", completion, IdFlowBinary.url.path] + words.dropFirst(),
            environment: [
                "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                "XDG_STATE_HOME": home.appendingPathComponent("state").path, "PATH": "/usr/bin:/bin",
            ], directory: directory ?? home)
        #expect(bash.status == 0)
        return bash.output.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    @Test func profileOffersTheProfilesOfTheConfigFile() async throws {
        let folder = home.appendingPathComponent("config/idflow", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try
            "profiles:\n  default:\n    orgUrl: https://o.example.com\n    apiToken: not-offered\n  staging:\n    orgUrl: https://s.example.com\n"
            .write(to: folder.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        #expect(try await complete(["idflow", "refresh", "--profile", ""]).sorted() == ["default", "staging"])
        #expect(try await complete(["idflow", "refresh", "--profile", "st"]) == ["staging"])
    }

    @Test func enrollDeleteAndUpdateOfferTheKeptEnrollments() async throws {
        let org = URL(string: "https://o.example.com")!
        try DeviceStore(stateDirectory: stateDirectory).org(org).save(
            EnrollmentRecord(
                enrollmentId: "pfdKept42", authenticatorId: "aut1", orgUrl: org.absoluteString, orgId: "00o1", oauthClientId: "0oa1",
                userId: "00u1", username: nil, displayName: nil, deviceId: "guo1", clientInstanceId: "cli1", methodEnrollmentId: "opf1",
                pendingUrl: "https://o.example.com/idp/myaccount/app-authenticators/pfdKept42/push/notifications", selfUrl: nil,
                pushToken: "", proofOfPossessionKeyId: "K1", userVerificationKeyId: nil, createdAt: Date()))
        #expect(try await complete(["idflow", "enroll", "delete", ""]) == ["pfdKept42"])
        #expect(try await complete(["idflow", "enroll", "update", "pfd"]) == ["pfdKept42"])
    }

    @Test func resumeOffersTheStoppedSignIns() async throws {
        var transaction = IDX.Transaction(
            id: "txStopped7", issuer: "https://o.example.com/oauth2/default", clientID: "0oa1", interactionHandle: "ih", stateHandle: "sh",
            codeVerifier: "verifier", state: "state", nonce: "nonce", scope: "openid")
        transaction.expiresAt = ISO8601.string(Date().addingTimeInterval(600))
        try StateDirectory.ensure(stateDirectory.appendingPathComponent("idx", isDirectory: true))
        try IDX.Transactions(stateDirectory: stateDirectory).save(transaction)
        #expect(try await complete(["idflow", "login-pkce", "--embedded", "--resume", ""]) == ["txStopped7"])
    }

    @Test func batchOffersFiles() async throws {
        let folder = home.appendingPathComponent("work", isDirectory: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("inputs"), withIntermediateDirectories: true)
        try "{}\n".write(to: folder.appendingPathComponent("users.ndjson"), atomically: true, encoding: .utf8)
        let offered = try await complete(["idflow", "register", "--batch", ""], in: folder)
        #expect(offered.contains("users.ndjson"))
        #expect(try await complete(["idflow", "register", "--batch", "us"], in: folder) == ["users.ndjson"])
        try "{}\n".write(to: folder.appendingPathComponent("limits.json"), atomically: true, encoding: .utf8)
        let configs = try await complete(["idflow", "sandbox", "--config", ""], in: folder)
        #expect(configs.contains("limits.json") && !configs.contains("users.ndjson"), "\(configs)")
    }

    @Test func helpOffersTheSubcommands() async throws {
        let top = try await complete(["idflow", "help", ""])
        #expect(top.contains("register") && top.contains("sandbox") && top.contains("completion"))
        #expect(
            try await complete(["idflow", "help", "lo"]).sorted() == [
                "login-client", "login-device", "login-direct", "login-jwt-bearer", "login-pkce", "login-sso", "logout",
            ])
        #expect(
            try await complete(["idflow", "help", "token", ""]) == ["get", "inspect", "verify", "introspect", "revoke", "exchange"])
    }

    @Test func completionOffersTheShells() async throws {
        #expect(try await complete(["idflow", "completion", ""]) == ["bash", "zsh", "fish"])
    }
}
