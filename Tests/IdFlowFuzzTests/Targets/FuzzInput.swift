import Foundation
import IdFlowCore
import IdFlowFoundation

/// How one fuzzer input becomes the several things a parser reads (a token and its key set, a document and the
/// answers for it, a response's status, headers and body).
///
/// The recorded responses seed the corpus as they are, so an input without the separator is the first part
/// whole; the separator is in the dictionary, so the fuzzer learns to add the other parts.
enum FuzzInput {
    static let separator = Data("\n----\n".utf8)

    /// The input cut at the first `count - 1` separators; parts it lacks are empty.
    static func parts(_ input: Data, _ count: Int) -> [Data] {
        var parts: [Data] = []
        var rest = input[...]
        while parts.count < count - 1, let range = rest.firstRange(of: separator) {
            parts.append(Data(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        parts.append(Data(rest))
        while parts.count < count { parts.append(Data()) }
        return parts
    }

    /// A server's answer: `STATUS\nName: value\n…\n\nBODY` when the input starts with a digit, else the whole
    /// input as the body of a 200 JSON answer (a recorded response, as the seeds hold them).
    static func response(_ input: Data, url: URL) -> HTTPResponse {
        guard let first = input.first, (0x30...0x39).contains(first) else {
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: input, url: url)
        }
        var lines = input.split(separator: 0x0A, maxSplits: 64, omittingEmptySubsequences: false)[...]
        let status = Int(String(decoding: lines.removeFirst().prefix(3), as: UTF8.self)) ?? 200
        var headers: [String: String] = [:]
        var body = Data()
        while let line = lines.popFirst() {
            if line.isEmpty || line == Data([0x0D]) {
                body = lines.isEmpty ? Data() : Data(input[lines.first!.startIndex...])
                break
            }
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":") else { continue }
            headers[String(text[..<colon])] = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return HTTPResponse(status: min(max(status, 100), 599), headers: headers, body: body, url: url)
    }

    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }
}

/// Runs async product code to its end from libFuzzer's synchronous callback.
func blocking(_ work: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await work()
        done.signal()
    }
    done.wait()
}
