import Foundation
import HTTPTypes
import Hummingbird

/// What the Direct Authentication endpoints send, keys in the order of the recorded answers
/// (`Tests/Fixtures/okta-directauth/swift-directauth-primary-authenticate*.json`, `…challenge-oob*.json`).
enum DirectAuthWire {
    /// Exactly `application/json`: the Kotlin SDK refuses any other value, a charset included (direct-auth.md §1).
    static let contentType = "application/json"

    static func json(_ value: OrderedJSON, status: HTTPResponse.Status = .ok) -> Response {
        var response = Response.json(value, status: status)
        response.headers[.contentType] = contentType
        response.headers[.cacheControl] = "no-store"
        response.headers[.pragma] = "no-cache"
        return response
    }

    /// `/primary-authenticate`, `/oob-authenticate` (no `challenge_type`) and `/challenge` for an OOB factor.
    static func oob(_ record: DirectAuthOOBRecord, now: Date, challengeType: DirectAuthGrant? = nil) -> Response {
        var members: [(String, OrderedJSON)] = []
        if let challengeType { members.append(("challenge_type", .string(challengeType.rawValue))) }
        members.append(("oob_code", .string(record.oobCode)))
        members.append(("expires_in", .int(Int(record.expiresAt.timeIntervalSince(now).rounded()))))
        if record.channel == .push { members.append(("interval", .int(Int(record.interval)))) }
        members.append(("channel", .string(record.channel.rawValue)))
        members.append(("binding_method", .string(record.bindingMethod)))
        if let number = record.transferCode { members.append(("binding_code", .string(number))) }
        return json(.object(JSONObject(members)))
    }

    /// `/challenge` for an OTP factor: the client goes on to `/token` with the code.
    static func otpChallenge() -> Response {
        json(["challenge_type": .string(DirectAuthGrant.mfaOTP.rawValue)])
    }
}

extension HostedAuthorizationServer {
    /// The id the catalogue's "authorization server id" texts name (`default`, or `org` for the org server).
    var directAuthId: String {
        switch self {
        case .org: return "org"
        case .custom(let id): return id
        }
    }
}
