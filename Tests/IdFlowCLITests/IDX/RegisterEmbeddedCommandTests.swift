import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

@testable import idflow

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `register --embedded` walking the recorded sign-up documents (idx.md §9): select-enroll-profile →
/// enroll-profile → the password form → interaction code → tokens, on the same engine as
/// `login-pkce --embedded`. The recordings come from several orgs; their hosts are served as one.
struct RegisterEmbeddedCommandTests {
    let configuration = EmbeddedLoginCommandTests().configuration
    static let signUpAnswers = [
        "--answer", "userProfile.email=new@example.com", "--answer", "userProfile.firstName=New", "--answer",
        "userProfile.lastName=User", "--answer", "credentials.passcode=@-",
    ]

    /// A recording with every org host replaced by the test's.
    static func fixture(_ name: String, status: Int = 200) -> RoutedTransport.Reply {
        var text = String(decoding: (try? Fixtures.data("okta-idx/\(name)")) ?? Data(), as: UTF8.self)
        for host in ["https://foo.oktapreview.com", "https://ios-idx-sdk.okta.com", "https://foo.okta.com"] {
            text = text.replacingOccurrences(of: host, with: RecordedIdentityEngine.org)
        }
        return RoutedTransport.Reply(status: status, headers: ["Content-Type": IDX.ionJSON], body: Data(text.utf8))
    }

    /// The sign-up policy; `offersSignUp` false serves the plain identify document; a malformed e-mail
    /// address gets `error-enroll-profile-field.json`.
    static func identityEngine(offersSignUp: Bool = true) -> RoutedTransport {
        let base = RecordedIdentityEngine.transport()
        return RoutedTransport { request in
            switch request.route {
            case "POST /idp/idx/introspect" where offersSignUp:
                return fixture("identify-with-password-and-select-enroll-profile.json")
            case "POST /idp/idx/enroll": return fixture("enroll-profile.json")
            case "POST /idp/idx/enroll/new":
                let email = request.jsonBody?["userProfile"]?["email"]?.stringValue ?? ""
                return email.contains("@")
                    ? fixture("03-challenge-authenticator-password.json") : fixture("error-enroll-profile-field.json", status: 400)
            default: return base.answer(request)
            }
        }
    }

    @Test func aScriptSignsUpThroughTheProfileAndPasswordFormsAndGetsTokens() async throws {
        let server = Self.identityEngine()
        let result = await CLI.run(
            ["register", "--embedded"] + Self.signUpAnswers + configuration, transport: server, stdin: "s3cret\n")
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.json?["access_token"] == "at1")
        let routes = server.requests.map(\.route)
        #expect(!routes.contains("POST /idp/idx/identify"), "sign-up never signs in as someone")
        let enroll = try #require(server.requests.first { $0.route == "POST /idp/idx/enroll" })
        #expect(enroll.jsonBody?["stateHandle"] == "ahc52KautBHCANs3ScZjLfRcxFjP_N5mqOTYouqHFP")
        let profile = try #require(server.requests.first { $0.route == "POST /idp/idx/enroll/new" })
        #expect(profile.jsonBody?["userProfile"]?["email"] == "new@example.com")
        #expect(profile.jsonBody?["userProfile"]?["firstName"] == "New")
        #expect(profile.jsonBody?["userProfile"]?["lastName"] == "User")
        #expect(profile.jsonBody?["credentials"] == nil, "the password goes only to the password form")
        let password = try #require(server.requests.first { $0.route == "POST /idp/idx/challenge/answer" })
        #expect(password.jsonBody?["credentials"]?["passcode"] == "s3cret")
        #expect(server.requests.last?.formBody["grant_type"] == "interaction_code")
    }

    @Test func aMalformedEmailExits3WithTheServersFieldMessage() async {
        var arguments = Self.signUpAnswers
        arguments[1] = "userProfile.email=nope"
        let result = await CLI.run(
            ["register", "--embedded"] + arguments + configuration, transport: Self.identityEngine(), stdin: "s3cret")
        #expect(result.exitCode == 3)
        #expect(result.error?["message"] == "'Email' must be in the form of an email address")
    }

    @Test func aPolicyWithoutSignUpExits3AndSaysSo() async {
        let server = Self.identityEngine(offersSignUp: false)
        let result = await CLI.run(["register", "--embedded"] + Self.signUpAnswers + configuration, transport: server, stdin: "s3cret")
        #expect(result.exitCode == 3)
        #expect(result.error?["message"]?.stringValue?.contains("no self-service sign-up") == true)
        #expect(!server.requests.contains { $0.route.hasPrefix("POST /idp/idx/enroll") })
    }
}
