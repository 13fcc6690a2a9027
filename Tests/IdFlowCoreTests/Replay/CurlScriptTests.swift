import Foundation
import IdFlowCore
import IdFlowFoundation
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
        let client = HTTPClient(transport: transport, retryPolicy: RetryPolicy(maxRetries: 0), observer: script)
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
        let result = try await curl.run(script, environment: ["PASSWORD": password, "OKTA_CLIENT_TOKEN": apiToken])
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
        let result = try await curl.run(script, environment: ["PASSWORD": password, "OKTA_CLIENT_TOKEN": apiToken, "PASS_CODE": "123456"])
        #expect(result.status == 0, "\(result.standardError)\n\(script)")
        #expect(try JSONValue(data: Data((curl.recorded("2.body") ?? "").utf8))["stateToken"] == "replayState")
        #expect(curl.recorded("3.config")?.contains("sessionToken=replaySession&") == true)
        let argv = curl.recorded("argv") ?? ""
        for secret in [apiToken, password, "replayState", "replaySession"] {
            #expect(!argv.contains(secret), "\(secret) was on curl's command line")
        }
        #expect(result.output.contains("1 200\n2 200\n3 200"))
    }

    /// Values a replay reads from answers reach curl's `-K` config (a URL with a secret) and `-H @file` headers. A
    /// server that answers one holding a quote and new lines would add curl options there (`output = …` writes a
    /// file) or headers: the script refuses it before curl runs, saying which value and why.
    @Test(arguments: [
        "x\"\noutput = \"PWNED-CONFIG\"\nurl = \"https://attacker.example/",
        "x\r\nX-Injected: 1", "back\\slash", "tab\there", "del\u{7F}",
    ])
    func aValueFromAnAnswerThatCouldAddCurlOptionsStopsTheReplay(hostile: String) async throws {
        let token = URL(string: "\(org)/oauth2/default/v1/token")!
        var userinfo = HTTPRequest.get(URL(string: "\(org)/oauth2/default/v1/userinfo")!)
        userinfo.headers["Authorization"] = "Bearer PlantedAccessToken-0123456789"
        let requests = [
            try HTTPRequest.json("POST", URL(string: "\(org)/api/v1/authn")!, body: ["username": "jo", "password": password]),
            HTTPRequest.get(URL(string: "\(org)/oauth2/default/v1/authorize?client_id=c&sessionToken=PlantedSession-0123&state=s")!),
            HTTPRequest.form(token, fields: [("grant_type", "client_credentials")]), userinfo,
        ]
        let script = try await run(
            requests,
            answers: [
                .json(200, #"{"status":"SUCCESS","sessionToken":"PlantedSession-0123"}"#), .json(400, "{}"),
                .json(200, #"{"access_token":"PlantedAccessToken-0123456789"}"#), .json(200, "{}"),
            ])
        #expect(script.contains("-K <("), "the authorize URL carries the session token: \(script)")
        #expect(script.contains("-H @<("), "the access token goes in a header file: \(script)")

        // Replayed with the hostile value in the first answer: curl runs once, for that request, and no more.
        let curl = try FakeCurl()
        try curl.answer(1, json: JSONValue.object(["sessionToken": .string(hostile)]).compactText)
        let result = try await curl.run(script, environment: ["PASSWORD": password])
        #expect(result.status == 65, "\(result.standardError)\n\(script)")
        #expect(result.standardError.contains("idflow replay: stopped: SESSION_TOKEN, read from an answer, holds a quote"))
        #expect(curl.recorded("count") == "1\n", "only the request before the hostile answer was sent")
        #expect(!curl.exists("2.config"))

        // The same for the access token of the third answer, which the fourth request sends as a header.
        let second = try FakeCurl()
        try second.answer(1, json: #"{"sessionToken":"replaySession"}"#)
        try second.answer(3, json: JSONValue.object(["access_token": .string(hostile)]).compactText)
        let stopped = try await second.run(script, environment: ["PASSWORD": password])
        #expect(stopped.status == 65, "\(stopped.standardError)\n\(script)")
        #expect(stopped.standardError.contains("ACCESS_TOKEN, read from an answer"))
        #expect(second.recorded("count") == "3\n", "the request that would send it as a header was not")
        #expect(second.recorded("2.config")?.contains("sessionToken=replaySession&") == true, "a plain value passes")
    }

    /// A URL naming only what an earlier POST created (not a secret) is one argv word, which no value in it can
    /// turn into more curl options; no `-K` config is written for it.
    @Test func aURLWithoutASecretIsOneArgument() async throws {
        var create = try HTTPRequest.json("POST", URL(string: "\(org)/api/v1/users")!, body: ["profile": ["login": "jo"]])
        create.headers["Authorization"] = "SSWS \(apiToken)"
        var activate = HTTPRequest(method: "POST", url: URL(string: "\(org)/api/v1/users/00uCreatedUser1/lifecycle/activate")!)
        activate.headers["Authorization"] = "SSWS \(apiToken)"
        let script = try await run([create, activate], answers: [.json(200, #"{"id":"00uCreatedUser1"}"#), .json(200, "{}")])
        #expect(script.contains(#"'\#(org)/api/v1/users/'"$USER_ID"'/lifecycle/activate'"#), "\(script)")
        #expect(!script.contains("-K"), "\(script)")
        let curl = try FakeCurl()
        try curl.answer(1, json: #"{"id":"00uReplayed2"}"#)
        let result = try await curl.run(script, environment: ["OKTA_CLIENT_TOKEN": apiToken])
        #expect(result.status == 0, "\(result.standardError)\n\(script)")
        #expect(curl.recorded("2.url") == "\(org)/api/v1/users/00uReplayed2/lifecycle/activate")
    }

    /// A proxy with credentials in its URL: the script names them only as `PROXY_USERINFO`, read from the
    /// environment like the API token, and curl reads the whole proxy URL from a config no `ps` shows.
    @Test func theProxysCredentialsAreAVariable() async throws {
        let proxy = "http://jo:s3cr%40t@proxy.example:3128"
        let lines = Locked<[String]>([])
        let stream = CurlScript(write: { line in lines.withLock { $0.append(line) } }, transport: .init(proxy: proxy))
        let client = HTTPClient(transport: ScriptedTransport([.json(200, "{}")]), retryPolicy: RetryPolicy(maxRetries: 0), observer: stream)
        _ = try await client.send(.get(URL(string: "\(org)/api/v1/users/me")!))
        let script = lines.current.joined(separator: "\n")
        #expect(!script.contains("s3cr"), "\(script)")
        #expect(script.contains(#"export PROXY_USERINFO="${PROXY_USERINFO:?the user name and password of the proxy"#), "\(script)")
        #expect(stream.text.contains("export PROXY_USERINFO="), "the file form declares it too")
        let curl = try FakeCurl()
        let result = try await curl.run(script, environment: ["PROXY_USERINFO": "jo:s3cr%40t"])
        #expect(result.status == 0, "\(result.standardError)\n\(script)")
        #expect(curl.recorded("1.config") == "proxy = \"\(proxy)\"\n")
        #expect(!(curl.recorded("argv") ?? "").contains("s3cr"), "not on curl's command line")
    }

    /// The script goes through the proxy where idflow did and nowhere else: a host `NO_PROXY` exempts (and loopback)
    /// is replayed with `--noproxy '*'`, so curl's own reading of the list or of the environment cannot differ.
    @Test func theScriptUsesTheProxyExactlyWhereIdflowDid() async throws {
        let lines = Locked<[String]>([])
        let options = CurlTransport.Options(proxy: "http://proxy.example:3128", noProxy: "*.okta.com")
        let stream = CurlScript(write: { line in lines.withLock { $0.append(line) } }, transport: options)
        let client = HTTPClient(
            transport: ScriptedTransport([.json(200, "{}"), .json(200, "{}"), .json(200, "{}")]), retryPolicy: RetryPolicy(maxRetries: 0),
            observer: stream)
        _ = try await client.send(.get(URL(string: "\(org)/api/v1/users/me")!))
        _ = try await client.send(.get(URL(string: "https://api.example.net/orders")!))
        _ = try await client.send(.get(URL(string: "http://127.0.0.1:8080/callback")!))
        let commands: [String] = Array(stream.text.components(separatedBy: "# request ").dropFirst())
        #expect(commands.count == 3, "\(stream.text)")
        guard commands.count == 3 else { return }
        #expect(commands[0].contains("--noproxy '*'") && !commands[0].contains("proxy.example"), "exempt: \(commands[0])")
        #expect(commands[1].contains("--proxy 'http://proxy.example:3128'") && !commands[1].contains("--noproxy"), "\(commands[1])")
        #expect(commands[2].contains("--noproxy '*'") && !commands[2].contains("proxy.example"), "loopback: \(commands[2])")
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
        let result = try await curl.run(
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
        let transport = ScriptedTransport([.json(500, #"{"error":"server_error"}"#), .failure(TransportFailure(.networkConnectionLost))])
        let client = HTTPClient(transport: transport, retryPolicy: RetryPolicy(maxRetries: 0), observer: stream)
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
        let result = try await curl.run(script)
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
            transport: ScriptedTransport([.json(200, "{}"), .failure(TransportFailure(.cannotConnectToHost))]),
            retryPolicy: RetryPolicy(maxRetries: 0), observer: script)
        _ = try await client.send(.get(URL(string: "\(org)/one")!))
        await #expect(throws: IdFlowError.self) { try await client.send(.get(URL(string: "\(org)/two")!)) }
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("'\(org)/one'"))
        #expect(text.contains("'\(org)/two'"))
        #expect(text.contains("# → no answer: connection refused"))
    }

    /// The file is refused, not written, when it belongs to someone else (who could read the script's secrets) or is
    /// no regular file (a FIFO without a reader once hung the open); an existing file of ours is made 0600.
    @Test func aFileOfAnotherUserOrNoRegularFileIsRefused() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("curl-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func refusal(_ path: String) -> String? {
            do throws(IdFlowError) {
                _ = try CurlScript(file: path)
                return nil
            } catch {
                return error.message
            }
        }

        let fifo = directory.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(refusal(fifo)?.contains("cannot write the --curl-file \(fifo)") == true)

        let ours = directory.appendingPathComponent("ours.sh").path
        #expect(FileManager.default.createFile(atPath: ours, contents: Data("old".utf8), attributes: [.posixPermissions: 0o644]))
        #expect(refusal(ours) == nil)
        #expect((try FileManager.default.attributesOfItem(atPath: ours)[.posixPermissions] as? Int) == 0o600)

        // Only root can give a file away; CI runs as root.
        if geteuid() == 0 {
            let theirs = directory.appendingPathComponent("theirs.sh").path
            #expect(FileManager.default.createFile(atPath: theirs, contents: Data("theirs".utf8), attributes: [.posixPermissions: 0o644]))
            #expect(chown(theirs, 65534, 65534) == 0)
            #expect(refusal(theirs)?.contains("belongs to another user (uid 65534)") == true)
            #expect(try String(contentsOfFile: theirs, encoding: .utf8) == "theirs", "refused before it was emptied")
            #expect((try FileManager.default.attributesOfItem(atPath: theirs)[.posixPermissions] as? Int) == 0o644)
        }
    }
}

extension JSONValue {
    fileprivate var compactText: String {
        String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self)
    }
}
