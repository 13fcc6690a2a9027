import Foundation
import IdFlowTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Small answers an Okta org would give, written for these tests (the recorded fixtures in Tests/Fixtures are
/// exercised by the core's parser tests; here only the command's handling of them matters).
enum OktaReplies {
    static let org = "https://o.example.com"
    static let issuer = "\(org)/oauth2/default"

    static let discovery = RoutedTransport.Reply.json(
        200,
        """
        {"issuer":"\(issuer)","authorization_endpoint":"\(issuer)/v1/authorize","token_endpoint":"\(issuer)/v1/token",
        "jwks_uri":"\(issuer)/v1/keys","userinfo_endpoint":"\(issuer)/v1/userinfo","introspection_endpoint":"\(issuer)/v1/introspect",
        "revocation_endpoint":"\(issuer)/v1/revoke","end_session_endpoint":"\(issuer)/v1/logout",
        "response_types_supported":["code"],"subject_types_supported":["public"],"id_token_signing_alg_values_supported":["RS256"],
        "code_challenge_methods_supported":["S256"]}
        """)

    static func user(id: String = "00u1", status: String, login: String = "jo@example.com") -> RoutedTransport.Reply {
        .json(
            200,
            """
            {"id":"\(id)","status":"\(status)","created":"2026-11-22T10:00:00.000Z","activated":null,"statusChanged":null,
            "lastLogin":null,"lastUpdated":"2026-11-22T10:00:00.000Z","passwordChanged":null,"type":{"id":"oty1"},
            "profile":{"firstName":"Jo","lastName":"Doe","mobilePhone":null,"secondEmail":null,"login":"\(login)","email":"\(login)"},
            "credentials":{"provider":{"type":"OKTA","name":"OKTA"}},"_links":{}}
            """)
    }

    static func error(_ status: Int, code: String, summary: String, causes: [String] = []) -> RoutedTransport.Reply {
        let causeList = causes.map { "{\"errorSummary\":\"\($0)\"}" }.joined(separator: ",")
        return .json(
            status,
            "{\"errorCode\":\"\(code)\",\"errorSummary\":\"\(summary)\",\"errorLink\":\"\(code)\",\"errorId\":\"oae1\",\"errorCauses\":[\(causeList)]}"
        )
    }

    /// An unsigned JWT with these claims, for commands that only decode.
    static func jwt(_ claims: String) -> String {
        func encode(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        return "\(encode("{\"alg\":\"RS256\",\"kid\":\"k1\"}")).\(encode(claims)).c2ln"
    }
}

extension URLRequest {
    /// "METHOD path" for routing, e.g. "POST /api/v1/users".
    var route: String { "\(httpMethod ?? "GET") \(url?.path ?? "")" }

    /// A query parameter of the URL.
    func query(_ name: String) -> String? {
        url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }?.queryItems?.first { $0.name == name }?.value
    }
}
