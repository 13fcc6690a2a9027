import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// Every recorded file of Tests/Fixtures/okta-devices is read by the parser the client uses for it, with
/// what the SDK would make of it; a new recording without a test here fails `everyRecordingIsCovered`.
struct DeviceFixtureTests {
    static let covered: Set<String> = [
        "well-known-okta-organization.json", "app-authenticator-configuration.json", "app-authenticator-configuration-no-methods.json",
        "app-authenticator-configuration-empty-array.json", "enrollment-response.json", "pending-challenges.json",
        "pending-challenges-ciba.json", "pending-challenges-mixed-versions.json", "pending-challenges-no-challenge-context.json",
        "push-notification-userinfo.json", "error-E0000011-invalid-token.json", "error-E0000153-device-deleted.json",
        "error-E0000154-enrollment-deleted.json", "oauth2-token-response.json", "push-challenge-jwt-realistic.decoded.json",
    ]

    static func response(_ file: String, status: Int = 200) throws -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["Content-Type": "application/json"], body: try Fixtures.data("okta-devices/\(file)"),
            url: URL(string: "https://o.example.com/x")!)
    }

    @Test func everyRecordingIsCovered() throws {
        #expect(Set(try Fixtures.files(in: "okta-devices")) == Self.covered)
    }

    @Test func organization() throws {
        let organization = try OktaOrganizationRequest(orgURL: URL(string: "https://o.example.com")!).decode(
            Self.response("well-known-okta-organization.json"))
        #expect(organization.id == "00otiyyDFtNCyFbnC0g4")
    }

    @Test func appAuthenticatorConfigurations() throws {
        let request = AppAuthenticatorConfigurationRequest(
            orgURL: URL(string: "https://o.example.com")!, clientID: "0oa1", accessToken: Secret("at"))
        let configurations = try request.decode(Self.response("app-authenticator-configuration.json"))
        #expect(configurations.count == 1)
        #expect(configurations[0].authenticatorId == "aut6nfu6soyk3GD2U0g4")
        #expect(configurations[0].orgId == "00o1n81xonY9z2Heh0g4")
        #expect(configurations[0].pushMethod?.settings?.algorithms == ["ES256", "RS256"])
        #expect(configurations[0].pushMethod?.settings?.transactionTypes == ["LOGIN", "CIBA"])
        #expect(configurations[0].settings?.userVerification == "PREFERRED")
        #expect(configurations[0].appAuthenticatorEnrollEndpoint == "https://your-org.okta.com/idp/myaccount/app-authenticator")

        let noMethods = try request.decode(Self.response("app-authenticator-configuration-no-methods.json"))
        #expect(noMethods.count == 1 && noMethods[0].pushMethod == nil)
        #expect(try request.decode(Self.response("app-authenticator-configuration-empty-array.json")).isEmpty)
    }

    @Test func enrollmentResponse() throws {
        let request = EnrollAuthenticatorRequest(url: URL(string: "https://o.example.com/e")!, accessToken: Secret("at"), body: [:])
        let enrollment = try request.decode(Self.response("enrollment-response.json"))
        #expect(enrollment.id == "aen1jisLwwTG7qRrH0g4")
        #expect(enrollment.authenticatorId == "autuowpr5VjVjQPU30g3")
        #expect(enrollment.device.id == "guotmkiKzYBTnhnC40g4")
        #expect(enrollment.device.status == "ACTIVE")
        #expect(enrollment.device.clientInstanceId == "cli1zEPrHHW0w4i0ALF0")
        #expect(enrollment.user.id == "00utmecoNjNd0lrWp0g4")
        #expect(enrollment.user.username == "test@okta.com")
        #expect(enrollment.methods?.push?.id == "opftmklWEf1vDZvr10g4")
        #expect(enrollment.methods?.push?.links?.pending?.href.hasSuffix("/lifecycle/pending") == true)
        #expect(enrollment.links?.`self`?.href == "https://your-org.okta.com/idp/myaccount/app-authenticators/pfd6rzcmvlhmE0Y1w0g4")
        // The PATCH of a key change answers the same shape.
        let update = UpdateEnrollmentRequest(url: URL(string: "https://o.example.com/e")!, accessToken: Secret("at"), push: [:])
        #expect(try update.decode(Self.response("enrollment-response.json"))?.id == "aen1jisLwwTG7qRrH0g4")
    }

    @Test func pendingListKeepsWhatTheSDKKeeps() throws {
        let list = try PushChallenge.pendingList(try Fixtures.data("okta-devices/pending-challenges.json"))
        #expect(list.count == 1)
        let challenge = try #require(list.first)
        #expect(challenge.issuer == "https://idx.okta1.com")
        #expect(challenge.audience == "okta.63c081db-1f13-5084-882f-e79e1e5e2da7")
        #expect(challenge.transactionId == "ft8jUVQRuZlfRjnl9MqjJ5zEr_MMADu9w9")
        #expect(challenge.nonce == "NGHPdjUtLZsFHOZ9w2_jS5q8bYXQAwJa")
        #expect(challenge.orgId == "00o92gxopei72u4me0w4")
        #expect(challenge.verificationUri.absoluteString == "https://idx.okta1.com/v1/authn/factors/1234/transactions/4321/verify")
        #expect(challenge.authenticatorEnrollmentId == "aen1jisLwwTG7qRrH0g4")
        #expect(challenge.method == "push")
        #expect(challenge.transactionType == "LOGIN")
        #expect(challenge.clientOS == "MAC_OS_X")
        #expect(challenge.clientLocation == "Kyiv, Kyiv City, Ukraine")
        #expect(challenge.transactionTime == "2015-02-17T22:17:44.000Z")
        #expect(challenge.userVerification == nil)
        #expect(challenge.issuedAt == Date(timeIntervalSince1970: 1_591_849_303))
        #expect(challenge.expiresAt == Date(timeIntervalSince1970: 1_591_849_603))

        let ciba = try PushChallenge.pendingList(try Fixtures.data("okta-devices/pending-challenges-ciba.json"))
        #expect(ciba.count == 1)
        #expect(ciba.first?.transactionType == "CIBA")
        #expect(ciba.first?.bindingMessage == "Did you authorize this $300 transaction?")

        // The V1 entry is dropped; the IDXv1 one is kept whatever its typ (typ is checked when answering).
        let mixed = try PushChallenge.pendingList(try Fixtures.data("okta-devices/pending-challenges-mixed-versions.json"))
        #expect(mixed.count == 1)
        #expect(mixed.first?.decoded.type == "okta-enrollmentupdate+jwt")

        #expect(try PushChallenge.pendingList(try Fixtures.data("okta-devices/pending-challenges-no-challenge-context.json")).isEmpty)
    }

    @Test func aPendingAnswerThatIsNotAnArrayIsRefused() {
        #expect(throws: IdFlowError.self) { try PushChallenge.pendingList(Data("{\"challenge\":\"x\"}".utf8)) }
    }

    @Test func notificationUserInfo() throws {
        let userInfo = try JSONValue(data: try Fixtures.data("okta-devices/push-notification-userinfo.json"))
        let challenge = try #require(PushChallenge.entry(userInfo))
        #expect(challenge.decoded.algorithm == "RS256")
        #expect(challenge.authenticatorEnrollmentId == "aen1jisLwwTG7qRrH0g4")
        // The prefixed keys are accepted too.
        let prefixed: JSONValue = ["okta.payloadVersion": "IDXv1", "okta.challenge": userInfo["challenge"]!]
        #expect(PushChallenge.entry(prefixed)?.transactionId == challenge.transactionId)
    }

    @Test func realisticChallenge() throws {
        let document = try JSONValue(data: try Fixtures.data("okta-devices/push-challenge-jwt-realistic.decoded.json"))
        let challenge = try PushChallenge(try #require(document["jwt"]?.stringValue))
        #expect(challenge.decoded.header == document["header"])
        #expect(challenge.decoded.claims == document["payload"])
        #expect(challenge.decoded.keyID == "h3A4jcQwyIp2DmssZKeKxOlYD87pwl8nsCPpwfLJ_uE")
        #expect(challenge.authenticatorEnrollmentId == "pfdg0pfyXPT6E8azd0g4")
        #expect(challenge.clientOS == "UNKNOWN")
        #expect(challenge.transactionTime == "2022-02-24T17:23:13.845Z")
    }

    @Test func errorBodies() throws {
        let delete = DeleteEnrollmentRequest(url: URL(string: "https://o.example.com/e")!, accessToken: Secret("at"))
        // E0000154 and E0000153 on delete mean "already gone": the delete counts as done.
        #expect(try delete.decode(Self.response("error-E0000154-enrollment-deleted.json", status: 410)) == "E0000154")
        #expect(try delete.decode(Self.response("error-E0000153-device-deleted.json", status: 410)) == "E0000153")
        // E0000011 does not: it is an authentication failure (exit 4 on 401).
        #expect {
            try delete.decode(Self.response("error-E0000011-invalid-token.json", status: 401))
        } throws: { error in
            (error as? IdFlowError)?.exitStatus == .authentication
        }
    }

    @Test func maintenanceTokenResponse() throws {
        let request = MaintenanceTokenRequest(orgURL: URL(string: "https://o.example.com")!, clientID: "0oa1", assertion: "a.b.c")
        let token = try request.decode(Self.response("oauth2-token-response.json"))
        #expect(token.accessToken == "access.token")
        #expect(token.tokenType == "token.type")
        #expect(token.expiresIn == 3600)
        #expect(token.scope == "some.scope")
    }
}

