import Foundation
import IdFlowFoundation

/// `idflow challenges`: the pending push challenges of this machine's enrollments (devices.md §4, §7b),
/// each fetched with the enrollment's own maintenance token. Signatures are checked when a challenge is
/// answered, not here, as the SDK does.
public struct ListChallenges: Sendable {
    public var enrollmentId: String?
    /// Poll until at least one challenge is pending, up to this long (exit 9 after); nil answers at once.
    public var wait: Duration?
    public var pollInterval: Duration

    public init(enrollmentId: String? = nil, wait: Duration? = nil, pollInterval: Duration = .seconds(2)) {
        self.enrollmentId = enrollmentId
        self.wait = wait
        self.pollInterval = pollInterval
    }

    /// One challenge as docs/contract.md lists it; every key is present, null when the challenge does not say.
    public struct Summary: Encodable, Sendable, Equatable {
        public var transactionId: String
        public var enrollmentId: String
        public var userId: String
        public var transactionType: String
        @NullWhenAbsent public var clientOS: String?
        @NullWhenAbsent public var clientLocation: String?
        @NullWhenAbsent public var transactionTime: String?
        public var userVerification: String
        @NullWhenAbsent public var bindingMessage: String?
        /// The numbers to pick from when the sign-in shows one (number challenge); `resolve --number` answers.
        @NullWhenAbsent public var challengeTextItems: [String]?
        public var expiresAt: String
        public var verificationUri: String

        init(_ record: EnrollmentRecord, _ challenge: PushChallenge) {
            transactionId = challenge.transactionId
            enrollmentId = record.enrollmentId
            userId = record.userId
            transactionType = challenge.transactionType
            clientOS = challenge.clientOS
            clientLocation = challenge.clientLocation
            transactionTime = challenge.transactionTime ?? ISO8601.string(challenge.issuedAt)
            userVerification = challenge.userVerification?.uppercased() ?? "NONE"
            bindingMessage = challenge.bindingMessage
            challengeTextItems = challenge.challengeTextItems.isEmpty ? nil : challenge.challengeTextItems
            expiresAt = ISO8601.string(challenge.expiresAt)
            verificationUri = challenge.verificationUri.absoluteString
        }
    }

    public struct Output: Encodable, Sendable, Equatable {
        public var challenges: [Summary]
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> Output {
        let records = try Self.enrollments(context, enrollmentId: enrollmentId)
        guard let wait else {
            if records.isEmpty { context.message("no push enrollment is kept on this machine; `idflow enroll` creates one") }
            return Output(challenges: try await Self.pending(records, context))
        }
        // Nothing can arrive for an enrollment that does not exist: say so now rather than wait out --wait.
        guard !records.isEmpty else {
            throw .notFound(
                "no push enrollment is kept on this machine, so no push challenge can arrive",
                hint: "`idflow enroll` makes this machine a push authenticator; then run `idflow challenges --wait` again")
        }
        // Ctrl-C or SIGTERM ends the wait as `.interrupted` (exit 130, the error line).
        let pollInterval = self.pollInterval
        return try await Interruption.cancellingOnInterrupt(Self.interrupted) { () throws(IdFlowError) in
            try await Self.waitForChallenges(records, wait: wait, pollInterval: pollInterval, context)
        }
    }

    static let interrupted = "interrupted while waiting for a push challenge"

    /// Polls until at least one challenge is pending; `.timedOut` (exit 9) once `wait` has passed without one.
    private static func waitForChallenges(
        _ records: [EnrollmentRecord], wait: Duration, pollInterval: Duration, _ context: IdFlowContext
    ) async throws(IdFlowError) -> Output {
        var poll = PollingClock(context, limit: wait, interruption: .interrupted(interrupted))
        var announced = false
        while true {
            let pending = try await Self.pending(records, context)
            if !pending.isEmpty { return Output(challenges: pending) }
            if !announced {
                context.message("waiting up to \(Int(wait.inSeconds)) s for a push challenge…")
                announced = true
            }
            guard try await poll.wait(pollInterval) else {
                throw .timedOut(
                    "no push challenge arrived within \(Int(wait.inSeconds)) s",
                    hint: "start the sign-in that sends the push, or wait longer with --wait")
            }
        }
    }

    private static func pending(_ records: [EnrollmentRecord], _ context: IdFlowContext) async throws(IdFlowError) -> [Summary] {
        guard !records.isEmpty else { return [] }
        return try await PendingChallenges.of(records, context).map { Summary($0.0, $0.1) }
    }

    /// The enrollment `enrollmentId` (exit 5 when it is not kept here), or every enrollment of the configured org.
    static func enrollments(_ context: IdFlowContext, enrollmentId: String?) throws(IdFlowError) -> [EnrollmentRecord] {
        let store = DeviceStore(context)
        let org = try AuthenticatorOrg.configuredIfAny(context)
        if let enrollmentId { return [try store.enrollment(enrollmentId, orgURL: org).0] }
        return try store.enrollments(orgURL: org)
    }
}
