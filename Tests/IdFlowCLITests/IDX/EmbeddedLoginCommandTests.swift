import Foundation
import IdFlowCore
import IdFlowTestSupport
import Testing

@testable import idflow

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `login-pkce --embedded` walking the recorded Identity Engine answers (Tests/Fixtures/okta-idx) as a
/// script would: identify → password challenge → interaction code → tokens.
struct EmbeddedLoginCommandTests {
    static let org = "https://example.com"
    static let issuer = "\(org)/oauth2/default"
    static let expiresAt = ISO8601.string(Date().addingTimeInterval(600))
    let configuration = [
        "--org-url", Self.org, "--client-id", "0ZczewGCFPlxNYYcLq5i", "--redirect-uri", "com.example.app:/callback", "--scope",
        "profile offline_access",
    ]

    /// A recorded document as the org at `org` would send it: the recordings come from several fake hosts, and
    /// idflow follows hrefs on the issuer's host only.
    static func fixture(_ name: String, status: Int = 200) -> RoutedTransport.Reply {
        var text = String(decoding: (try? Fixtures.data("okta-idx/\(name)")) ?? Data(), as: UTF8.self)
        for host in ["https://foo.oktapreview.com", "https://foo.okta.com", "https://ios-idx-sdk.okta.com"] {
            text = text.replacingOccurrences(of: host, with: org)
        }
        // The recordings expired years ago; a kept transaction past its expiresAt is not resumed.
        text = text.replacingOccurrences(
            of: #""expiresAt"\s*:\s*"[^"]*""#, with: "\"expiresAt\":\"\(expiresAt)\"", options: .regularExpression)
        return RoutedTransport.Reply(status: status, headers: ["Content-Type": IDX.ionJSON], body: Data(text.utf8))
    }

    /// The recorded password sign-in; `introspect` replaces the first document (an expired session), `passed`
    /// the answer to the right password, and `more` answers first (the second factor's routes).
    static func identityEngine(
        introspect: String = "02-introspect-identify.json", passed: String = "04-success-with-interaction-code.json",
        more: @escaping @Sendable (URLRequest) -> RoutedTransport.Reply? = { _ in nil }
    ) -> RoutedTransport {
        RoutedTransport { request in
            if let reply = more(request) { return reply }
            switch request.route {
            case "GET /oauth2/default/.well-known/openid-configuration":
                return .json(
                    200,
                    """
                    {"issuer":"\(issuer)","authorization_endpoint":"\(issuer)/v1/authorize","token_endpoint":"\(issuer)/v1/token",
                    "jwks_uri":"\(issuer)/v1/keys","response_types_supported":["code"],"subject_types_supported":["public"],
                    "id_token_signing_alg_values_supported":["RS256"],"code_challenge_methods_supported":["S256"]}
                    """)
            case "POST /oauth2/default/v1/interact": return fixture("01-interact-response.json")
            case "POST /idp/idx/introspect": return fixture(introspect, status: introspect.hasPrefix("error") ? 401 : 200)
            case "POST /idp/idx/identify": return fixture("03-challenge-authenticator-password.json")
            case "POST /idp/idx/challenge/answer":
                let passcode = request.jsonBody?["credentials"]?["passcode"]?.stringValue
                return passcode == "s3cret" ? fixture(passed) : fixture("error-challenge-invalid-passcode.json", status: 401)
            case "POST /oauth2/auszsfkYrgGCTilsV2o4/v1/token":
                return .json(
                    200, "{\"token_type\":\"Bearer\",\"expires_in\":3600,\"access_token\":\"at1\",\"scope\":\"profile offline_access\"}")
            default: return nil
            }
        }
    }

    @Test func aScriptSignsInWithItsAnswersAndTheInteractionCode() async throws {
        let server = Self.identityEngine()
        let result = await CLI.run(
            ["login-pkce", "--embedded", "--answer", "identifier=jo@example.com", "--answer", "credentials.passcode=@-"] + configuration,
            transport: server, stdin: "s3cret\n")
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.json?["access_token"] == "at1")

        let interact = try #require(server.requests.first { $0.route.hasSuffix("/interact") })
        #expect(interact.formBody["code_challenge_method"] == "S256")
        #expect(interact.formBody["state"]?.isEmpty == false && interact.formBody["nonce"]?.isEmpty == false)
        let introspect = try #require(server.requests.first { $0.route.hasSuffix("/introspect") })
        #expect(introspect.jsonBody?["interactionHandle"] == "BEhBiG3udfRv8l2D6Orym_gfhqVcJfaZ1nMeJuFhKWE")
        let identify = try #require(server.requests.first { $0.route.hasSuffix("/identify") })
        #expect(identify.value(forHTTPHeaderField: "Content-Type") == IDX.ionJSON)
        #expect(identify.jsonBody?["identifier"] == "jo@example.com")
        #expect(identify.jsonBody?["stateHandle"] == "ahc52KautBHCANs3ScZjLfRcxFjP_N5mqOTYouqHFP")
        #expect(identify.jsonBody?["credentials"] == nil, "the password goes only to the challenge")
        let token = try #require(server.requests.last)
        #expect(token.formBody["grant_type"] == "interaction_code")
        #expect(token.formBody["interaction_code"] == "o9lcUQyfC0u6htHRipWDLtDG5vJc8sLK7ptqI8isQ-Q")
        #expect(token.formBody["client_secret"] == nil)
        let verifier = try #require(token.formBody["code_verifier"])
        #expect(try PKCEPair(verifier: verifier).challenge == interact.formBody["code_challenge"])
    }

