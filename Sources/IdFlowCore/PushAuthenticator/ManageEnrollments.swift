import Foundation
import IdFlowFoundation

/// `idflow enroll update ID`: a merge patch of the push method (devices.md §3a): a new push token, or the
/// user-verification key switched on (a new key sealed under the PIN, new kid) or off (dropped locally only
/// after the server agreed).
public struct UpdateEnrollment: Sendable {
    public var enrollmentId: String
    public var pushToken: String?
    /// true: add (or replace) the user-verification key; false: drop it; nil: leave it.
    public var userVerification: Bool?
    public var pin: SecretSource?
    public var accessTokenFromStandardInput: Bool

    public init(
        enrollmentId: String, pushToken: String? = nil, userVerification: Bool? = nil, pin: SecretSource? = nil,
        accessTokenFromStandardInput: Bool = false
    ) {
        self.enrollmentId = enrollmentId
        self.pushToken = pushToken
        self.userVerification = userVerification
        self.pin = pin
        self.accessTokenFromStandardInput = accessTokenFromStandardInput
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> EnrollmentOutput {
        guard pushToken != nil || userVerification != nil else {
            throw .invalidInput("nothing to update", hint: "pass --push-token HEX and/or --user-verification on|off")
        }
        let store = DeviceStore(context)
        var (record, folder) = try store.enrollment(enrollmentId, orgURL: try AuthenticatorOrg.configuredIfAny(context))
        let org = try record.org()
        var pinSecret: Secret?
        if userVerification == true {
            guard let pin else { throw EnrollDevice.pinMissing }
            pinSecret = try SealedKey.acceptable(context.secrets.read("PIN", from: pin))
        }
        let (token, _) = try MyAccountToken.resolve(context, org: org, fromStandardInput: accessTokenFromStandardInput)
        let url = try record.link(on: org)

        var push: [String: JSONValue] = [:]
        if let pushToken, !pushToken.isEmpty { push["pushToken"] = .string(pushToken) }
        var newKey: DeviceKey?
        switch userVerification {
        case true?:
            let key = DeviceKey.generate(.userVerification)
            try folder.save(key, pin: pinSecret, now: context.now())
            newKey = key
            push["keys"] = ["userVerification": key.publicJWK]
        case false?:
            push["keys"] = ["userVerification": .null]
        case nil:
            break
        }
        let answer: AppAuthenticatorEnrollment?
        do {
            answer = try await context.http.send(UpdateEnrollmentRequest(url: url, accessToken: token, push: .object(push)))
        } catch {
            if let newKey { try? folder.removeKey(newKey.kid) }
            throw error
        }
        if let pushToken { record.pushToken = pushToken }
        if let userVerification {
            if let old = record.userVerificationKeyId { try? folder.removeKey(old) }
            record.userVerificationKeyId = userVerification ? newKey?.kid : nil
        }
        if let answer, let push = answer.methods?.push {
            record.methodEnrollmentId = push.id
            if let pending = push.links?.pending?.href, (try? AuthenticatorOrg.link(pending, on: org, what: "pending link")) != nil {
                record.pendingUrl = pending
            }
        }
        try folder.save(record)
        context.message("updated enrollment \(record.enrollmentId)")
        return EnrollmentOutput(record)
    }
}

/// `idflow enroll delete ID`: DELETE on the server (§3b; the error codes of §8 that mean "already gone"
/// count as deleted), then the local record and its keys. `--local-only` forgets it here only.
public struct DeleteEnrollment: Sendable {
    public var enrollmentId: String
    public var localOnly: Bool
    public var accessTokenFromStandardInput: Bool

    public init(enrollmentId: String, localOnly: Bool = false, accessTokenFromStandardInput: Bool = false) {
        self.enrollmentId = enrollmentId
        self.localOnly = localOnly
        self.accessTokenFromStandardInput = accessTokenFromStandardInput
    }

    public struct Output: Encodable, Sendable, Equatable {
        public var enrollmentId: String
        public var deleted: Bool
        public var localOnly: Bool
        /// The error code the server answered when it counted as deleted (E0000154, …); absent after a 2xx.
        public var serverErrorCode: String?
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> Output {
        let (record, folder) = try DeviceStore(context).enrollment(
            enrollmentId, orgURL: try AuthenticatorOrg.configuredIfAny(context))
        var code: String?
        if !localOnly {
            let org = try record.org()
            let (token, _) = try MyAccountToken.resolve(context, org: org, fromStandardInput: accessTokenFromStandardInput)
            let url = try record.link(on: org)
            code = try await context.http.send(DeleteEnrollmentRequest(url: url, accessToken: token))
            if let code { context.message("the server answered \(code): the enrollment is already gone there") }
        }
        try folder.remove(record)
        context.message(
            localOnly ? "forgot enrollment \(record.enrollmentId) on this machine only" : "deleted enrollment \(record.enrollmentId)")
        return Output(enrollmentId: record.enrollmentId, deleted: true, localOnly: localOnly, serverErrorCode: code)
    }
}

/// `idflow enroll list`: the enrollments kept on this machine; `--check` asks the server about each with
/// its own maintenance token (no user token needed).
public struct ListEnrollments: Sendable {
    public var check: Bool

    public init(check: Bool = false) {
        self.check = check
    }

    public struct Entry: Encodable, Sendable, Equatable {
        public var enrollmentId: String
        public var authenticatorId: String
        public var orgUrl: String
        public var userId: String
        public var username: String?
        public var displayName: String?
        public var deviceId: String
        public var methodEnrollmentId: String
        public var userVerification: Bool
        public var createdAt: String
        /// With `--check`: ACTIVE, RESET, DELETED, SUSPENDED or INVALID (the org refuses the enrollment's key).
        public var serverStatus: String?
        public var serverError: String?
    }

    public struct Output: Encodable, Sendable, Equatable {
        public var enrollments: [Entry]
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> Output {
        let store = DeviceStore(context)
        var entries: [Entry] = []
        for record in try store.enrollments(orgURL: try AuthenticatorOrg.configuredIfAny(context)) {
            var entry = Entry(
                enrollmentId: record.enrollmentId, authenticatorId: record.authenticatorId, orgUrl: record.orgUrl, userId: record.userId,
                username: record.username, displayName: record.displayName, deviceId: record.deviceId,
                methodEnrollmentId: record.methodEnrollmentId, userVerification: record.userVerificationKeyId != nil,
                createdAt: ISO8601.string(record.createdAt))
            if check {
                do {
                    _ = try await PendingChallenges.of(record, folder: try store.org(try record.storedOrgURL()), context)
                    entry.serverStatus = "ACTIVE"
                } catch {
                    guard let status = Self.status(of: error) else { throw error }
                    entry.serverStatus = status
                    entry.serverError = error.message
                }
            }
            entries.append(entry)
        }
        return Output(enrollments: entries)
    }

    /// The enrollment state the SDK records for a server error (§8); nil for failures that say nothing
    /// about the enrollment (network, 5xx), which end the command.
    static func status(of error: IdFlowError) -> String? {
        switch error {
        case .okta(_, let body, _):
            switch body.errorCode {
            case "E0000153", "E0000154": return "RESET"
            case "E0000156", "E0000008": return "DELETED"
            case "E0000152", "E0000155", "E0000180": return "SUSPENDED"
            default: return [.authentication, .rejected, .notFound].contains(error.exitStatus) ? "INVALID" : nil
            }
        case .oauth:
            return [.authentication, .rejected].contains(error.exitStatus) ? "INVALID" : nil
        default:
            return nil
        }
    }
}
