import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// A user's tokens bound to a key (RFC 9449) end to end: a native app that requires DPoP (`dpopBoundAccessTokens`),
/// `login-pkce --dpop`, then `refresh`, `userinfo`, `api` and `token inspect` with the key kept beside the tokens.
@Suite(.serialized)
struct DPoPLoginTests {
    static let password = "Str0ng-Passw0rd!"

    /// An app that does not require DPoP ignores the proof and answers Bearer: a script stops (exit 13) before the
    /// unbound token is stored or printed, unless IDFLOW_DPOP_ALLOW_BEARER=1 says a Bearer token will do.
    @Test func aBearerAnswerToDPoPStopsAScriptUnlessAllowed() async throws {
        let sandbox = try await LiveSandbox.start()
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "bea@example.com", password: Self.password)
        let login = ["login-pkce", "--username", "bea@example.com", "--password-stdin", "--dpop"]

        let refused = try await sandbox.idflow(login, stdin: Self.password)
        #expect(refused.exitCode == 13, "\(refused)")
        #expect(refused.stdout.isEmpty, "no token printed")
        #expect(refused.error?["message"]?.stringValue?.contains("Bearer token although idflow sent a DPoP proof") == true)
        #expect(refused.error?["hint"]?.stringValue?.contains("IDFLOW_DPOP_ALLOW_BEARER=1") == true)
        let store = TokenStore(directory: sandbox.stateDirectory.appendingPathComponent("profiles/default"))
        #expect(try store.load() == nil, "nothing stored")

        let allowed = try await sandbox.idflow(login, stdin: Self.password, environment: ["IDFLOW_DPOP_ALLOW_BEARER": "1"])
        #expect(allowed.exitCode == 0, "\(allowed)")
        #expect(try allowed.json()["token_type"] == "Bearer")
        #expect(allowed.stderr.contains("warning: the token endpoint issued a Bearer token"), "\(allowed)")
    }

    @Test func aBoundLoginRefreshesAndCallsWithItsKey() async throws {
        let probe = try await LiveSandbox.start()
        let clientID = probe.clientID
        probe.stop()
        let sandbox = try await ServiceAppTests.sandbox(#"{"dpopBoundAccessTokens": ["\#(clientID)"]}"#)
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "dee@example.com", password: Self.password)
        let login = ["login-pkce", "--username", "dee@example.com", "--password-stdin"]

        let refused = try await sandbox.idflow(login, stdin: Self.password)
        #expect(refused.exitCode == 4, "the app requires DPoP: \(refused)")
        #expect(refused.error?["hint"]?.stringValue?.contains("--dpop") == true)

        let bound = try await sandbox.idflow(login + ["--dpop"], stdin: Self.password)
        #expect(bound.exitCode == 0, "\(bound)")
        #expect(try bound.json()["token_type"] == "DPoP")
        let store = TokenStore(directory: sandbox.stateDirectory.appendingPathComponent("profiles/default"))
        let stored = try #require(try store.load())
        let key = try #require(stored.dpopKey.flatMap(DPoPKey.init(stored:)))

        let inspected = try await sandbox.idflow(["token", "inspect"])
        #expect(try inspected.json()["dpop"]?["jkt"]?.stringValue == key.thumbprint)
        #expect(try inspected.json()["dpop"]?["matchesStoredKey"] == true)

        let userinfo = try await sandbox.idflow(["userinfo"])
        #expect(userinfo.exitCode == 0, "\(userinfo)")
        #expect(try userinfo.json()["email"] == "dee@example.com")

        let refreshed = try await sandbox.idflow(["refresh"])
        #expect(refreshed.exitCode == 0, "\(refreshed)")
        #expect(try refreshed.json()["token_type"] == "DPoP")
        #expect(try store.load()?.dpopKey == stored.dpopKey, "a refresh keeps the key")
        #expect(try store.load()?.tokens.accessToken != stored.tokens.accessToken)

        // The protected resource asks for a nonce first (RFC 9449 §9); idflow answers once and gets through.
        let resource = try #require(sandbox.info["resource"]?["url"]?.stringValue)
        let called = try await sandbox.idflow(["api", resource, "-v"])
        #expect(called.exitCode == 0, "\(called)")
        #expect(try called.json()["sub"] != nil)
        #expect(called.stderr.contains("asked for a DPoP nonce"))

        // kubectl could only send it as Bearer: refused rather than handed over.
        let kubectl = try await sandbox.idflow(["token", "get", "--output", "exec-credential", "--token-type", "access"])
        #expect(kubectl.exitCode == 64, "\(kubectl)")

        // The same token without its key is useless: the store without the key is refused before anything is sent.
        var keyless = try #require(try store.load())
        keyless.dpopKey = nil
        try store.save(keyless)
        let withoutKey = try await sandbox.idflow(["userinfo"])
        #expect(withoutKey.exitCode == 12, "\(withoutKey)")
    }

    @Test func theDeviceGrantAndTheEmbeddedSignInBindTheirTokensToo() async throws {
        let probe = try await LiveSandbox.start()
        let clientID = probe.clientID
        probe.stop()
        let sandbox = try await ServiceAppTests.sandbox(#"{"deviceIntervalSeconds": 1, "dpopBoundAccessTokens": ["\#(clientID)"]}"#)
        defer { sandbox.stop() }
        _ = try await sandbox.createActiveUser(email: "tv@example.com", password: Self.password)

        // Every poll of the token endpoint carries a proof of its own.
        let (session, notice) = try await LoginDeviceTests.start(sandbox, ["--dpop"])
        try await LoginDeviceTests.answer(sandbox, notice, login: "tv@example.com", decision: "approve")
        let device = try await session.finish()
        #expect(device.exitCode == 0, "\(device)")
        #expect(try device.json()["token_type"] == "DPoP")

        let embedded = try await sandbox.idflow(
            ["login-pkce", "--embedded", "--dpop", "--answer", "identifier=tv@example.com", "--answer", "credentials.passcode=@-"],
            stdin: Self.password)
        #expect(embedded.exitCode == 0, "\(embedded)")
        #expect(try embedded.json()["token_type"] == "DPoP")
        #expect(try await sandbox.idflow(["userinfo"]).exitCode == 0)
    }
}
