import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// `set-password`: the activation token redeemed through Authn, the password sent only to the org.
struct SetPasswordTests {
    let passwordReset =
        #"{"stateToken":"00state","expiresAt":"2030-01-01T00:00:00.000Z","status":"PASSWORD_RESET","recoveryType":"ACCOUNT_ACTIVATION","_embedded":{"user":{"id":"00u1","profile":{"login":"jo@example.com"}}},"_links":{"next":{"name":"resetPassword","href":"https://example.okta.com/api/v1/authn/credentials/reset_password","hints":{"allow":["POST"]}}}}"#
    let success =
        #"{"expiresAt":"2030-01-01T00:05:00.000Z","status":"SUCCESS","sessionToken":"20session","_embedded":{"user":{"id":"00u1","profile":{"login":"jo@example.com"}}}}"#

    @Test func setPasswordRedeemsTheTokenThenPostsThePasswordToTheNextLink() async throws {
        let transport = ScriptedTransport([.json(200, passwordReset), .json(200, success)])
        let context = TestContext.make(transport: transport)
        let result = try await SetPassword(token: ActivationToken("tok123"), password: Secret("Str0ng-Passw0rd!")).run(context)
        #expect(
            result
                == .init(
                    status: "SUCCESS", sessionToken: "20session", expiresAt: "2030-01-01T00:05:00.000Z", userId: "00u1",
                    login: "jo@example.com"))
        #expect(transport.requests[0].url.path == "/api/v1/authn")
        #expect(transport.requests[0].jsonBody == ["token": "tok123"])
        #expect(transport.requests[1].url.path == "/api/v1/authn/credentials/reset_password")
        #expect(transport.requests[1].jsonBody == ["stateToken": "00state", "newPassword": "Str0ng-Passw0rd!"])
        #expect(transport.requests.allSatisfy { $0.header("Authorization") == nil }, "Authn needs no API token")
    }

    @Test func recoveryStatusIsAcceptedToo() async throws {
        let recovery = passwordReset.replacingOccurrences(of: "\"PASSWORD_RESET\"", with: "\"RECOVERY\"")
        let transport = ScriptedTransport([.json(200, recovery), .json(200, success)])
        let result = try await SetPassword(token: ActivationToken("tok"), password: Secret("Str0ng-Passw0rd!")).run(
            TestContext.make(transport: transport))
        #expect(result.sessionToken == "20session")
    }

    @Test func aNextLinkOnAnotherHostIsNeverSentThePassword() async throws {
        let evil = passwordReset.replacingOccurrences(of: "https://example.okta.com/api", with: "https://evil.example.net/api")
        let transport = ScriptedTransport([.json(200, evil)])
        do {
            _ = try await SetPassword(token: ActivationToken("tok"), password: Secret("Str0ng-Passw0rd!")).run(
                TestContext.make(transport: transport))
            Issue.record("expected a refusal")
        } catch {
            #expect(error.exitStatus == .security)
        }
        #expect(transport.requests.count == 1)
    }

    @Test func policyFailureKeepsEveryCauseAndExits3() async throws {
        let body =
            #"{"errorCode":"E0000080","errorSummary":"The password does not meet the complexity requirements of the current password policy.","errorLink":"E0000080","errorId":"oae1","errorCauses":[{"errorSummary":"Password requirements: at least 8 characters."},{"errorSummary":"Password requirements: at least one number."}]}"#
        let transport = ScriptedTransport([.json(200, passwordReset), .json(403, body)])
        do {
            _ = try await SetPassword(token: ActivationToken("tok"), password: Secret("short")).run(TestContext.make(transport: transport))
            Issue.record("expected a rejection")
        } catch {
            #expect(error.exitStatus == .rejected)
            #expect(ErrorReport(error).error.causes?.count == 2)
        }
    }

    @Test func aUsedTokenExits4WithAHint() async throws {
        let body =
            #"{"errorCode":"E0000004","errorSummary":"Authentication failed","errorLink":"E0000004","errorId":"oae1","errorCauses":[]}"#
        let transport = ScriptedTransport([.json(401, body)])
        do {
            _ = try await SetPassword(token: ActivationToken("tok"), password: Secret("Str0ng-Passw0rd!")).run(
                TestContext.make(transport: transport))
            Issue.record("expected a failure")
        } catch {
            #expect(error.exitStatus == .authentication)
            #expect(error.hint?.contains("idflow activate") == true)
        }
    }

    @Test func anActivationLinkAloneIsNotTrustedWithThePassword() async throws {
        var configuration = TestContext.configuration()
        configuration.orgURL = nil
        let flow = try SetPassword(
            activationURL: "https://attacker.example.com/tokens/abcDEF_-1/verify", password: Secret("Str0ng-Passw0rd!"))
        let transport = ScriptedTransport([])
        do {
            _ = try await flow.run(TestContext.make(transport: transport, configuration: configuration))
            Issue.record("a link with no configured org must be refused")
        } catch {
            #expect(error.exitStatus == .security)
            #expect(error.hint?.contains("--org-url https://attacker.example.com") == true)
        }
        #expect(transport.requests.isEmpty, "nothing, least of all the password, was sent")
    }

    @Test func anActivationLinkOnTheConfiguredOrgIsUsed() async throws {
        let transport = ScriptedTransport([
            .json(200, passwordReset.replacingOccurrences(of: "https://example.okta.com", with: "http://127.0.0.1:9999")),
            .json(200, success),
        ])
        let configuration = TestContext.configuration(org: "http://127.0.0.1:9999")
        let flow = try SetPassword(activationURL: "http://127.0.0.1:9999/tokens/abcDEF_-1/verify", password: Secret("Str0ng-Passw0rd!"))
        _ = try await flow.run(TestContext.make(transport: transport, configuration: configuration))
        #expect(transport.requests[0].url.absoluteString == "http://127.0.0.1:9999/api/v1/authn")
        #expect(transport.requests[0].jsonBody == ["token": "abcDEF_-1"])
    }

    @Test func anActivationLinkForAnotherOrgIsRefused() async throws {
        let flow = try SetPassword(activationURL: "https://other.okta.com/welcome/abc", password: Secret("Str0ng-Passw0rd!"))
        do {
            _ = try await flow.run(TestContext.make(transport: ScriptedTransport([])))
            Issue.record("a link to another org must be refused")
        } catch {
            #expect(error.exitStatus == .security)
        }
    }

    /// A refused token is explained by what its link was for: a used reset link is not sent to `idflow activate`.
    @Test(arguments: [
        ("https://o.okta.com/welcome/abc", "idflow activate"), ("https://o.okta.com/tokens/abc/verify", "idflow activate"),
        ("https://o.okta.com/reset_password/drp1", "idflow user reset-password"),
        ("https://o.okta.com/signin/reset-password/dfp1", "idflow user reset-password"),
    ])
    func aRefusedTokenIsExplainedByItsLink(link: String, command: String) async throws {
        let flow = try SetPassword(activationURL: link, password: Secret("Str0ng-Passw0rd!"))
        let refused = #"{"errorCode":"E0000004","errorSummary":"Authentication failed","errorCauses":[]}"#
        let configuration = TestContext.configuration(org: "https://o.okta.com")
        do {
            _ = try await flow.run(TestContext.make(transport: ScriptedTransport([.json(401, refused)]), configuration: configuration))
            Issue.record("a refused token must fail")
        } catch {
            #expect(error.exitStatus == .authentication)
            #expect(error.hint?.contains(command) == true, "\(error.hint ?? "")")
            let other = command == "idflow activate" ? "idflow user reset-password" : "idflow activate"
            #expect(error.hint?.contains(other) == false, "\(error.hint ?? "")")
        }
    }

    @Test(arguments: ["https://o.okta.com/welcome", "https://o.okta.com/tokens/abc", "not a url", "https://o.okta.com/welcome/a%2Fb"])
    func malformedActivationLinksAreRejected(link: String) {
        #expect(throws: IdFlowError.self) { try ActivationToken.parse(activationURL: link) }
    }
}
