import Foundation
import IdFlowCore
import IdFlowTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `--curl` script as a person meets it: run by bash (against a recording stand-in for curl), it sends
/// what idflow sent, never runs what a server wrote, and never spells a secret out.
struct CurlScriptTests {
    let org = "https://example.okta.com"
    let apiToken = "00aPlantedApiTokenValue_0123456789"
    let password = "Pa$$w0rd'\"`x`\\ $(touch PWNED-PASSWORD)"

    func run(_ requests: [HTTPRequest], answers: [ScriptedTransport.Answer]) async throws -> String {
        let transport = ScriptedTransport(answers)
        let lines = Locked<[String]>([])
        let script = CurlScript(write: { line in lines.withLock { $0.append(line) } })
        let client = HTTPClient(transport: transport, retryPolicy: RetryPolicy(maxRetries: 0), curl: script)
        for request in requests { _ = try await client.send(request) }
        // The stream and the whole script say the same, declarations apart.
        #expect(lines.current.joined(separator: "\n").contains("# request \(requests.count)"))
        return script.text
    }

    /// A server that answers with quotes, `$()`, backticks and newlines, echoed back in the next request's URL,
    /// headers and body: bash runs the script without running any of it, and curl gets the text as it was.
    @Test func hostileServerTextIsSentAsTextAndNeverRun() async throws {
        let hostile = "it's \"x\" $(touch PWNED-1) `touch PWNED-2` \\ ${HOME}\nsecond line; touch PWNED-3 #"
        let encodedHostile = hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let first = try HTTPRequest.json(
            "POST", URL(string: "\(org)/api/v1/authn")!, body: ["username": "jo@example.com", "password": password])
        var second = try HTTPRequest.json(
            "POST", URL(string: "\(org)/api/v1/users?note=\(encodedHostile)")!,
            body: JSONValue.object(["profile": .object(["nickName": .string(hostile)]), "password": .string(password)]),
            headers: ["X-Note": hostile.replacingOccurrences(of: "\n", with: " ")])
        second.headers["Authorization"] = "SSWS \(apiToken)"
        let third = HTTPRequest(
            method: "POST", url: URL(string: "\(org)/echo")!, headers: ["Content-Type": "text/plain"], body: Data(hostile.utf8))
        let script = try await run(
            [first, second, third],
            answers: [
                .json(200, JSONValue.object(["status": "SUCCESS", "nickName": .string(hostile)]).compactText),
                .json(200, "{}"), .json(200, "{}"),
            ])

        let curl = try FakeCurl()
        let result = try curl.run(script, environment: ["PASSWORD": password, "OKTA_CLIENT_TOKEN": apiToken])
        #expect(result.status == 0, "\(result.standardError)\n\(script)")
        for name in ["PWNED-1", "PWNED-2", "PWNED-3", "PWNED-PASSWORD"] { #expect(!curl.exists(name), "\(name) was run") }
        let body = try JSONValue(data: Data((curl.recorded("2.body") ?? "").utf8))
        #expect(body["profile"]?["nickName"] == .string(hostile))
        #expect(body["password"] == .string(password), "the password reaches curl through the variable, intact")
        #expect(curl.recorded("2.url") == "\(org)/api/v1/users?note=\(encodedHostile)")
        #expect(curl.recorded("2.headers")?.contains("Authorization: SSWS \(apiToken)") == true)
        #expect(curl.recorded("2.headers")?.contains("X-Note: \(hostile.replacingOccurrences(of: "\n", with: " "))") == true)
        #expect(curl.recorded("3.body") == hostile)
        #expect(curl.recorded("2.method") == "POST")
    }

    /// A planted API token, password, state token and session token: the script names each by its variable, and
    /// none is an argument of any program it starts.
    @Test func noSecretIsInTheScriptOrOnAnyCommandLine() async throws {
        let stateToken = "00PlantedStateToken-abcdefghijkl"
        let sessionToken = "20111PlantedSessionToken"
        let authn = URL(string: "\(org)/api/v1/authn")!
        var factors = HTTPRequest.get(URL(string: "\(org)/api/v1/users/00u1/factors")!)
        factors.headers["Authorization"] = "SSWS \(apiToken)"
        let requests = [
            try HTTPRequest.json("POST", authn, body: ["username": "jo@example.com", "password": password]),
            try HTTPRequest.json(
                "POST", URL(string: "\(org)/api/v1/authn/factors/f1/verify")!, body: ["stateToken": stateToken, "passCode": "123456"]),
            HTTPRequest.get(URL(string: "\(org)/oauth2/default/v1/authorize?client_id=c&sessionToken=\(sessionToken)&state=s")!),
            factors, factors,
        ]
        let script = try await run(
            requests,
            answers: [
                .json(200, #"{"status":"MFA_REQUIRED","stateToken":"\#(stateToken)"}"#),
                .json(200, #"{"status":"SUCCESS","sessionToken":"\#(sessionToken)"}"#),
                .response(status: 302, headers: ["Location": "com.example:/cb?code=PlantedCode123&state=s"], body: Data()),
                .json(200, "[]"), .json(200, "[]"),
            ])
        for secret in [apiToken, password, stateToken, sessionToken, "PlantedCode123"] {
            #expect(!script.contains(secret), "\(secret) is in the script")
        }
        #expect(script.hasPrefix("#!/usr/bin/env bash\n"))
        #expect(script.contains("set -euo pipefail"))
        #expect(script.components(separatedBy: "export OKTA_CLIENT_TOKEN=").count == 2, "declared once, used twice:\n\(script)")
        #expect(script.contains(#"export OKTA_CLIENT_TOKEN="${OKTA_CLIENT_TOKEN:?the API token (env OKTA_CLIENT_TOKEN)}""#))
        #expect(script.contains(#"export PASSWORD="${PASSWORD:?"#))
        #expect(script.contains("# STATE_TOKEN: .stateToken of the answer above (request 1)"))
        #expect(script.contains(#"export STATE_TOKEN="$(jq -r '.stateToken' "$IDFLOW_OUT/1.json")""#))
        #expect(script.contains("# SESSION_TOKEN: .sessionToken of the answer above (request 2)"))
        #expect(script.contains("# AUTHORIZATION_CODE: code= in the Location of the answer above (request 3)"))
        #expect(script.contains("# → 302"))
        #expect(script.contains(#""passCode":$ENV.PASS_CODE"#), "a one-time code is a secret too")

        // Replayed, each value read from an answer travels on: the replay's own state and session tokens.
        let curl = try FakeCurl()
        try curl.answer(1, json: #"{"stateToken":"replayState"}"#)
        try curl.answer(2, json: #"{"sessionToken":"replaySession"}"#)
        let result = try curl.run(script, environment: ["PASSWORD": password, "OKTA_CLIENT_TOKEN": apiToken, "PASS_CODE": "123456"])
        #expect(result.status == 0, "\(result.standardError)\n\(script)")
        #expect(try JSONValue(data: Data((curl.recorded("2.body") ?? "").utf8))["stateToken"] == "replayState")
        #expect(curl.recorded("3.config")?.contains("sessionToken=replaySession&") == true)
        let argv = curl.recorded("argv") ?? ""
        for secret in [apiToken, password, "replayState", "replaySession"] {
            #expect(!argv.contains(secret), "\(secret) was on curl's command line")
        }
        #expect(result.output.contains("1 200\n2 200\n3 200"))
    }

    @Test func aFormWithAVerifierIsRebuiltWithTheVariable() async throws {
        let verifier = "PlantedVerifier-~._0123456789abcdefghijklmnopqrstuvwxyz"
        let request = HTTPRequest.form(
            URL(string: "\(org)/oauth2/default/v1/token")!,
            fields: [
                ("grant_type", "authorization_code"), ("code", "c0de+/="), ("code_verifier", verifier), ("redirect_uri", "x:/cb"),
                ("client_secret", "s3cr!t*'()x y+z"),
            ])
        let script = try await run([request], answers: [.json(200, #"{"access_token":"at"}"#)])
        #expect(script.contains(#"export PKCE_VERIFIER="${PKCE_VERIFIER:?the PKCE code verifier"#))
        // Answered, the verifier is spent, and only idflow knew it: the script gives it, in comments only (under its
        // declaration and after the request), never in the request itself.
        let spent =
            "# PKCE_VERIFIER of this run, spent by request 1 (it redeems only a code issued for this script's code_challenge): "
            + "export PKCE_VERIFIER='\(verifier)'"
        #expect(script.components(separatedBy: spent).count == 3, "\(script)")
        #expect(script.components(separatedBy: verifier).count == 3, "\(script)")
        let curl = try FakeCurl()
        let result = try curl.run(
            script, environment: ["PKCE_VERIFIER": verifier, "AUTHORIZATION_CODE": "c0de+/=", "CLIENT_SECRET": "s3cr!t*'()x y+z"])
        #expect(result.status == 0, "\(result.standardError)\n\(script)")
        #expect(curl.recorded("1.body") == String(decoding: request.body ?? Data(), as: UTF8.self))
    }

    /// Before its request is answered (or when the answer is a server error that may have left the code unredeemed),
    /// the verifier is a secret like any other, named only as a variable.
    @Test func aVerifierIsGivenOnlyOnceItsRequestWasAnswered() async throws {
        let verifier = "UnspentVerifier-0123456789abcdefghijklmnopqrstuvwxyz"
        let request = HTTPRequest.form(
            URL(string: "\(org)/oauth2/default/v1/token")!,
            fields: [("grant_type", "authorization_code"), ("code", "c0de"), ("code_verifier", verifier)])
        let lines = Locked<[String]>([])
        let stream = CurlScript(write: { line in lines.withLock { $0.append(line) } })
        let transport = ScriptedTransport([.json(500, #"{"error":"server_error"}"#), .failure(URLError(.networkConnectionLost))])
        let client = HTTPClient(transport: transport, retryPolicy: RetryPolicy(maxRetries: 0), curl: stream)
        _ = try? await client.send(request)
        _ = try? await client.send(request)
        #expect(!stream.text.contains(verifier), "\(stream.text)")
        #expect(!lines.current.joined().contains(verifier))
        #expect(stream.text.contains("# → 500"))
    }

    @Test func aMissingSecretStopsTheScriptSayingWhereItComesFrom() async throws {
        var request = HTTPRequest.get(URL(string: "\(org)/api/v1/users/me")!)
        request.headers["Authorization"] = "SSWS \(apiToken)"
        let script = try await run([request], answers: [.json(200, "{}")])
        let curl = try FakeCurl()
        let result = try curl.run(script)
        #expect(result.status != 0)
        #expect(result.standardError.contains("the API token (env OKTA_CLIENT_TOKEN)"))
        #expect(!curl.exists("count"), "nothing was sent")
    }

    @Test func aFileIsPrivateAndHoldsWhatWasSentBeforeAFailure() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("curl-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("run.sh").path
        let script = try CurlScript(file: path)
        let client = HTTPClient(
            transport: ScriptedTransport([.json(200, "{}"), .failure(URLError(.cannotConnectToHost))]),
            retryPolicy: RetryPolicy(maxRetries: 0), curl: script)
        _ = try await client.send(.get(URL(string: "\(org)/one")!))
        await #expect(throws: IdFlowError.self) { try await client.send(.get(URL(string: "\(org)/two")!)) }
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("'\(org)/one'"))
        #expect(text.contains("'\(org)/two'"))
        #expect(text.contains("# → no answer: connection refused"))
    }
}

extension JSONValue {
    fileprivate var compactText: String {
        String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self)
    }
}
