import Foundation
import IdFlowFoundation

/// Small answers an Okta org would give, written for tests (the recorded fixtures in Tests/Fixtures are
/// exercised by the core's parser tests; here only a flow's handling of them matters).
public enum OktaReplies {
    public static let org = "https://o.example.com"
    public static let issuer = "\(org)/oauth2/default"

    public static let discovery = FakeAuthorizationServer.discovery(issuer: issuer)

    public static func user(id: String = "00u1", status: String, login: String = "jo@example.com") -> RoutedTransport.Reply {
        .json(
            200,
            """
            {"id":"\(id)","status":"\(status)","created":"2026-11-22T10:00:00.000Z","activated":null,"statusChanged":null,
            "lastLogin":null,"lastUpdated":"2026-11-22T10:00:00.000Z","passwordChanged":null,"type":{"id":"oty1"},
            "profile":{"firstName":"Jo","lastName":"Doe","mobilePhone":null,"secondEmail":null,"login":"\(login)","email":"\(login)"},
            "credentials":{"provider":{"type":"OKTA","name":"OKTA"}},"_links":{}}
            """)
    }

    public static func error(_ status: Int, code: String, summary: String, causes: [String] = []) -> RoutedTransport.Reply {
        let causeList = causes.map { "{\"errorSummary\":\"\($0)\"}" }.joined(separator: ",")
        return .json(
            status,
            "{\"errorCode\":\"\(code)\",\"errorSummary\":\"\(summary)\",\"errorLink\":\"\(code)\",\"errorId\":\"oae1\",\"errorCauses\":[\(causeList)]}"
        )
    }

    /// An unsigned JWT with these claims, for commands that only decode.
    public static func jwt(_ claims: String) -> String {
        func encode(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        return "\(encode("{\"alg\":\"RS256\",\"kid\":\"k1\"}")).\(encode(claims)).c2ln"
    }
}

extension HTTPRequest {
    /// "METHOD path" for routing, e.g. "POST /api/v1/users".
    public var route: String { "\(method) \(url.path)" }

    /// A query parameter of the URL.
    public func query(_ name: String) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value
    }
}
