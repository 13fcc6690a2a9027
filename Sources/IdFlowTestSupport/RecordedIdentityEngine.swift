import Foundation
import IdFlowCore
import IdFlowFoundation

/// The Identity Engine of the recorded password sign-in (Tests/Fixtures/okta-idx), served at one org:
/// interact → introspect → identify → password challenge → interaction code.
public enum RecordedIdentityEngine {
    public static let org = "https://example.com"
    public static let issuer = "\(org)/oauth2/default"
    /// What every served document says it expires at: ten minutes after the run started.
    public static let expiresAt = ISO8601.string(Date().addingTimeInterval(600))

    /// A recorded document as the org at `org` would send it: the recordings come from several fake hosts, and
    /// idflow follows hrefs on the issuer's host only.
    public static func reply(_ name: String, status: Int = 200) -> RoutedTransport.Reply {
        var text = String(decoding: (try? Fixtures.data("okta-idx/\(name)")) ?? Data(), as: UTF8.self)
        for host in ["https://foo.oktapreview.com", "https://foo.okta.com", "https://ios-idx-sdk.okta.com"] {
            text = text.replacingOccurrences(of: host, with: org)
        }
        // Every form's href, whichever host (or plain-http test server) the recording was made against.
        text = text.replacingOccurrences(
            of: #""href"\s*:\s*"https?://[^/"]+"#, with: "\"href\": \"\(org)", options: .regularExpression)
        // The recordings expired years ago; a kept transaction past its expiresAt is not resumed.
        text = text.replacingOccurrences(
            of: #""expiresAt"\s*:\s*"[^"]*""#, with: "\"expiresAt\":\"\(expiresAt)\"", options: .regularExpression)
        return RoutedTransport.Reply(status: status, headers: ["Content-Type": IDX.ionJSON], body: Data(text.utf8))
    }

    /// The recorded password sign-in; `introspect` replaces the first document (an expired session), `passed`
    /// the answer to the right password, and `more` answers first (the second factor's routes).
    public static func transport(
        introspect: String = "02-introspect-identify.json", passed: String = "04-success-with-interaction-code.json",
        more: @escaping @Sendable (HTTPRequest) -> RoutedTransport.Reply? = { _ in nil }
    ) -> RoutedTransport {
        RoutedTransport { request in
            if let reply = more(request) { return reply }
            switch request.route {
            case "GET /oauth2/default/.well-known/openid-configuration":
                return FakeAuthorizationServer.discovery(issuer: issuer)
            case "POST /oauth2/default/v1/interact": return reply("01-interact-response.json")
            case "POST /idp/idx/introspect": return reply(introspect, status: introspect.hasPrefix("error") ? 401 : 200)
            case "POST /idp/idx/identify": return reply("03-challenge-authenticator-password.json")
            case "POST /idp/idx/challenge/answer":
                let passcode = request.jsonBody?["credentials"]?["passcode"]?.stringValue
                return passcode == "s3cret" ? reply(passed) : reply("error-challenge-invalid-passcode.json", status: 401)
            case "POST /oauth2/auszsfkYrgGCTilsV2o4/v1/token":
                return .json(
                    200, "{\"token_type\":\"Bearer\",\"expires_in\":3600,\"access_token\":\"at1\",\"scope\":\"profile offline_access\"}")
            default: return nil
            }
        }
    }
}