/// The Authn answers a push sign-in goes through (okta-core.md §C4), as `login-pkce --mfa push` reads them.
struct AuthnPushFixtureTests {
    static func transaction(_ file: String) throws -> AuthnTransaction {
        try JSONDecoder().decode(AuthnTransaction.self, from: try Fixtures.data("okta-core/\(file)"))
    }

    @Test func mfaRequiredOffersThePushFactorWithItsVerifyLink() throws {
        let required = try Self.transaction("authn-mfa-required.json")
        #expect(required.status == "MFA_REQUIRED")
        let push = try #require(required.embedded?.factors?.first { $0.factorType == "push" })
        #expect(push.id == "opfkdh40kws5XarDb0h7")
        #expect(push.links?.verify?.href == "https://test.domain.com/api/v1/authn/factors/opfkdh40kws5XarDb0h7/verify")
    }

    @Test func pollStates() throws {
        let waiting = try Self.transaction("authn-mfa-challenge-push-waiting.json")
        #expect(waiting.status == "MFA_CHALLENGE" && waiting.factorResult == "WAITING")
        #expect(waiting.links?.next?.name == "poll")
        #expect(waiting.links?.next?.href == "https://test.domain.com/api/v1/authn/factors/opfkdh40kws5XarDb0h7/verify")
        let rejected = try Self.transaction("authn-mfa-challenge-push-rejected.json")
        #expect(rejected.factorResult == "REJECTED" && rejected.links?.next?.name == "verify")
        let timeout = try Self.transaction("authn-mfa-challenge-push-timeout.json")
        #expect(timeout.factorResult == "TIMEOUT" && timeout.links?.next?.name == "verify")
        #expect(timeout.stateToken != nil)
    }
}
