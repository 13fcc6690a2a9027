import Foundation
import Hummingbird

/// `/sandbox/…`: controls for tests and demos (clock, outbox, faults, rate limits). Needs the SSWS
/// token like the management API, and is never rate limited or faulted itself.
struct AdminController {
    let state: SandboxState

    func register(in routes: RouteRegistry) {
        routes.get("/sandbox/info", use: info)
        routes.get("/sandbox/clock", use: clock)
        routes.post("/sandbox/clock", use: advanceClock)
        routes.get("/sandbox/outbox", use: outbox)
        routes.delete("/sandbox/outbox", use: clearOutbox)
        routes.get("/sandbox/faults", use: listFaults)
        routes.post("/sandbox/faults", use: addFault)
        routes.delete("/sandbox/faults", use: clearFaults)
        routes.delete("/sandbox/faults/:id", use: deleteFault)
        routes.post("/sandbox/faults/:id/release", use: releaseFault)
        routes.get("/sandbox/faults/:id/held", use: heldByFault)
        routes.get("/sandbox/rate-limits", use: rateLimits)
        routes.post("/sandbox/rate-limits", use: configureRateLimit)
        routes.get("/sandbox/records", use: records)
        routes.get("/sandbox/users/:user/authenticators", use: authenticators)
    }

    /// `GET /sandbox/users/{id or login}/authenticators` → `{"userId","login","authenticators":[…]}`: each enrolled
    /// authenticator with what a test needs to answer it (the phone number, the question, TOTP seeds as
    /// `sharedSecret`); 404 E0000007 for an unknown user.
    @Sendable func authenticators(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        .json(try await state.idxAuthenticators(idOrLogin: request.pathParameter("user", context: context)))
    }

    /// `GET /sandbox/info` → the same document `idflow sandbox` prints (custom registration's client included).
    @Sendable func info(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        .json(await state.info.json)
    }