    @Test func aMissingAnswerPrintsThePendingFormAndExits3() async throws {
        let server = Self.identityEngine()
        let result = await CLI.run(
            ["login-pkce", "--embedded", "--answer", "identifier=jo@example.com", "--compact"] + configuration, transport: server)
        #expect(result.exitCode == 3)
        let pending = try #require(result.json)
        #expect(pending["remediation"] == "challenge-authenticator")
        #expect(pending["transaction"]?.stringValue?.isEmpty == false)
        #expect(pending["messages"] == .array([]))
        let field = try #require(pending["fields"]?.arrayValue?.first)
        #expect(field["name"] == "credentials.passcode")
        #expect(field["label"] == "Password")
        #expect(field["secret"] == .bool(true))
        #expect(result.error?["kind"] == "answer_required")
        #expect(!server.requests.contains { $0.route.hasSuffix("/challenge/answer") || $0.route.hasSuffix("/token") })
    }

    @Test func aWrongPasswordIsAnAuthenticationFailureWithTheServersWords() async {
        let result = await CLI.run(
            ["login-pkce", "--embedded", "--answer", "identifier=jo@example.com", "--answer", "credentials.passcode=@-"] + configuration,
            transport: Self.identityEngine(), stdin: "wrong")
        #expect(result.exitCode == 4)
        #expect(result.stdout.isEmpty)
        #expect(result.error?["message"] == "Invalid code. Try again.")
    }

    @Test func anExpiredSessionIsAnAuthenticationFailureWithAHintToStartAgain() async {
        let result = await CLI.run(
            ["login-pkce", "--embedded", "--answer", "identifier=jo@example.com"] + configuration,
            transport: Self.identityEngine(introspect: "error-introspect-session-expired.json"))
        #expect(result.exitCode == 4)
        #expect(result.error?["message"] == "The session has expired.")
        #expect(result.error?["hint"]?.stringValue?.contains("start") == true)
    }

    @Test func aVerboseTraceShowsNoPasswordStateHandleOrInteractionCode() async {
        let result = await CLI.run(
            ["login-pkce", "--embedded", "--verbose", "--answer", "identifier=jo@example.com", "--answer", "credentials.passcode=@-"]
                + configuration, transport: Self.identityEngine(), stdin: "s3cret")
        #expect(result.exitCode == 0, "\(result.stderr)")
        for secret in ["s3cret", "ahc52KautBHCANs3ScZjLfRcxFjP_N5mqOTYouqHFP", "o9lcUQyfC0u6htHRipWDLtDG5vJc8sLK7ptqI8isQ-Q"] {
            #expect(!result.stderr.contains(secret))
        }
    }
}
