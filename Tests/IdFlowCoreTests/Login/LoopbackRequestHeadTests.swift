import Foundation
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// What the loopback listener answers to one request head, without a socket: any local process or web page can
/// send it these bytes (the `loopback` fuzz target feeds it arbitrary ones).
struct LoopbackRequestHeadTests {
    func answer(_ head: String) -> (reply: LoopbackReceiver.Reply, callback: String?, page: String) {
        let (reply, callback) = LoopbackReceiver.answer(head: Array(head.utf8), path: "/callback", port: 8765) { url in
            LoopbackReceiver.verdict(for: url, expectedState: "s1")
        }
        return (reply, callback, String(decoding: LoopbackReceiver.page(reply), as: UTF8.self))
    }

    @Test func thisLoginsRedirectEndsTheWait() {
        let (reply, callback, page) = answer("GET /callback?code=c1&state=s1 HTTP/1.1\r\nHost: 127.0.0.1:8765\r\n\r\n")
        #expect(reply.status == 200)
        #expect(callback == "http://127.0.0.1:8765/callback?code=c1&state=s1")
        #expect(page.hasPrefix("HTTP/1.1 200 OK\r\n"))
    }

    @Test func markupInAForgedRedirectIsShownAsText() {
        let (reply, callback, page) = answer("GET /callback?error=<script>alert(1)</script>&state=other HTTP/1.1\r\n\r\n")
        #expect(reply.status == 400)
        #expect(callback == nil, "another login's state never ends the wait")
        #expect(!page.contains("<script>"))
        let body = page.components(separatedBy: "\r\n\r\n").last ?? ""
        #expect(page.contains("Content-Length: \(body.utf8.count)\r\n"))
    }

    @Test(arguments: [
        "POST /callback?code=c HTTP/1.1", "GET http://evil/callback HTTP/1.1", "GET /other?code=c&state=s1 HTTP/1.1", "\u{0}\u{FF}",
    ])
    func anythingButAGetOfTheCallbackPathIsRefused(line: String) {
        let (reply, callback, _) = answer(line + "\r\n\r\n")
        #expect(callback == nil)
        #expect(reply.status == 400 || reply.status == 404)
    }
}
