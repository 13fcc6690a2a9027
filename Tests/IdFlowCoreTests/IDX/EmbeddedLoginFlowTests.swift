import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `EmbeddedLogin` walking the recorded Identity Engine documents (01..05 of Tests/Fixtures/okta-idx) with a
/// script's answers: the tokens it ends with, the form it stops at, the server's refusal it reports.
@Suite struct EmbeddedLoginFlowTests {
    static let clientID = "0ZczewGCFPlxNYYcLq5i"
    let server = FakeAuthorizationServer(org: RecordedIdentityEngine.org, clientID: EmbeddedLoginFlowTests.clientID)

    func context(_ transport: RoutedTransport) -> IdFlowContext {
        var configuration = TestContext.configuration(org: RecordedIdentityEngine.org)
        configuration.clientID = Self.clientID
        configuration.redirectURI = "com.example.app:/callback"
        configuration.scope = "openid profile offline_access"
        // TestContext's console is never a terminal: a missing answer stops the walk instead of prompting.
        return TestContext.make(transport: transport, configuration: configuration)
    }

    /// The recorded Identity Engine, its token endpoint answering the recorded token response (05) with an ID
    /// token for the nonce this run's interact request carried, and the keys that token is checked against.
    func identityEngine(
        passed: String = "04-success-with-interaction-code.json", issuedAt: Date? = nil,
        more: @escaping @Sendable (HTTPRequest) -> RoutedTransport.Reply? = { _ in nil }
    ) throws -> RoutedTransport {
        let recorded = try JSONValue(data: try Fixtures.data("okta-idx/05-token-response.json"))
        let nonce = Locked<String?>(nil)
        return RecordedIdentityEngine.transport(passed: passed) { [server] request in
            if let reply = more(request) { return reply }
            switch request.route {
            case "POST /oauth2/default/v1/interact":
                nonce.withLock { $0 = request.formBody["nonce"] }
                return nil
            case "GET /oauth2/default/v1/keys":
                return server.keys
            case "POST /oauth2/auszsfkYrgGCTilsV2o4/v1/token":
                let tokens = recorded.setting("id_token", to: .string(server.idToken(nonce: nonce.current, issuedAt: issuedAt ?? Date())))
                // swift-format-ignore: NeverUseForceTry
                return .init(status: 200, headers: ["Content-Type": "application/json"], body: try! JSONEncoder().encode(tokens))
            default:
                return nil
            }
        }
    }

    @Test func identifyThenPasswordThenTheInteractionCodeGivesValidatedTokens() async throws {
        let transport = try identityEngine()
        let context = self.context(transport)
        let answers = IDX.AnswerSet(["identifier": "jo@example.com", "credentials.passcode": "s3cret"])
        let output = try await EmbeddedLogin(answers: answers).run(context)

        let recorded = try JSONValue(data: try Fixtures.data("okta-idx/05-token-response.json"))
        #expect(output.response.accessToken == recorded["access_token"]?.stringValue)
        #expect(output.response.refreshToken == "CCY4M4fR3")
        #expect(output.idTokenClaims?["sub"] == "00u1")
        #expect(transport.requests.first { $0.route.hasSuffix("/identify") }?.jsonBody?["identifier"] == "jo@example.com")
        #expect(transport.requests.first { $0.route.hasSuffix("/challenge/answer") }?.jsonBody?["credentials"]?["passcode"] == "s3cret")
        let token = try #require(transport.requests.last { $0.route.hasSuffix("/v1/token") })
        #expect(token.formBody["grant_type"] == "interaction_code")
        #expect(token.formBody["interaction_code"] == "o9lcUQyfC0u6htHRipWDLtDG5vJc8sLK7ptqI8isQ-Q")
        let stored = try TokenStore(directory: context.configuration.profileDirectory).load()
        #expect(stored?.tokens.refreshToken == "CCY4M4fR3")
    }

    @Test func aMissingAnswerStopsWithThePendingFormThatNamesIt() async throws {
        let transport = try identityEngine()
        let context = self.context(transport)
        let error = await failure { () throws(IdFlowError) in
            try await EmbeddedLogin(answers: IDX.AnswerSet(["identifier": "jo@example.com"])).run(context)
        }

        #expect(error?.exitStatus == .rejected)
        #expect(error?.exitStatus.rawValue == 3)
        guard let pending = error?.idxPending else {
            Issue.record("expected the pending form, got \(String(describing: error))")
            return
        }
        #expect(pending.remediation == "challenge-authenticator")
        #expect(pending.fields.map(\.name) == ["credentials.passcode"])
        #expect(pending.fields.first?.secret == true)
        #expect(pending.transaction?.isEmpty == false, "the walk can be resumed")
        #expect(!transport.requests.contains { $0.route.hasSuffix("/challenge/answer") || $0.route.hasSuffix("/v1/token") })
        #expect(try TokenStore(directory: context.configuration.profileDirectory).load() == nil)
    }

    /// `--answer identifer=…` (a typo) is not ignored in silence while the flow stops for `identifier`.
    @Test func aMisspeltAnswerIsAUsageErrorNamingTheFieldsItCouldHaveBeen() async throws {
        let transport = try identityEngine()
        let context = self.context(transport)
        let error = await failure { () throws(IdFlowError) in
            try await EmbeddedLogin(answers: IDX.AnswerSet(["identifer": "jo@example.com", "credentials.passcode": "s3cret"])).run(context)
        }
        #expect(error?.exitStatus == .usage)
        #expect(error?.message.hasPrefix("--answer identifer (did you mean \"identifier\"?) matches no field of identify") == true)
        #expect(error?.hint?.contains("identifier") == true)
        #expect(!transport.requests.contains { $0.route.hasSuffix("/identify") }, "nothing was sent for the misspelt form")
    }

    /// An answer meant for a later form (the password, given before the identifier is asked) is not a mistake.
    @Test func anAnswerForALaterFormStillStopsWithThePendingForm() async throws {
        let transport = try identityEngine()
        let context = self.context(transport)
        let error = await failure { () throws(IdFlowError) in
            try await EmbeddedLogin(answers: IDX.AnswerSet(["credentials.passcode": "s3cret"])).run(context)
        }
        guard let pending = error?.idxPending else {
            Issue.record("expected the pending form, got \(String(describing: error))")
            return
        }
        #expect(pending.remediation == "identify")
    }

    @Test func aWrongPasswordIsReportedInTheServersWordsAndNothingStored() async throws {
        let transport = try identityEngine()
        let context = self.context(transport)
        let answers = IDX.AnswerSet(["identifier": "jo@example.com", "credentials.passcode": "wrong"])
        let error = await failure { () throws(IdFlowError) in try await EmbeddedLogin(answers: answers).run(context) }

        #expect(error?.exitStatus == .authentication)
        #expect(error?.message == "Invalid code. Try again.")
        #expect(!transport.requests.contains { $0.route.hasSuffix("/v1/token") })
        #expect(try TokenStore(directory: context.configuration.profileDirectory).load() == nil)
    }
}
