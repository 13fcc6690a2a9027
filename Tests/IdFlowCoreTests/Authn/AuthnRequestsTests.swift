import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

struct AuthnRequestsTests {
    @Test func redeemPostsTheTokenWithoutAnAPIToken() throws {
        let request = try RedeemTokenRequest(orgURL: Built.org, token: ActivationToken("tok123")).httpRequest()
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://example.okta.com/api/v1/authn")
        #expect(request.headers == ["Accept": "application/json", "Content-Type": "application/json"])
        #expect(try Built.json(request) == ["token": "tok123"])
        #expect(!request.isIdempotent)
    }

    @Test func primaryAuthenticationPostsUsernameAndPassword() throws {
        let request = try PrimaryAuthenticationRequest(orgURL: Built.org, username: "jo@example.com", password: Secret("pw")).httpRequest()
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://example.okta.com/api/v1/authn")
        // Asking to be warned is how a password about to expire becomes PASSWORD_WARN rather than a silent SUCCESS.
        #expect(
            try Built.json(request) == [
                "username": "jo@example.com", "password": "pw", "options": ["warnBeforePasswordExpired": true],
            ])
        #expect(!request.isIdempotent)
    }

    @Test func aFailedAuthenticationGetsItsHint() {
        let body =
            #"{"errorCode":"E0000004","errorSummary":"Authentication failed","errorLink":"E0000004","errorId":"oae1","errorCauses":[]}"#
        let error = Built.error { () throws(IdFlowError) in
            try PrimaryAuthenticationRequest(orgURL: Built.org, username: "jo", password: Secret("pw")).decode(Built.response(401, body))
        }
        guard case .okta(401, _, let hint) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(hint == "check the username and password")
    }

    @Test func anExpiredTransactionSaysToStartAgain() {
        let body =
            #"{"errorCode":"E0000011","errorSummary":"Invalid token provided","errorLink":"E0000011","errorId":"oae1","errorCauses":[]}"#
        let error = Built.error { () throws(IdFlowError) in
            try RedeemTokenRequest(orgURL: Built.org, token: try ActivationToken("t")).decode(Built.response(401, body))
        }
        guard case .okta(401, _, let hint) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(hint == "the transaction expired or was cancelled; start again")
    }

    @Test func resetPasswordPostsToTheNextLinkOnTheOrg() throws {
        let transaction = try JSONDecoder().decode(
            AuthnTransaction.self, from: Fixtures.data("okta-core/authn-password-reset-account-activation.json"))
        let org = URL(string: "https://yourOktaDomain")!
        let request = try ResetPasswordRequest(orgURL: org, transaction: transaction, newPassword: Secret("N3w-pass")).httpRequest()
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://yourOktaDomain/api/v1/authn/credentials/reset_password")
        #expect(try Built.json(request) == ["stateToken": .string(transaction.stateToken ?? ""), "newPassword": "N3w-pass"])
        #expect(!request.isIdempotent)
    }

    @Test func resetPasswordRefusesANextLinkOffTheOrg() throws {
        let transaction = try JSONDecoder().decode(
            AuthnTransaction.self, from: Fixtures.data("okta-core/authn-password-reset-account-activation.json"))
        let error = Built.error { () throws(IdFlowError) in
            try ResetPasswordRequest(orgURL: Built.org, transaction: transaction, newPassword: Secret("N3w-pass")).httpRequest()
        }
        #expect(error?.exitStatus == .security)
    }

    @Test func resetPasswordNeedsAStateToken() throws {
        let transaction = try JSONDecoder().decode(AuthnTransaction.self, from: Data(#"{"status":"SUCCESS"}"#.utf8))
        let error = Built.error { () throws(IdFlowError) in
            try ResetPasswordRequest(orgURL: Built.org, transaction: transaction, newPassword: Secret("x")).httpRequest()
        }
        #expect(error == .protocolViolation("the SUCCESS transaction carries no stateToken"))
    }
}
