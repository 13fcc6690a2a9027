import Foundation
import IdFlowSandbox
import Testing

/// Every page a person signs in or approves on refuses to be framed, as a real sign-in page does: inside another
/// site's frame, a click meant for that site could sign in or approve someone's device code.
@Suite struct SignInPageFramingTests {
    static func expectNotFrameable(_ page: Reply, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(page.header("Content-Type")?.hasPrefix("text/html") == true, "\(name)", sourceLocation: sourceLocation)
        #expect(page.header("X-Frame-Options") == "DENY", "\(name)", sourceLocation: sourceLocation)
        let policy = page.header("Content-Security-Policy") ?? ""
        #expect(policy.contains("frame-ancestors 'none'"), "\(name): \(policy)", sourceLocation: sourceLocation)
        #expect(policy.contains("default-src 'none'"), "\(name): \(policy)", sourceLocation: sourceLocation)
    }

    @Test func theAuthorizeSignInFormAndItsErrorPageCannotBeFramed() async throws {
        try await withSandbox { api in
            let form = try await api.authorize(api.authorizePath(pkce: PKCEPair()))
            #expect(form.status == .ok)
            Self.expectNotFrameable(form, "the sign-in form")
            #expect(form.header("Content-Security-Policy")?.contains("script-src") == false, "the form runs no script")
            let error = try await api.authorize(api.authorizePath(pkce: PKCEPair(), overrides: ["client_id": "0oaunknown"]))
            Self.expectNotFrameable(error, "an error page")
        }
    }

    @Test func theActivatePagesCannotBeFramed() async throws {
        try await withSandbox { api in
            let entry = try await api.send(.get, "/activate", auth: .none)
            #expect(entry.status == .ok)
            Self.expectNotFrameable(entry, "the code entry page")
            let userCode = try #require(try await api.deviceAuthorize().object()["user_code"] as? String)
            let signIn = try await api.send(.get, "/activate?user_code=\(userCode)", auth: .none)
            #expect(signIn.status == .ok)
            Self.expectNotFrameable(signIn, "the device sign-in form")
        }
    }

    @Test func theFormPostPageMaySubmitItselfButNotBeFramed() async throws {
        try await withSandbox { api in
            let (_, sessionToken) = try await api.registerActiveUser(email: "post@example.com")
            let page = try await api.authorize(
                api.authorizePath(pkce: PKCEPair(), sessionToken: sessionToken, overrides: ["response_mode": "form_post"]))
            Self.expectNotFrameable(page, "the form_post page")
            #expect(page.header("Content-Security-Policy")?.contains("script-src 'unsafe-inline'") == true)
        }
    }
}
