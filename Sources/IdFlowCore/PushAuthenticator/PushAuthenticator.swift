import Foundation

/// What the push-authenticator flows share: the org as the device protocol names it, the user's Bearer
/// token for MyAccount calls, the maintenance token bought with the PoP key, and the pending lists.
enum PushAuthenticator {
    /// The org as the device protocol uses it (`aud` of every device JWT, the folder key): scheme, host and
    /// port only, no path and no trailing slash.
    static func origin(_ url: URL) throws(IdFlowError) -> URL {
        try TransportSecurity.check(url)
        var components = URLComponents()
        components.scheme = url.scheme?.lowercased()
        components.host = url.host?.lowercased()
        components.port = url.port
        guard let origin = components.url, url.host != nil else { throw .invalidInput("the org URL \(url.absoluteString) has no host") }
        return origin
    }

    /// The configured org, as an origin.
    static func configuredOrg(_ context: IdFlowContext) throws(IdFlowError) -> URL {
        try origin(try context.configuration.requireOrgURL())
    }

    /// The configured org when one is set (then only its enrollments are used), nil for every org's.
    static func configuredOrgIfAny(_ context: IdFlowContext) throws(IdFlowError) -> URL? {
        context.configuration.orgURL == nil ? nil : try configuredOrg(context)
    }

    static func store(_ context: IdFlowContext) -> DeviceStore {
        DeviceStore(stateDirectory: context.configuration.stateDirectory)
    }

    /// A URL from a server answer or a stored record that a token or a signed answer goes to: it must be on the org.
    static func onOrg(_ text: String, org: URL, what: String) throws(IdFlowError) -> URL {
        guard let url = URL(string: text), url.host != nil else { throw .protocolViolation("the \(what) \(text) is not a URL") }
        guard OrgEndpoint(orgURL: org).contains(url) else {
            throw .security(
                "the \(what) \(Redactor.url(text)) is not on the org \(org.absoluteString); refusing to send anything there",
                hint: "the server or the enrollment record points elsewhere; check --org-url")
        }
        try TransportSecurity.check(url)
        return url
    }

    /// Where an enrollment is PATCHed and DELETEd: its `links.self`, else `{org}/idp/myaccount/app-authenticators/{id}` (§3).
    static func enrollmentLink(_ record: EnrollmentRecord, org: URL) throws(IdFlowError) -> URL {
        let fallback = OrgEndpoint(orgURL: org).url(["idp", "myaccount", "app-authenticators", record.enrollmentId])
        return try onOrg(record.selfUrl ?? fallback.absoluteString, org: org, what: "enrollment link")
    }

    /// The user's access token for the MyAccount calls (enroll, update, delete) and the OAuth client it was
    /// issued to: from stdin, or the profile's store, whose issuer must be on the org.
    static func userToken(_ context: IdFlowContext, org: URL, fromStandardInput: Bool) throws(IdFlowError) -> (
        token: Secret, clientID: String?
    ) {
        if fromStandardInput {
            let token = try context.secrets.read("access token", from: .standardInput).value.trimmingCharacters(in: .whitespacesAndNewlines)
            return (Secret(token), context.configuration.clientID)
        }
        let stored = try TokenStore(directory: context.configuration.profileDirectory).loadRequired(
            profile: context.configuration.profile,
            hint:
                "log in first with `idflow login-pkce --scope \"openid profile offline_access okta.myAccount.appAuthenticator.manage\" …`, or pass --access-token-stdin"
        )
        guard let issuer = URL(string: stored.issuer), OrgEndpoint(orgURL: org).contains(issuer) else {
            throw .configuration(
                "the tokens stored for profile \(context.configuration.profile) were issued by \(stored.issuer), not by the org \(org.absoluteString); refusing to send them there",
                hint: "log in against this org, pass --access-token-stdin, or choose another --profile")
        }
        guard let access = stored.token(.access) else {
            throw .localState("no access token is stored for profile \(context.configuration.profile)", hint: "log in again")
        }
        if let expiry = stored.expiresAt, expiry <= context.now() {
            throw .authentication(
                "the access token stored for profile \(context.configuration.profile) expired at \(ISO8601.string(expiry))",
                hint: "run `idflow refresh`, or log in again")
        }
        return (Secret(access), context.configuration.clientID ?? stored.clientId)
    }

