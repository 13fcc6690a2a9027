import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// The engine reads every recorded Identity Engine answer (Tests/Fixtures/okta-idx) and sends forms
/// the way idx.md §4 says.
struct IDXDocumentTests {
    /// The recordings that are not IDX documents: the interact answers and the token response.
    static let notDocuments: Set<String> = ["01-interact-response.json", "error-interact.json", "05-token-response.json"]

    /// Recordings with a flaw the engine refuses (okta-idx-dotnet's mock has a cancel href without a scheme,
    /// `fake.example.com/idp/idx/cancel`, which a client must not follow).
    static let malformed: [String: String] = ["recovery-reset-authenticator.json": "the cancel href has no scheme"]

    static func document(_ file: String) throws -> IDX.Document {
        try IDX.Document(data: Fixtures.data("okta-idx/\(file)"))
    }

    static func response(_ file: String, status: Int = 200) throws -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["Content-Type": "application/json"], body: try Fixtures.data("okta-idx/\(file)"),
            url: URL(string: "https://example.com/x")!)
    }

    @Test func everyRecordingIsRead() throws {
        let files = try Fixtures.files(in: "okta-idx")
        #expect(files.count >= 17)
        for file in files where !Self.notDocuments.contains(file) {
            if let flaw = Self.malformed[file] {
                // Refused rather than followed: the recording itself is broken.
                #expect(throws: IdFlowError.self, "\(file): \(flaw)") { try Self.document(file) }
                continue
            }
            let document = try Self.document(file)
            #expect(document.version == "1.0.0", "\(file)")
            guard let stateHandle = document.stateHandle else {
                // Only a messages-only document (an expired session) has no state handle.
                #expect(document.remediations.isEmpty && !document.messages.isEmpty, "\(file)")
                continue
            }
            // Terminal documents (a rate-limit message, recovery completed) carry a state handle but no form at all.
            #expect(document.cancel?.name == "cancel" || document.remediations.isEmpty, "\(file)")
            for form in document.remediations + [document.cancel].compactMap(\.self) {
                // The sign-in widget's recorded mocks were served from http://localhost:3000; every other href is https.
                #expect(form.href.scheme == "https" || form.href.host == "localhost", "\(file) \(form.name)")
                // With no answers at all, every form still carries its hidden state handle (one recording's forms
                // carry an older handle than the document's own, so the form's value is what is sent).
                let filled = form.fill(IDX.AnswerSet(), in: document)
                let hidden = form.fields.first { $0.name == "stateHandle" }
                if form.method == "POST" {
                    #expect(hidden?.visible == false && hidden?.mutable == false, "\(file) \(form.name)")
                    #expect(filled.body["stateHandle"] == hidden?.value, "\(file) \(form.name)")
                }
                #expect(!stateHandle.isEmpty)
                #expect(filled.inputs.allSatisfy { $0.name != "stateHandle" }, "\(file): the state handle is never asked for")
            }
        }
    }

    @Test func theNonDocumentRecordingsAreReadByTheirOwnRequests() throws {
        let interact = IDX.InteractRequest(
            url: URL(string: "https://example.com/oauth2/default/v1/interact")!, client: ClientCredentials(clientID: "c"),
            redirectURI: "x:/cb", scope: "openid", pkce: .generate(), state: "s", nonce: "n")
        #expect(try interact.decode(Self.response("01-interact-response.json")) == "BEhBiG3udfRv8l2D6Orym_gfhqVcJfaZ1nMeJuFhKWE")
        #expect(throws: IdFlowError.self) { try interact.decode(Self.response("error-interact.json", status: 400)) }
        let tokens = try JSONDecoder().decode(TokenResponse.self, from: Fixtures.data("okta-idx/05-token-response.json"))
        #expect(tokens.refreshToken == "CCY4M4fR3")
    }

    @Test func aPasswordChallengeIsSentAsANestedCredentialsObject() throws {
        let document = try Self.document("03-challenge-authenticator-password.json")
        let form = try #require(document.remediations.first)
        #expect(form.name == "challenge-authenticator")
        let unanswered = form.fill(IDX.AnswerSet(), in: document)
        #expect(!unanswered.isComplete)
        #expect(unanswered.inputs == [IDX.PendingField(name: "credentials.passcode", label: "Password", required: true, secret: true)])

        let filled = form.fill(IDX.AnswerSet(["credentials.passcode": "s3cret"]), in: document)
        #expect(filled.isComplete && filled.tookInput)
        #expect(filled.used == ["credentials.passcode"])
        #expect(
            filled.body == [
                "credentials": .object(["passcode": .string("s3cret")]),
                "stateHandle": .string("ahc52KautBHCANs3ScZjLfRcxFjP_N5mqOTYouqHFP"),
            ])
        let request = try IDX.ProceedRequest(form: form, body: filled.body).httpRequest()
        #expect(request.url.absoluteString == "https://example.com/idp/idx/challenge/answer")
        #expect(request.headers["Content-Type"] == "application/ion+json; okta-version=1.0.0")
        #expect(request.headers["Accept"] == IDX.ionJSON)
    }

    @Test func identifyTakesTheUsernameAndABooleanFromText() throws {
        let document = try Self.document("02-introspect-identify.json")
        let form = try #require(document.remediations.first)
        let filled = form.fill(IDX.AnswerSet(["identifier": "jo@example.com", "rememberMe": "true"]), in: document)
        #expect(filled.body["identifier"] == .string("jo@example.com"))
        #expect(filled.body["rememberMe"] == .bool(true))
        #expect(filled.inputs.map(\.name) == ["identifier", "rememberMe"])
    }

    @Test(arguments: ["email", "Email", "EMAIL"])
    func anAuthenticatorIsChosenByLabelOrMethodTypeAndItsIdsCopiedThrough(answer: String) throws {
        let document = try Self.document("select-authenticator-authenticate.json")
        let form = try #require(document.remediations.first)
        let filled = form.fill(IDX.AnswerSet(["authenticator": answer]), in: document)
        #expect(filled.body["authenticator"] == .object(["id": .string("aut3jya5v1oIgaLuV0g7"), "methodType": .string("email")]))
        #expect(filled.inputs.first?.options == ["Email", "Password", "Security Question"])
        let unknown = form.fill(IDX.AnswerSet(["authenticator": "carrier pigeon"]), in: document)
        #expect(!unknown.isComplete || unknown.body["authenticator"] == nil)
    }

    @Test func relatesToIsResolvedLiterally() throws {
        let document = try Self.document("03-challenge-authenticator-password.json")
        #expect(document.resolve("$.currentAuthenticatorEnrollment")?["id"] == .string("lae609uDthwWF3VvV2o4"))
        #expect(document.resolve("$.authenticators.value[0]")?["type"] == .string("password"))
        #expect(document.resolve("$.authenticators.value[9]") == nil)
        #expect(document.resolve("authenticators") == nil)
    }

    @Test func errorsAreFoundAtTheTopAndInFields() throws {
        #expect(try Self.document("error-identify-authentication-failed.json").errors.map(\.key) == ["errors.E0000004"])
        #expect(try Self.document("error-challenge-invalid-passcode.json").errors.map(\.key) == ["api.authn.error.PASSCODE_INVALID"])
        #expect(try Self.document("error-introspect-session-expired.json").errors.map(\.key) == ["idx.session.expired"])
        #expect(try Self.document("error-enroll-profile-field.json").errors.allSatisfy { $0.key?.hasPrefix("registration.error") == true })
        // Inside the options of the security question's `credentials` (both ways to enroll carry it).
        let tooShort = try Self.document("error-security-question-enroll-answer-too-short.json").errors
        #expect(tooShort.first?.key == "securityQuestion.answer.tooShort.arg")
        #expect(tooShort.first?.message == "The security question answer must be at least 4 characters in length")
    }

    @Test func theSuccessFormBecomesAnInteractionCodeGrantWithoutAnEmptySecret() throws {
        let document = try Self.document("04-success-with-interaction-code.json")
        let success = try #require(document.successWithInteractionCode)
        let request = try IDX.InteractionCodeTokenRequest(
            form: success, client: ClientCredentials(clientID: "0ZczewGCFPlxNYYcLq5i"), verifier: "v"
        ).httpRequest()
        #expect(request.url.absoluteString == "https://example.com/oauth2/auszsfkYrgGCTilsV2o4/v1/token")
        let form = Dictionary(uniqueKeysWithValues: FormEncoding.decode(String(decoding: request.body ?? Data(), as: UTF8.self)))
        #expect(
            form == [
                "grant_type": "interaction_code", "interaction_code": "o9lcUQyfC0u6htHRipWDLtDG5vJc8sLK7ptqI8isQ-Q",
                "code_verifier": "v", "client_id": "0ZczewGCFPlxNYYcLq5i",
            ])
        #expect(throws: IdFlowError.self) {
            try IDX.InteractionCodeTokenRequest(form: success, client: ClientCredentials(clientID: "other"), verifier: "v").httpRequest()
        }
    }

    @Test func endpointsFollowTheIssuerRule() {
        #expect(
            IDX.interactURL(issuer: URL(string: "https://o.example.com/oauth2/default")!).absoluteString
                == "https://o.example.com/oauth2/default/v1/interact")
        #expect(IDX.interactURL(issuer: URL(string: "https://o.example.com")!).absoluteString == "https://o.example.com/oauth2/v1/interact")
        #expect(
            IDX.introspectURL(issuer: URL(string: "https://o.example.com:8443/oauth2/default")!).absoluteString
                == "https://o.example.com:8443/idp/idx/introspect")
    }
}

