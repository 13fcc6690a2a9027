/// A scripted failure: the next `remaining` requests matching `pathPrefix` (and `method`) get this
/// answer instead of the real one. Lets client tests exercise retries, HTML error pages from a
/// proxy, slow responses and dropped connections against an otherwise real sandbox.
struct Fault: Sendable {
    let id: String
    let pathPrefix: String
    /// nil matches every method.
    let method: String?
    /// nil (without `dropConnection`) means "delay, then answer normally".
    let status: Int?
    let body: String
    let contentType: String
    let headers: [String: String]
    let delayMs: Int
    var remaining: Int
    let dropConnection: Bool
    /// How many times `body` is sent back to back.
    var bodyRepeat: Int = 1
    /// The matching request waits until `POST /sandbox/faults/{id}/release` (or `Fault.holdLimit`), then is answered
    /// as the rest of the fault says: a test does its deed while a request is in flight, however slow the machine,
    /// where a delay would give it a fixed number of seconds.
    var hold = false

    /// A hold nobody releases ends here, so a test that failed before releasing leaves no request hanging for good.
    static let holdLimit = Duration.seconds(600)

    func matches(path: String, method: String) -> Bool {
        path.hasPrefix(pathPrefix) && (self.method.map { $0.uppercased() == method.uppercased() } ?? true)
    }

    var json: OrderedJSON {
        [
            "id": .string(id),
            "pathPrefix": .string(pathPrefix),
            "method": OrderedJSON(method),
            "status": status.map(OrderedJSON.int) ?? .null,
            "body": .string(body),
            "contentType": .string(contentType),
            "headers": .object(JSONObject(headers.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
            "delayMs": .int(delayMs),
            "count": .int(remaining),
            "dropConnection": .bool(dropConnection),
            "bodyRepeat": .int(bodyRepeat),
            "hold": .bool(hold),
        ]
    }
}