    /// A maintenance token for `record` (§7b): the jwt-bearer grant with an assertion signed by its PoP key.
    static func maintenanceToken(_ context: IdFlowContext, _ record: EnrollmentRecord, folder: OrgDeviceFolder) async throws(IdFlowError)
        -> Secret
    {
        let org = try origin(try url(record.orgUrl))
        let key = try folder.silentKey(record.proofOfPossessionKeyId, role: .proofOfPossession)
        var claims = DeviceJWT.timeClaims(now: context.now())
        claims["iss"] = "urn:okta:devices:app:authenticator"
        claims["aud"] = .string(org.absoluteString)
        claims["sub"] = .string(record.userId)
        claims["methodEnrollmentId"] = .string(record.methodEnrollmentId)
        let assertion = try DeviceJWT.sign(type: "JWT", claims: .object(claims), key: key)
        let token = try await context.http.send(MaintenanceTokenRequest(orgURL: org, clientID: record.oauthClientId, assertion: assertion))
        return Secret(token.accessToken)
    }

    /// The pending challenges of one enrollment (maintenance token, then its pending link).
    static func pending(_ context: IdFlowContext, _ record: EnrollmentRecord, folder: OrgDeviceFolder) async throws(IdFlowError)
        -> [PushChallenge]
    {
        let org = try origin(try url(record.orgUrl))
        let link = try onOrg(record.pendingUrl, org: org, what: "pending-challenges link")
        let token = try await maintenanceToken(context, record, folder: folder)
        return try await context.http.send(PendingChallengesRequest(url: link, accessToken: token))
    }

    /// The pending challenges of every enrollment in `records`, oldest first, each with its enrollment.
    /// With several enrollments one that fails is noted on stderr and skipped; if every one fails, the
    /// first failure is thrown.
    static func pending(_ context: IdFlowContext, _ records: [EnrollmentRecord]) async throws(IdFlowError) -> [(
        EnrollmentRecord, PushChallenge
    )] {
        var found: [(EnrollmentRecord, PushChallenge)] = []
        var firstFailure: IdFlowError?
        var seen: Set<String> = []
        for record in records {
            do {
                let folder = try store(context).org(try url(record.orgUrl))
                for challenge in try await pending(context, record, folder: folder) where seen.insert(challenge.transactionId).inserted {
                    found.append((record, challenge))
                }
            } catch {
                guard records.count > 1 else { throw error }
                firstFailure = firstFailure ?? error
                context.message("enrollment \(record.enrollmentId): \(error.message)")
            }
        }
        if found.isEmpty, let firstFailure, records.count > 1 {
            throw firstFailure
        }
        return found.sorted { ($0.1.issuedAt, $0.1.transactionId) < ($1.1.issuedAt, $1.1.transactionId) }
    }

    static func url(_ text: String) throws(IdFlowError) -> URL {
        guard let url = URL(string: text) else { throw .localState("the stored org URL \(text) is not a URL") }
        return url
    }

    /// Waits `interval` between polls with the client's sleep (instant in tests), and tells whether the
    /// overall wait is over: either the slept time or the wall clock passed `limit`.
    struct Poll {
        /// What to do about a push nobody answered in time (Authn push sign-in and the embedded one alike).
        static let unansweredHint = "answer it with `idflow resolve --next --approve` on the enrolled machine, or raise --mfa-timeout"
        /// What to do about a push that expired on the server before anyone answered it.
        static let expiredHint = "answer it with `idflow resolve --next --approve` on the enrolled machine while it is pending"

        let context: IdFlowContext
        let limit: Duration
        let started: Date
        var slept: Duration = .zero

        init(_ context: IdFlowContext, limit: Duration) {
            self.context = context
            self.limit = limit
            started = context.now()
        }

        var elapsed: Duration {
            max(slept, .milliseconds(Int(context.now().timeIntervalSince(started) * 1000)))
        }

        var isOver: Bool { elapsed >= limit }

        /// Sleeps `interval` (never past the limit); false when the limit was already reached.
        mutating func wait(_ interval: Duration) async throws(IdFlowError) -> Bool {
            guard !isOver else { return false }
            let step = min(interval, limit - elapsed)
            do {
                try await context.http.sleep(step)
            } catch {
                throw .internalFailure("interrupted while waiting")
            }
            slept += step
            return true
        }
    }
}

/// What `enroll` and `enroll update` print (CONTRACT.md).
public struct EnrollmentOutput: Encodable, Sendable, Equatable {
    public var enrollmentId: String
    public var authenticatorId: String
    public var userId: String
    public var deviceId: String
    public var methodEnrollmentId: String
    public var userVerification: Bool
    public var orgUrl: String

    public init(_ record: EnrollmentRecord) {
        enrollmentId = record.enrollmentId
        authenticatorId = record.authenticatorId
        userId = record.userId
        deviceId = record.deviceId
        methodEnrollmentId = record.methodEnrollmentId
        userVerification = record.userVerificationKeyId != nil
        orgUrl = record.orgUrl
    }
}
