import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

@testable import idflow

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `login-pkce --embedded` walking the recorded Identity Engine answers (Tests/Fixtures/okta-idx) as a
/// script would: identify → password challenge → interaction code → tokens.
struct EmbeddedLoginCommandTests {
    let configuration = [
        "--org-url", RecordedIdentityEngine.org, "--client-id", "0ZczewGCFPlxNYYcLq5i", "--redirect-uri", "com.example.app:/callback",
        "--scope",
        "profile offline_access",
    ]

    @Test func aScriptSignsInWithItsAnswersAndTheInteractionCode() async throws {
        let server = RecordedIdentityEngine.transport()
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
        #expect(identify.header("Content-Type") == IDX.ionJSON)
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
        let server = RecordedIdentityEngine.transport()
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
            transport: RecordedIdentityEngine.transport(), stdin: "wrong")
        #expect(result.exitCode == 4)
        #expect(result.stdout.isEmpty)
        #expect(result.error?["message"] == "Invalid code. Try again.")
    }

    @Test func anExpiredSessionIsAnAuthenticationFailureWithAHintToStartAgain() async {
        let result = await CLI.run(
            ["login-pkce", "--embedded", "--answer", "identifier=jo@example.com"] + configuration,
            transport: RecordedIdentityEngine.transport(introspect: "error-introspect-session-expired.json"))
        #expect(result.exitCode == 4)
        #expect(result.error?["message"] == "The session has expired.")
        #expect(result.error?["hint"]?.stringValue?.contains("start") == true)
    }

    @Test func aVerboseTraceShowsNoPasswordStateHandleOrInteractionCode() async {
        let result = await CLI.run(
            ["login-pkce", "--embedded", "--verbose", "--answer", "identifier=jo@example.com", "--answer", "credentials.passcode=@-"]
                + configuration, transport: RecordedIdentityEngine.transport(), stdin: "s3cret")
        #expect(result.exitCode == 0, "\(result.stderr)")
        for secret in ["s3cret", "ahc52KautBHCANs3ScZjLfRcxFjP_N5mqOTYouqHFP", "o9lcUQyfC0u6htHRipWDLtDG5vJc8sLK7ptqI8isQ-Q"] {
            #expect(!result.stderr.contains(secret))
        }
    }
}
