import Foundation

/// The refusal both transports give for a body over their cap, worded once so that the user sees the same
/// message (and exit 7) whichever transport read the answer.
enum ResponseSizeCap {
    static func refusal(url: URL?, received: Int, maximum: Int) -> IdFlowError {
        let source = url.map { " from \(Redactor.url($0.absoluteString))" } ?? ""
        return .protocolViolation(
            "the response\(source) is larger than \(describe(bytes: maximum)) (at least \(received) bytes); idflow refuses answers that big"
        )
    }

    /// "10 MiB" for a whole number of mebibytes, else the byte count.
    package static func describe(bytes: Int) -> String {
        bytes % (1024 * 1024) == 0 ? "\(bytes / (1024 * 1024)) MiB" : "\(bytes) bytes"
    }
}
