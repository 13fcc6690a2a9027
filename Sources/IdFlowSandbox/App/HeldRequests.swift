/// The requests a `hold` fault keeps waiting, by fault id. A release that comes before its request is remembered, so
/// a test never has to know whether the request has reached the sandbox yet.
struct HeldRequests: Sendable {
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    private var released: Set<String> = []

    mutating func wait(_ id: String, _ continuation: CheckedContinuation<Void, Never>) {
        if released.contains(id) {
            continuation.resume()
        } else {
            waiting[id, default: []].append(continuation)
        }
    }

    mutating func release(_ id: String) -> Int {
        released.insert(id)
        let held = waiting.removeValue(forKey: id) ?? []
        for continuation in held { continuation.resume() }
        return held.count
    }

    mutating func releaseAll() {
        for id in Array(waiting.keys) { _ = release(id) }
    }

    func waiting(_ id: String) -> Int {
        waiting[id]?.count ?? 0
    }
}
