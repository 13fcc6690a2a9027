import Foundation
import IdFlowFoundation

/// A push challenge (devices.md §5), read from a pending-list entry or a notification's `userInfo`
/// WITHOUT any verification: ``ChallengeVerifier`` checks the signature at resolve time, as the SDK does.
public struct PushChallenge: Sendable {
    /// The compact JWT as received.
    public let jwt: String
    public let decoded: DecodedJWT

    public let issuer: String
    public let audience: String
    public let issuedAt: Date
    public let expiresAt: Date
    public let nonce: String
    public let transactionId: String
    public let orgId: String
    public let verificationUri: URL
    public let method: String?
    public let authenticatorEnrollmentId: String?
    public let authorizationServerId: String?
    /// `NONE`, `DISCOURAGED`, `PREFERRED`, `REQUIRED`; nil when absent.
    public let userVerification: String?
    public let signals: [String]
    public let context: [String: JSONValue]

    /// `LOGIN` or `CIBA`; LOGIN when absent or anything else (§6c).
    public var transactionType: String {
        let value = context["transactionType"]?.stringValue?.uppercased()
        return value == "CIBA" ? "CIBA" : "LOGIN"
    }

    public var clientOS: String? { context["clientOS"]?.stringValue }
    public var clientLocation: String? { context["clientLocation"]?.stringValue }
    public var transactionTime: String? { context["transactionTime"]?.stringValue }

    /// CIBA's binding message, percent-decoded as the SDK does.
    public var bindingMessage: String? {
        context["bindingMessage"]?.stringValue.map { $0.removingPercentEncoding ?? $0 }
    }

    /// The numbers of a number challenge (`challengeContext.challengeTextItems`): the sign-in shows one of
    /// them, and the person must pick that one to approve. Empty when the challenge asks for no number.
    public var challengeTextItems: [String] {
        (context["challengeTextItems"]?.arrayValue ?? []).compactMap { $0.stringValue ?? $0.intValue.map(String.init) }
    }

    /// Parses the structure of §5b: every required claim present with its type, `challengeContext` an
    /// object. A token that is not even a JWT is `.invalidInput`; a missing claim names it.
    public init(_ jwt: String) throws(IdFlowError) {
        let decoded = try DecodedJWT(jwt)
        let claims = decoded.claims
        func string(_ name: String) throws(IdFlowError) -> String {
            guard let value = claims[name]?.stringValue, !value.isEmpty else {
                throw .protocolViolation("the push challenge has no \(name) string")
            }
            return value
        }
        func integer(_ name: String) throws(IdFlowError) -> Int {
            guard let value = claims[name]?.intValue else { throw .protocolViolation("the push challenge has no integer \(name)") }
            return value
        }
        self.jwt = jwt.trimmingCharacters(in: .whitespacesAndNewlines)
        self.decoded = decoded
        issuer = try string("iss")
        audience = try string("aud")
        issuedAt = Date(timeIntervalSince1970: TimeInterval(try integer("iat")))
        expiresAt = Date(timeIntervalSince1970: TimeInterval(try integer("exp")))
        nonce = try string("nonce")
        transactionId = try string("transactionId")
        orgId = try string("orgId")
        guard let uri = URL(string: try string("verificationUri")), uri.scheme != nil, uri.host != nil else {
            throw .protocolViolation("the push challenge's verificationUri is not a URL")
        }
        verificationUri = uri
        guard let context = claims["challengeContext"]?.objectValue else {
            throw .protocolViolation("the push challenge has no challengeContext object")
        }
        self.context = context
        method = claims["method"]?.stringValue
        authenticatorEnrollmentId = claims["authenticatorEnrollmentId"]?.stringValue
        authorizationServerId = claims["authorizationServerId"]?.stringValue
        userVerification = claims["userVerification"]?.stringValue
        signals = claims["signals"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// Reads one pending-list entry or notification `userInfo`: `payloadVersion` must be `IDXv1` (also as
    /// `okta.payloadVersion`), and `challenge` (or `okta.challenge`) a well-formed challenge; nil otherwise.
    public static func entry(_ entry: JSONValue) -> PushChallenge? {
        let version = entry["payloadVersion"]?.stringValue ?? entry["okta.payloadVersion"]?.stringValue
        guard version == "IDXv1", let jwt = entry["challenge"]?.stringValue ?? entry["okta.challenge"]?.stringValue else { return nil }
        return try? PushChallenge(jwt)
    }

    /// Reads a pending list (§4): a JSON array, whose entries the SDK would drop (another payload version,
    /// a malformed JWT, no challengeContext) are dropped silently.
    public static func pendingList(_ body: Data) throws(IdFlowError) -> [PushChallenge] {
        guard let document = try? JSONValue(data: body), let entries = document.arrayValue else {
            throw .protocolViolation("the pending-challenges answer is not a JSON array")
        }
        return entries.compactMap(entry)
    }
}

extension PushChallenge {
    /// What to do about a push nobody answered in time (Authn push sign-in and the embedded one alike).
    static let unansweredHint = "answer it with `idflow resolve --next --approve` on the enrolled machine, or raise --mfa-timeout"
    /// What to do about a push that expired on the server before anyone answered it.
    static let expiredHint = "answer it with `idflow resolve --next --approve` on the enrolled machine while it is pending"
}
