import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// The client decodes the real Users API responses recorded from Okta (Tests/Fixtures/okta-core).
struct UsersFixtureDecodingTests {
    @Test(arguments: [
        "user-staged-create-activate-false-classic.json", "user-staged-create-activate-false-oie.json",
        "user-active-get-oie.json", "user-suspended-get-oie.json",
    ])
    func decodesUsers(file: String) throws {
        let user = try JSONDecoder().decode(OktaUser.self, from: Fixtures.data("okta-core/\(file)"))
        #expect(user.id.hasPrefix("00u"))
        #expect(user.id.count == 20)
        #expect(user.profile.login.contains("@"))
        let expected = file.contains("staged") ? "STAGED" : file.contains("active") ? "ACTIVE" : "SUSPENDED"
        #expect(user.status == expected)
    }

    @Test(arguments: ["user-activate-sendemail-false-classic.json", "user-activate-sendemail-false-oie.json"])
    func activationLinkCarriesTheSameTokenAsTheTokenField(file: String) throws {
        let activation = try JSONDecoder().decode(UserActivationToken.self, from: Fixtures.data("okta-core/\(file)"))
        let token = try #require(activation.activationToken)
        let url = try #require(activation.activationUrl)
        let (parsed, org) = try ActivationToken.parse(activationURL: url)
        #expect(parsed.secret.value == token)
        #expect(org.absoluteString == "https://test.okta.com")
        #expect(try ActivationToken(token).secret.value == token)
    }
}
