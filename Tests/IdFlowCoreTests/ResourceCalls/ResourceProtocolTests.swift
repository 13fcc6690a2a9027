import Foundation
import IdFlowCore
import IdFlowFoundation
import Testing

/// The pieces of RFC 6750 and RFC 9728 `api` reads: challenges and metadata.
@Suite struct ResourceProtocolTests {
    @Test func bearerChallengesAreParsedWithQuotedAndTokenValues() {
        let header =
            #"DPoP algs="ES256", Bearer realm="api", error=insufficient_scope, scope="a b", error_description="say \"please\", ok", resource_metadata="https://x/.well-known/oauth-protected-resource""#
        let challenges = BearerChallenge.parse(header)
        #expect(challenges.map(\.scheme) == ["dpop", "bearer"])
        let bearer = BearerChallenge.bearer(in: header)
        #expect(bearer?.parameters["realm"] == "api")
        #expect(bearer?.error == "insufficient_scope")
        #expect(bearer?.scope == "a b")
        #expect(bearer?.errorDescription == #"say "please", ok"#)
        #expect(bearer?.resourceMetadata == "https://x/.well-known/oauth-protected-resource")
        #expect(BearerChallenge.bearer(in: "Basic realm=\"x\"") == nil)
        #expect(BearerChallenge.bearer(in: "Bearer")?.parameters == [:])
        #expect(BearerChallenge.bearer(in: nil) == nil)
        #expect(BearerChallenge.parse("Negotiate abc123==, Bearer error=\"x\"").last?.error == "x")
    }

    @Test func metadataDescribesItsOwnURLAndPathsBelowIt() {
        let metadata = ProtectedResourceMetadata(resource: "https://api.example.com/v1", authorizationServers: ["https://id.example.com/"])
        #expect(metadata.describes(URL(string: "https://api.example.com/v1")!))
        #expect(metadata.describes(URL(string: "https://api.example.com/v1/orders?x=1")!))
        #expect(metadata.describes(URL(string: "https://API.example.com:443/v1/me")!))
        #expect(!metadata.describes(URL(string: "https://api.example.com/v10")!))
        #expect(!metadata.describes(URL(string: "https://api.example.com/")!))
        #expect(!metadata.describes(URL(string: "https://other.example.com/v1")!))
        #expect(!metadata.describes(URL(string: "http://api.example.com/v1")!))
        #expect(
            ProtectedResourceMetadata(resource: "https://api.example.com", authorizationServers: []).describes(
                URL(string: "https://api.example.com/a")!))
        #expect(metadata.trusts(issuer: "https://id.example.com"))
        #expect(!metadata.trusts(issuer: "https://id.example.com/oauth2/default"))
    }
}