@Suite struct IDXAnswerSetTests {
    static func reader(stdin: String = "") -> SecretReader {
        SecretReader(readStandardInput: { Data(stdin.utf8) }, environment: [:], warn: { _ in })
    }

    @Test func answersComeFromArgumentsFilesAndStandardInput() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("idx-answer-\(UUID().uuidString)")
        try "from-file\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let answers = try IDX.AnswerSet.parse(
            ["identifier=jo@example.com", "credentials.passcode=@-", "userProfile.note=@\(file.path)", "x=a=b"],
            reader: Self.reader(stdin: "pw\n"))
        #expect(answers["identifier"] == "jo@example.com")
        #expect(answers["credentials.passcode"] == "pw")
        #expect(answers["userProfile.note"] == "from-file")
        #expect(answers["x"] == "a=b")
    }

    @Test(arguments: [["novalue"], ["=v"], ["a=@-", "b=@-"], ["a=1", "a=2"]])
    func malformedAnswersAreUsageErrors(arguments: [String]) {
        #expect(throws: IdFlowError.self) { try IDX.AnswerSet.parse(arguments, reader: Self.reader(stdin: "x")) }
    }

    @Test func aSpentAnswerIsNotOfferedAgain() {
        var answers = IDX.AnswerSet(["credentials.passcode": "pw", "identifier": "jo"])
        answers.spend(["credentials.passcode"])
        #expect(answers["credentials.passcode"] == nil)
        #expect(answers.names == ["identifier"])
    }
}
