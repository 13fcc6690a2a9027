import Foundation
import IdFlowCore
import IdFlowFoundation

/// The sign-in widget's 399 recorded Identity Engine documents (Tests/Fixtures/okta-idx-widget), served one at a time
/// as the answer to the introspection of an embedded sign-in: what idflow does with each screen Okta ships is then
/// what the walker sends next, or why it stops.
public enum WidgetCorpus {
    public static let folder = "okta-idx-widget"

    /// Every server response of the corpus, sorted: all files but `_ui-demo.json`, the widget's own development
    /// fixture (remediation `DEVELOPMENT`). The 0-byte `error-empty-response.json` is a response (an empty body).
    public static func responses() throws -> [String] {
        try Fixtures.files(in: folder).filter { $0 != "_ui-demo.json" }
    }

    /// The status the widget's playground serves a file with (SOURCES.md): `error-NNN-*` with NNN, any other
    /// `error-*` with 403, the rest with 200.
    public static func status(of name: String) -> Int {
        guard name.hasPrefix("error-") else { return 200 }
        let digits = name.dropFirst("error-".count).prefix(3)
        if digits.count == 3, digits.allSatisfy(\.isNumber), name.dropFirst("error-NNN".count).first == "-", let status = Int(digits) {
            return status
        }
        return 403
    }

    /// The file's bytes as the org at `RecordedIdentityEngine.org` would send them: every form's href on that org
    /// (the recordings were made against `localhost:3000`, `idx.okta1.com` and others, and idflow follows forms on the
    /// issuer's host only), nothing else changed.
    public static func reply(_ name: String) -> RoutedTransport.Reply {
        let data = (try? Fixtures.data("\(folder)/\(name)")) ?? Data()
        var body = data
        if let text = String(data: data, encoding: .utf8) {
            body = Data(
                text.replacingOccurrences(
                    of: #""href"(\s*):(\s*)"https?://[^/"]+"#, with: "\"href\"$1:$2\"\(RecordedIdentityEngine.org)",
                    options: .regularExpression
                )
                // The playground's own hosts elsewhere too (a passkey's app id is checked against the org's host).
                .replacingOccurrences(
                    of: #"https?://(localhost:3000|idx\.okta1\.com(:[0-9]+)?|foo\.okta(preview)?\.com)"#, with: RecordedIdentityEngine.org,
                    options: .regularExpression
                ).utf8)
        }
        return RoutedTransport.Reply(status: status(of: name), headers: ["Content-Type": IDX.ionJSON], body: body)
    }

    /// What every request after the introspection is answered with: a document with one error and nothing to do,
    /// so the walk ends at once, whatever its first step was.
    public static let endOfWalk = RoutedTransport.Reply(
        status: 400, headers: ["Content-Type": IDX.ionJSON],
        body: Data(
            #"{"version":"1.0.0","messages":{"type":"array","value":[{"message":"The recorded walk ends here.","i18n":{"key":"corpus.end"},"class":"ERROR"}]}}"#
                .utf8))

    /// Discovery and interact as recorded, the introspection answered with `name`, and every other request on the
    /// org (a form sent, a poll, the token exchange) recorded and answered with `endOfWalk`.
    public static func transport(serving name: String) -> RoutedTransport {
        let recorded = RecordedIdentityEngine.transport()
        let steps = Locked(0)
        return RoutedTransport { request in
            switch request.route {
            case "GET /oauth2/default/.well-known/openid-configuration", "POST /oauth2/default/v1/interact":
                return recorded.answer(request)
            case "POST /idp/idx/introspect":
                return reply(name)
            default:
                // A walker that kept sending after the end of the walk would loop: refused, so the test ends and says so.
                let count = steps.withLock { count in
                    count += 1
                    return count
                }
                guard count <= 3 else { return nil }
                guard request.url.host == URL(string: RecordedIdentityEngine.org)?.host else { return nil }
                return request.url.path.hasPrefix("/idp/")
                    ? endOfWalk : .json(400, #"{"error":"invalid_grant","error_description":"The recorded walk ends here."}"#)
            }
        }
    }
}
