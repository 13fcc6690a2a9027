import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// How doctor's discovery check judges the embedded sign-in (IDX): Okta's documents never list
/// `interaction_code`, so the interact endpoint itself is asked.
struct DiscoveryCheckTests {
    static let issuer = URL(string: "https://dev-1.okta.com/oauth2/default")!

    /// Okta's recorded discovery documents, an Identity Engine org's included, list no `interaction_code`.
    @Test func oktasRecordedDocumentsListNoInteractionCode() throws {
        for name in ["oidc-openid-configuration-org-as.json", "oidc-openid-configuration-default-as.json"] {
            let document = try JSONValue(data: Fixtures.data("okta-core/\(name)"))
            let grants = document["grant_types_supported"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(grants.contains("authorization_code") && !grants.contains("interaction_code"), "\(name)")
        }
    }

    @Test func anInteractEndpointThatRefusesAnEmptyRequestMeansIDXWorks() async throws {
        let transport = ScriptedTransport([.json(401, #"{"error":"invalid_client","error_description":"No client credentials found."}"#)])
        let answer = await DiscoveryCheck.identityEngine(
            issuer: Self.issuer, grants: ["authorization_code"], http: HTTPClient(transport: transport))
        #expect(answer.hasPrefix("yes"), "\(answer)")
        #expect(transport.requests.first?.url.absoluteString == "https://dev-1.okta.com/oauth2/default/v1/interact")
        #expect(transport.requests.first?.method == "POST")
        #expect(transport.requests.first?.formBody.isEmpty == true, "no client, no challenge: nothing is started")
    }

    @Test func aClassicOrgHasNoInteractEndpoint() async throws {
        let transport = ScriptedTransport([
            .json(404, #"{"errorCode":"E0000022","errorSummary":"The endpoint does not support the provided HTTP method"}"#)
        ])
        let answer = await DiscoveryCheck.identityEngine(issuer: Self.issuer, grants: [], http: HTTPClient(transport: transport))
        #expect(answer.hasPrefix("no"), "\(answer)")
    }

    @Test func aDocumentThatListsTheGrantIsBelievedWithoutAsking() async throws {
        let transport = ScriptedTransport([])
        let answer = await DiscoveryCheck.identityEngine(
            issuer: Self.issuer, grants: ["authorization_code", "interaction_code"], http: HTTPClient(transport: transport))
        #expect(answer == "yes")
        #expect(transport.requests.isEmpty)
    }

    @Test func noAnswerIsUnknown() async throws {
        let transport = ScriptedTransport([.failure(TransportFailure(.cannotConnectToHost))])
        let answer = await DiscoveryCheck.identityEngine(issuer: Self.issuer, grants: [], http: HTTPClient(transport: transport))
        #expect(answer.hasPrefix("unknown"), "\(answer)")
    }
}
