import Foundation

@testable import IdFlowCore
@testable import IdFlowFoundation

extension FuzzTargets {
    /// One connection's bytes to the loopback redirect listener, which any local process or web page can reach:
    /// the request head is read as the listener reads it, judged as this login's redirect (a code, an interaction
    /// code, an error) or not, and answered with a page that must quote nothing of the request unescaped.
    static let loopback = FuzzTarget(
        name: "loopback",
        summary: "the loopback redirect listener: raw bytes as one connection's request head, and the page it answers"
    ) { input in
        let head = Array(input.prefix(LoopbackReceiver.maximumHeadBytes + 4096))
        for answer in ["code", "interaction_code"] {
            let (reply, callback) = LoopbackReceiver.answer(head: head, path: "/callback", port: 8765) { url in
                LoopbackReceiver.verdict(for: url, expectedState: "fuzz-state", answer: answer, continuing: ["interaction_required"])
            }
            if let callback {
                _ = try? AuthorizationResponse.parameters(from: callback, expectedState: "fuzz-state", continuing: [])
            }
            let page = String(decoding: LoopbackReceiver.page(reply), as: UTF8.self)
            // The page's own 14 tags, and not one more: a "<" from the request would be markup in the browser.
            precondition(page.filter { $0 == "<" }.count == 14, "the redirect page quotes the request unescaped")
        }
    }
}