    /// `GET /sandbox/records` → how many records of each kind the sandbox holds (`{"accessTokens": N, …}`),
    /// so a memory measurement can tell records still in their lifetime from a leak.
    @Sendable func records(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let counts = await state.recordCounts()
        return .json(.object(JSONObject(counts.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })))
    }

    // MARK: Clock

    /// `GET /sandbox/clock` → `{"now": ISO, "offsetSeconds": N}`.
    @Sendable func clock(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        .json(await clockJSON())
    }

    struct AdvanceBody: Decodable {
        var advanceSeconds: Double?
        var reset: Bool?
    }

    /// `POST /sandbox/clock {"advanceSeconds": N}` moves the clock by N seconds, back when negative, but never
    /// before real time (400 naming how far back it may go); `{"reset": true}` puts it back on real time.
    @Sendable func advanceClock(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSONBody(AdvanceBody.self, context: context)
        switch (body?.advanceSeconds, body?.reset ?? false) {
        case (nil, true):
            await state.resetClock()
        case (let seconds?, false):
            guard await state.advanceClock(bySeconds: seconds) else {
                let offset = await state.clockOffset.rounded(.down)
                throw OktaErrorResponse.validation(
                    "advanceSeconds",
                    causes: [
                        "advanceSeconds: the clock cannot go before real time; it is \(Int(offset)) s ahead, so advanceSeconds must be at least \(-Int(offset)) (or send {\"reset\": true})"
                    ])
            }
        default:
            throw OktaErrorResponse.validation(
                "advanceSeconds",
                causes: ["advanceSeconds: give a number of seconds (negative moves back), or {\"reset\": true} alone"])
        }
        return .json(await clockJSON())
    }

    private func clockJSON() async -> OrderedJSON {
        let now = await state.now
        return ["now": .string(Timestamps.iso8601(now)), "offsetSeconds": .double(now.timeIntervalSinceNow.rounded())]
    }

    // MARK: Outbox

    /// `GET /sandbox/outbox` → `[{"to","subject","activationUrl","sentAt"}]` for mails and
    /// `[{"to","subject","code","sentAt"}]` for a custom registration's texts, and `[{"to","subject","code","channel",
    /// "sentAt"}]` for an Identity Engine code (`channel` email, sms or voice; `to` the address or E.164 number), and
    /// `[{"to","subject","link","recoveryToken","sentAt"}]` for a password-reset or unlock mail, oldest first. An Authn
    /// recovery text is an ordinary code entry (`channel` sms or voice).
    @Sendable func outbox(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let messages = await state.outboxMessages
        return .json(
            .array(
                messages.map { message in
                    var entry: JSONObject = ["to": .string(message.to), "subject": .string(message.subject)]
                    if let url = message.activationUrl { entry["activationUrl"] = .string(url) }
                    if let code = message.code { entry["code"] = .string(code) }
                    if let channel = message.channel { entry["channel"] = .string(channel) }
                    if let link = message.link { entry["link"] = .string(link) }
                    if let token = message.recoveryToken { entry["recoveryToken"] = .string(token) }
                    entry["sentAt"] = .string(Timestamps.iso8601(message.sentAt))
                    return .object(entry)
                }))
    }

    /// `DELETE /sandbox/outbox` → 204, empties it.
    @Sendable func clearOutbox(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        await state.clearOutbox()
        return .empty(.noContent)
    }

    // MARK: Faults

    /// The body of `POST /sandbox/faults`; only `pathPrefix` is required.
    struct FaultBody: Decodable {
        var pathPrefix: String?
        var method: String?
        var status: Int?
        var body: String?
        var contentType: String?
        var headers: [String: String]?
        var delayMs: Int?
        var count: Int?
        var dropConnection: Bool?
        /// The body is sent this many times over, so a test can get a large answer from a small request.
        var bodyRepeat: Int?
        /// Hold the matching request until `POST /sandbox/faults/{id}/release`.
        var hold: Bool?
    }

    /// `POST /sandbox/faults` → 201 with the stored fault (its `id`, and `count` = uses left).
    @Sendable func addFault(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        var request = request
        let body = try await request.requireJSONBody(FaultBody.self, context: context)
        guard let pathPrefix = body.pathPrefix, pathPrefix.hasPrefix("/") else {
            throw OktaErrorResponse.validation("pathPrefix", causes: ["pathPrefix: must be a path starting with /"])
        }
        if let status = body.status, !(100...599).contains(status) {
            throw OktaErrorResponse.validation("status", causes: ["status: must be an HTTP status between 100 and 599"])
        }
        let count = body.count ?? 1
        guard count >= 1 else { throw OktaErrorResponse.validation("count", causes: ["count: must be at least 1"]) }
        let delayMs = body.delayMs ?? 0
        guard (0...120_000).contains(delayMs) else {
            throw OktaErrorResponse.validation("delayMs", causes: ["delayMs: must be between 0 and 120000"])
        }
        let bodyRepeat = body.bodyRepeat ?? 1
        guard (1...100_000).contains(bodyRepeat) else {
            throw OktaErrorResponse.validation("bodyRepeat", causes: ["bodyRepeat: must be between 1 and 100000"])
        }
        let fault = Fault(
            id: RandomToken.string(count: 12), pathPrefix: pathPrefix, method: body.method?.uppercased(),
            status: body.status, body: body.body ?? "", contentType: body.contentType ?? Response.jsonContentType,
            headers: body.headers ?? [:], delayMs: delayMs, remaining: count, dropConnection: body.dropConnection ?? false,
            bodyRepeat: bodyRepeat, hold: body.hold ?? false)
        await state.addFault(fault)
        return .json(fault.json, status: .created)
    }

    /// `GET /sandbox/faults` → the faults still armed.
    @Sendable func listFaults(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        .json(.array(await state.faults.map(\.json)))
    }

    /// `DELETE /sandbox/faults` → 204, disarms all.
    @Sendable func clearFaults(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        await state.clearFaults()
        return .empty(.noContent)
    }

    /// `DELETE /sandbox/faults/{id}` → 204, or 404 when no such fault is armed.
    @Sendable func deleteFault(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let id = request.pathParameter("id", context: context)
        guard await state.removeFault(id: id) else { throw OktaErrorResponse.notFound(id, type: "Fault") }
        return .empty(.noContent)
    }

    /// `POST /sandbox/faults/{id}/release` → `{"released": n}`, the requests the hold fault `id` was keeping; a
    /// request that arrives after the release is not held. 200 even for an id no request has reached yet.
    @Sendable func releaseFault(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let id = request.pathParameter("id", context: context)
        return .json(["released": .int(await state.releaseHeldRequests(fault: id))])
    }

    /// `GET /sandbox/faults/{id}/held` → `{"held": n}`, how many requests the hold fault `id` keeps now.
    @Sendable func heldByFault(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let id = request.pathParameter("id", context: context)
        return .json(["held": .int(await state.heldRequestCount(fault: id))])
    }

    // MARK: Rate limits

    struct RateLimitBody: Decodable {
        var family: String?
        var limit: Int?
        var windowSeconds: Int?
    }

    /// `GET /sandbox/rate-limits` → `{"users":{"limit","windowSeconds","remaining","reset"},…}`.
    @Sendable func rateLimits(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        .json(await rateLimitsJSON())
    }

    /// `POST /sandbox/rate-limits {"family","limit","windowSeconds"?}`; `limit` null or 0 turns it off.
    @Sendable func configureRateLimit(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        var request = request
        let body = try await request.requireJSONBody(RateLimitBody.self, context: context)
        guard let family = body.family.flatMap(RateLimitFamily.init(rawValue:)) else {
            let known = RateLimitFamily.allCases.map(\.rawValue).joined(separator: ", ")
            throw OktaErrorResponse.validation("family", causes: ["family: must be one of \(known)"])
        }
        if let window = body.windowSeconds, window < 1 {
            throw OktaErrorResponse.validation("windowSeconds", causes: ["windowSeconds: must be at least 1"])
        }
        await state.configureRateLimit(family, limit: body.limit, windowSeconds: body.windowSeconds)
        return .json(await rateLimitsJSON())
    }

    private func rateLimitsJSON() async -> OrderedJSON {
        var object = JSONObject()
        for family in RateLimitFamily.allCases {
            let (rule, status) = await state.rateLimitRule(family)
            object[family.rawValue] = [
                "limit": rule.limit.map(OrderedJSON.int) ?? .null,
                "windowSeconds": .int(rule.windowSeconds),
                "remaining": .int(status.remaining),
                "reset": .int(status.reset),
            ]
        }
        return .object(object)
    }
}
