import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// Every Direct Authentication recording (Tests/Fixtures/okta-directauth, copied from okta-mobile-swift's and
/// okta-mobile-kotlin's tests) read the way login-direct reads the answer it stands for, the negative ones refused.
@Suite struct DirectAuthRecordingTests {
    static let folder = "okta-directauth"
    static let client = ClientCredentials(clientID: "0oatestclient")

    static func response(_ file: String, status: Int) throws -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["Content-Type": "application/json"], body: try Fixtures.data("\(folder)/\(file)"),
            url: URL(string: "https://example.okta.com/oauth2/v1/token")!)
    }

    static func start(_ file: String) throws -> OOBStart {
        try OOBStart.parse(try Fixtures.data("\(folder)/\(file)"))
    }

    static func outcome(_ file: String, status: Int, grant: DirectAuthGrant = .oob, acrValues: String? = nil) throws
        -> DirectTokenRequest.Outcome
    {
        let request = DirectTokenRequest(
            endpoint: URL(string: "https://example.okta.com/oauth2/v1/token")!, client: client, grant: grant, scope: "openid",
            acrValues: acrValues, fields: [])
        return try request.decode(try response(file, status: status))
    }

    /// The recordings this suite reads, so one added to the folder without a test here fails.
    static let read: Set<String> = [
        "swift-directauth-primary-authenticate.json", "swift-directauth-primary-authenticate-binding-transfer.json",
        "swift-directauth-primary-authenticate-binding-transfer-missingCode.json", "swift-directauth-challenge-oob.json",
        "swift-directauth-challenge-oob-binding-transfer.json", "swift-directauth-challenge-oob-binding-transfer-missingCode.json",
        "kotlin-oob-authenticate-push-response.json", "kotlin-oob-authenticate-sms-response.json",
        "kotlin-oob-authenticate-voice-response.json", "kotlin-oob-authenticate-transfer-response.json",
        "kotlin-oob-authenticate-transfer-no-binding-code-response.json", "kotlin-oob-authenticate-email-response.json",
        "kotlin-oob-authenticate-invalid-binding-response.json", "swift-directauth-token-mfa_required.json", "kotlin-mfa-required.json",
        "kotlin-invalid-mfa-required.json", "swift-directauth-token.json", "kotlin-token-response.json", "swift-oauth2auth-token.json",
        "kotlin-oauth2-token-exchange-native-sso-response.json", "kotlin-authfoundation-token-with-device-secret.json",
        "swift-authfoundation-token-mfa_attestation.json", "swift-authfoundation-token-no_access_token.json",
        "kotlin-authorization-pending.json", "swift-oauth2auth-token-authorization_pending.json", "swift-oauth2auth-token-slow_down.json",
        "kotlin-oauth2-error.json", "kotlin-oob-authenticate-oauth2-error.json", "kotlin-server-error.json", "kotlin-unknown-type.json",
        "kotlin-api-error-with-causes.json", "kotlin-challenge-otp-response.json", "kotlin-challenge-webauthn-response.json",
        "kotlin-primary-authenticate-webauthn-response.json", "swift-directauth-challenge-webauthn.json",
        "swift-directauth-openid-configuration.json", "swift-directauth-keys.json",
    ]

    @Test func everyRecordingInTheFolderIsReadHere() throws {
        #expect(Set(try Fixtures.files(in: Self.folder)) == Self.read)
        let provenance = String(decoding: try Fixtures.data("\(Self.folder)/SOURCES.md"), as: UTF8.self)
        for file in Self.read { #expect(provenance.contains(file), "SOURCES.md names \(file)") }
    }

    @Test(arguments: [
        ("swift-directauth-primary-authenticate.json", OOBChannel.push, BindingMethod.none, nil as String?, 1 as Int?),
        ("swift-directauth-primary-authenticate-binding-transfer.json", .push, .transfer, "12", 1),
        ("swift-directauth-challenge-oob.json", .push, .none, nil, 1),
        ("swift-directauth-challenge-oob-binding-transfer.json", .push, .transfer, "12", 1),
        ("kotlin-oob-authenticate-push-response.json", .push, .none, nil, 5),
        ("kotlin-oob-authenticate-transfer-response.json", .push, .transfer, "95", 5),
        ("kotlin-oob-authenticate-sms-response.json", .sms, .prompt, nil, nil),
        ("kotlin-oob-authenticate-voice-response.json", .voice, .prompt, nil, nil),
    ])
    func outOfBandStartsAreRead(file: String, channel: OOBChannel, binding: BindingMethod, number: String?, interval: Int?) throws {
        let start = try Self.start(file)
        #expect(start.channel == channel)
        #expect(start.bindingMethod == binding)
        #expect(start.bindingCode == number)
        #expect(start.interval == interval)
        #expect(start.expiresIn == 120)
        #expect(!start.oobCode.isEmpty)
    }

    @Test(arguments: [
        ("swift-directauth-primary-authenticate-binding-transfer-missingCode.json", "no binding_code"),
        ("swift-directauth-challenge-oob-binding-transfer-missingCode.json", "no binding_code"),
        ("kotlin-oob-authenticate-transfer-no-binding-code-response.json", "no binding_code"),
        ("kotlin-oob-authenticate-email-response.json", "unknown channel email"),
        ("kotlin-oob-authenticate-invalid-binding-response.json", "unknown binding_method bluetooth"),
        ("kotlin-primary-authenticate-webauthn-response.json", "no oob_code"),
        ("kotlin-challenge-webauthn-response.json", "no oob_code"),
        ("swift-directauth-challenge-webauthn.json", "no oob_code"),
        // Read as JSONDecoder reads it everywhere in idflow (a trailing comma is let pass): still no oob_code.
        ("kotlin-malformed.invalid-json.txt", "no oob_code"),
    ])
    func startsTheSDKsRefuseAreRefused(file: String, reason: String) throws {
        #expect {
            _ = try OOBStart.parse(try Fixtures.data("\(Self.folder)/\(file)"))
        } throws: { error in
            guard let error = error as? IdFlowError, case .protocolViolation(let message) = error else { return false }
            return message.contains(reason)
        }
    }

    /// Okta answers `mfa_required` with 403, the SDKs' tests with 400: both are one.
    @Test(arguments: [400, 403])
    func mfaRequiredIsReadOnAny4xx(status: Int) throws {
        guard case .mfaRequired(let swift) = try Self.outcome("swift-directauth-token-mfa_required.json", status: status) else {
            Issue.record("not mfa_required")
            return
        }
        #expect(swift.mfaToken == "abcd1234")
        #expect(swift.supportedChallengeTypes == [DirectAuthGrant.mfaOTP.rawValue, DirectAuthGrant.mfaOOB.rawValue])
        #expect(try Self.outcome("kotlin-mfa-required.json", status: status) == .mfaRequired(MFARequired(mfaToken: "example_mfa_token")))
    }

    @Test func mfaRequiredWithoutItsTokenIsRefused() {
        #expect {
            _ = try Self.outcome("kotlin-invalid-mfa-required.json", status: 403)
        } throws: { error in
            guard let error = error as? IdFlowError, case .protocolViolation(let message) = error else { return false }
            return message.contains("mfa_token")
        }
    }

    @Test func pollingAnswersAreOutcomes() throws {
        #expect(try Self.outcome("kotlin-authorization-pending.json", status: 400) == .pending)
        #expect(try Self.outcome("swift-oauth2auth-token-authorization_pending.json", status: 400) == .pending)
        #expect(try Self.outcome("swift-oauth2auth-token-slow_down.json", status: 400) == .slowDown)
    }

    @Test(arguments: [
        "swift-directauth-token.json", "kotlin-token-response.json", "swift-oauth2auth-token.json",
        "kotlin-oauth2-token-exchange-native-sso-response.json", "kotlin-authfoundation-token-with-device-secret.json",
    ])
    func tokenResponsesAreReadAsEveryLoginReadsThem(file: String) throws {
        guard case .tokens(let tokens) = try Self.outcome(file, status: 200) else {
            Issue.record("no tokens")
            return
        }
        #expect(tokens.tokenType == "Bearer")
        #expect(!tokens.accessToken.isEmpty)
    }

    /// An ID token alone is refused unless an MFA attestation was asked for, as the Swift SDK does.
    @Test(arguments: ["swift-authfoundation-token-mfa_attestation.json", "swift-authfoundation-token-no_access_token.json"])
    func aResponseWithoutAnAccessTokenIsRefusedUnlessAnAttestationWasAsked(file: String) throws {
        #expect(throws: IdFlowError.self) { _ = try Self.outcome(file, status: 200) }
        guard case .tokens(let tokens) = try Self.outcome(file, status: 200, acrValues: "urn:okta:app:mfa:attestation") else {
            Issue.record("no ID token")
            return
        }
        #expect(tokens.idToken?.isEmpty == false && tokens.accessToken.isEmpty && tokens.expiresIn == 0)
    }

    @Test func refusalsKeepTheServersWordsAndExitAsTheContractSays() throws {
        let wrongPassword = #expect(throws: IdFlowError.self) {
            _ = try Self.outcome("kotlin-oauth2-error.json", status: 400, grant: .password)
        }
        #expect(wrongPassword?.exitStatus == .authentication)
        #expect(wrongPassword?.hint == "check the username and password")
        let server = #expect(throws: IdFlowError.self) { _ = try Self.outcome("kotlin-server-error.json", status: 500) }
        #expect(server?.exitStatus == .server)
        let causes = #expect(throws: IdFlowError.self) { _ = try Self.outcome("kotlin-api-error-with-causes.json", status: 400) }
        #expect(causes?.exitStatus == .rejected)
        let unknown = #expect(throws: IdFlowError.self) { _ = try Self.outcome("kotlin-unknown-type.json", status: 400) }
        #expect(unknown?.kind == "unexpected_response")
        // A trailing comma is let pass, as JSONDecoder does for every answer idflow reads: the error is still the server's.
        let malformed = #expect(throws: IdFlowError.self) { _ = try Self.outcome("kotlin-malformed-error.invalid-json.txt", status: 400) }
        #expect(malformed?.exitStatus == .denied)
        let malformedCode = #expect(throws: IdFlowError.self) {
            _ = try Self.outcome("kotlin-malformed-error-code.invalid-json.txt", status: 429)
        }
        #expect(malformedCode?.exitStatus == .server)
    }

    @Test func aRefusedChannelHintSaysWhichChannelsThereAre() throws {
        let request = PrimaryAuthenticateRequest(
            endpoints: try DirectAuthEndpoints(tokenEndpoint: URL(string: "https://example.okta.com/oauth2/v1/token")!),
            client: Self.client, username: "jo@example.com", channel: .push)
        let error = #expect(throws: IdFlowError.self) {
            _ = try request.decode(try Self.response("kotlin-oob-authenticate-oauth2-error.json", status: 400))
        }
        #expect(error?.exitStatus == .rejected)
        #expect(error?.hint?.contains("--oob") == true)
    }

    @Test func anOTPChallengeIsAcknowledged() throws {
        let request = ChallengeRequest(
            endpoint: URL(string: "https://example.okta.com/oauth2/v1/challenge")!, client: Self.client, mfaToken: "abcd1234",
            grant: .mfaOTP)
        #expect(try request.decode(try Self.response("kotlin-challenge-otp-response.json", status: 200)) == .otp)
    }

    /// The endpoints beside the recorded discovery document's token endpoint, which names none of them.
    @Test func theEndpointsComeFromTheTokenEndpoint() throws {
        let discovery = try JSONValue(data: try Fixtures.data("\(Self.folder)/swift-directauth-openid-configuration.json"))
        let token = try #require(discovery["token_endpoint"]?.stringValue.flatMap(URL.init(string:)))
        let endpoints = try DirectAuthEndpoints(tokenEndpoint: token)
        #expect(endpoints.primaryAuthenticate.absoluteString == "https://example.okta.com/oauth2/v1/primary-authenticate")
        #expect(endpoints.oobAuthenticate.absoluteString == "https://example.okta.com/oauth2/v1/oob-authenticate")
        #expect(endpoints.challenge.absoluteString == "https://example.okta.com/oauth2/v1/challenge")
        let custom = try DirectAuthEndpoints(tokenEndpoint: URL(string: "https://example.okta.com/oauth2/aus1/v1/token")!)
        #expect(custom.challenge.absoluteString == "https://example.okta.com/oauth2/aus1/v1/challenge")
        #expect(discovery["jwks_uri"] != nil)
        let keys = try JSONValue(data: try Fixtures.data("\(Self.folder)/swift-directauth-keys.json"))
        #expect(keys["keys"] != nil)
    }
}
