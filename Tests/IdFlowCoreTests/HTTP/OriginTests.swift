import Foundation
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// The one origin rule behind every "may this token go there" decision (RFC 6454 §4).
struct OriginTests {
    static func origin(_ text: String) -> Origin? { Origin(string: text) }

    @Test(arguments: [
        ("https://dev-1.okta.com", "https://dev-1.okta.com:443/oauth2/default"),
        ("http://127.0.0.1", "http://127.0.0.1:80/callback"),
        ("HTTPS://Dev-1.OKTA.com/a", "https://dev-1.okta.com/b"),
        ("https://dev-1.okta.com./x", "https://dev-1.okta.com/y"),
        ("https://jo:secret@dev-1.okta.com/x", "https://dev-1.okta.com"),
        ("http://[::1]:8080/a", "http://[::1]:8080/b"),
        ("http://[0:0:0:0:0:0:0:1]:8080", "http://[0:0:0:0:0:0:0:1]:8080/x?q=1#f"),
    ])
    func theSameOrigin(_ one: String, _ other: String) throws {
        #expect(try #require(Self.origin(one)) == Self.origin(other), "\(one) ~ \(other)")
    }

    @Test(arguments: [
        ("https://dev-1.okta.com", "http://dev-1.okta.com"),
        ("https://dev-1.okta.com", "https://dev-1.okta.com:8443"),
        ("http://127.0.0.1:80", "http://127.0.0.1:8080"),
        ("https://dev-1.okta.com", "https://dev-1.okta.com.evil.example"),
        ("https://dev-1.okta.com", "https://evil.example/dev-1.okta.com"),
        ("http://[::1]:8080", "http://127.0.0.1:8080"),
    ])
    func anotherOrigin(_ one: String, _ other: String) throws {
        #expect(try #require(Self.origin(one)) != Self.origin(other), "\(one) vs \(other)")
    }

    @Test func theDefaultPortIsExplicitAndWrittenOnlyWhenItIsNot() throws {
        let https = try #require(Self.origin("https://Dev-1.okta.com./oauth2/default?x=1"))
        #expect(https.port == 443)
        #expect(https.description == "https://dev-1.okta.com")
        #expect(https.url.absoluteString == "https://dev-1.okta.com")
        #expect(Self.origin("http://127.0.0.1:8080/x")?.description == "http://127.0.0.1:8080")
        #expect(Self.origin("http://[::1]:8080/x")?.description == "http://[::1]:8080")
        #expect(Self.origin("http://[::1]/x")?.port == 80)
    }

    @Test(arguments: ["/relative/path", "mailto:jo@example.com", "https://", "not a url"])
    func aURLWithoutAHostHasNoOrigin(_ text: String) {
        #expect(Self.origin(text) == nil, "\(text)")
    }

    /// The places that decide where a token goes all use it: an org link, an Identity Engine href, a redirect.
    @Test func theDecisionsAgree() throws {
        let org = try #require(URL(string: "https://dev-1.okta.com"))
        #expect(OrgEndpoint(orgURL: org).contains(try #require(URL(string: "https://DEV-1.okta.com.:443/api/v1/authn"))))
        #expect(!OrgEndpoint(orgURL: org).contains(try #require(URL(string: "http://dev-1.okta.com/api/v1/authn"))))
        #expect(IDX.sameOrigin(try #require(URL(string: "https://dev-1.okta.com./idp/idx/identify")), org))
        #expect(
            IDX.introspectURL(issuer: try #require(URL(string: "https://Dev-1.okta.com:443/oauth2/default"))).absoluteString
                == "https://dev-1.okta.com/idp/idx/introspect")
        let (_, activationOrg) = try ActivationToken.parse(activationURL: "https://Dev-1.okta.com:443/welcome/abc")
        #expect(activationOrg.absoluteString == "https://dev-1.okta.com")
    }
}
