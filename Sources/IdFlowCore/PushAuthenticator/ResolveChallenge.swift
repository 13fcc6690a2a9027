import Foundation
import IdFlowFoundation

/// `idflow resolve`: answers one pending push challenge (devices.md §5c, §6). The challenge is checked
/// against the org's published keys before anything is signed; the answer is one ES256 JWT signed by the
/// PoP key, or by the user-verification key once the PIN unlocked it, POSTed without Authorization.
public struct ResolveChallenge: Sendable {
    public enum Target: Sendable, Equatable {
        case transaction(String)
        /// The oldest pending challenge.
        case next
    }

    public var target: Target
    public var approve: Bool
    /// Sign with the user-verification key even when the challenge does not ask for it.
    public var userVerification: Bool
    /// Where the PIN comes from, when one was given; read only if the user-verification key is used.
    public var pin: SecretSource?
    public var enrollmentId: String?
    /// The number picked for a number challenge (`--number`); asked at a terminal when the challenge has one.
    public var number: String?

    public init(
        target: Target, approve: Bool, userVerification: Bool = false, pin: SecretSource? = nil, enrollmentId: String? = nil,
        number: String? = nil
    ) {
        self.number = number
        self.target = target
        self.approve = approve
        self.userVerification = userVerification
        self.pin = pin
        self.enrollmentId = enrollmentId
    }

    public struct Output: Encodable, Sendable, Equatable {
        public var transactionId: String
        /// APPROVED or DENIED, as the server took it.
        public var decision: String
        public var userConsent: String
        public var keyType: String
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> Output {
        let records = try ListChallenges.enrollments(context, enrollmentId: enrollmentId)
        guard !records.isEmpty else {
            throw .notFound("no push enrollment is kept on this machine", hint: "`idflow enroll` makes this machine a push authenticator")
        }
        let pending = try await PendingChallenges.of(records, context)
        let picked: (EnrollmentRecord, PushChallenge)?
        switch target {
        case .transaction(let id): picked = pending.first { $0.1.transactionId == id }
        case .next: picked = pending.first
        }
        guard let (record, challenge) = picked else {
            let what: String
            if case .transaction(let id) = target {
                what = "no pending push challenge \(id)"
            } else {
                what = "no push challenge is pending"
            }
            throw .notFound(what, hint: "it was answered, expired or never sent; `idflow challenges` lists what is pending")
        }

        let org = try record.org()
        let folder = try DeviceStore(context).org(org)
        // Expiry and binding first: they need no network (§5c.4). Then the signature, before anything is signed or sent.
        try ChallengeVerifier(keys: StaticKeySet(jwks: Data())).checkNotExpired(challenge, now: context.now())
        try ChallengeVerifier.checkBinding(challenge, to: record, org: org)
        let verifier = try await ChallengeVerifier.discover(context, orgURL: org, authorizationServerId: challenge.authorizationServerId)
        try await verifier.verify(challenge, now: context.now())
        let verifyURL = try AuthenticatorOrg.link(challenge.verificationUri.absoluteString, on: org, what: "verificationUri")
        guard let identity = try folder.identity() else {
            throw .localState("the device identity of \(org.absoluteString) is missing", hint: OrgDeviceFolder.reenrollHint)
        }

        let selectedNumber = try pickNumber(challenge, context)
        let outcome = try userVerificationOutcome(record, challenge, folder: folder, context)
        let plan = ChallengeResponse.plan(approve: approve, challenge: challenge, userVerification: outcome)
        let key: DeviceKey
        if case .unlocked(let unlocked) = outcome, plan.role == .userVerification {
            key = unlocked
        } else {
            key = try folder.silentKey(record.proofOfPossessionKeyId, role: .proofOfPossession)
        }
        let claims = ChallengeResponse.claims(
            challenge: challenge, enrollment: record, org: org, installationId: identity.installationId, key: key, consent: plan.consent,
            amr: plan.amr, signals: DeviceSignals.current(name: record.displayName), now: context.now(),
            selectedNumber: plan.consent.isApproval ? selectedNumber : nil)
        let response = try ChallengeResponse.sign(claims, challenge: challenge, key: key)
        let status = try await context.http.send(
            ChallengeVerifyRequest(url: verifyURL, method: challenge.method ?? "push", challengeResponse: response))
        return try output(challenge, consent: plan.consent, key: key, status: status, outcome: outcome)
    }

    /// The number to approve a number challenge with: `--number`, one of those offered, or at a terminal the one
    /// typed at the prompt; a script without it stops before anything is signed. A denial needs none.
    private func pickNumber(_ challenge: PushChallenge, _ context: IdFlowContext) throws(IdFlowError) -> String? {
        let offered = challenge.challengeTextItems
        guard approve, !offered.isEmpty else { return nil }
        let list = offered.joined(separator: ", ")
        var picked = number
        if picked == nil, context.console.isInteractive {
            picked = context.console.promptLine("The sign-in shows a number; which is it (\(list))? ")?.trimmingCharacters(in: .whitespaces)
        }
        guard let picked, !picked.isEmpty else {
            throw .invalidInput(
                "the challenge \(challenge.transactionId) is a number challenge: pick the number the sign-in shows, one of \(list) (nothing was sent)",
                hint: "add --number N, the number shown where the sign-in waits")
        }
        guard offered.contains(picked) else {
            throw .invalidInput(
                "\(picked) is not one of the numbers offered (\(list)); nothing was sent", hint: "give the number the sign-in shows")
        }
        return picked
    }

    /// Unlocks the user-verification key when it is the first candidate (§6b), noting each fallback on stderr.
    private func userVerificationOutcome(
        _ record: EnrollmentRecord, _ challenge: PushChallenge, folder: OrgDeviceFolder, _ context: IdFlowContext
    ) throws(IdFlowError) -> ChallengeResponse.UserVerification {
        guard approve, ChallengeResponse.wantsUserVerification(challenge, forced: userVerification) else { return .notAsked }
        guard let kid = record.userVerificationKeyId else {
            if userVerification {
                throw .invalidInput(
                    "enrollment \(record.enrollmentId) has no user-verification key",
                    hint: "add one with `idflow enroll update \(ShellWord.quote(record.enrollmentId)) --user-verification on --pin-stdin`")
            }
            context.notice("the challenge asks for user verification, but this enrollment has no user-verification key")
            return .notEnrolled
        }
        guard let pin else {
            throw .invalidInput(
                "the challenge asks for user verification: the PIN must unlock the user-verification key (nothing was sent)",
                hint: "pass --pin-stdin or --pin-file, or export IDFLOW_PIN")
        }
        switch folder.userVerificationKey(kid, pin: try context.secrets.read("PIN", from: pin)) {
        case .unlocked(let key):
            return .unlocked(key)
        case .wrongPIN:
            context.notice(
                "the PIN did not unlock the user-verification key; answering UV_TEMPORARILY_UNAVAILABLE with the proof-of-possession key (not an approval)"
            )
            return .wrongPIN
        case .unavailable(let reason):
            context.notice("the user-verification key cannot be used (\(reason)); answering UV_PERMANENTLY_UNAVAILABLE")
            return .unavailable
        }
    }

    /// What the server made of the answer: 200 verified, 204 denied. An approval that could not carry user
    /// verification fails after it was sent (the server was told why), so a script does not take it for a yes.
    private func output(
        _ challenge: PushChallenge, consent: UserConsent, key: DeviceKey, status: Int, outcome: ChallengeResponse.UserVerification
    ) throws(IdFlowError) -> Output {
        let base = Output(transactionId: challenge.transactionId, decision: "", userConsent: consent.rawValue, keyType: key.role.rawValue)
        if consent == .deniedConsentPrompt {
            return with(base, decision: "DENIED")
        }
        if status == 200 {
            return with(base, decision: "APPROVED")
        }
        if consent.isApproval {
            throw .denied(
                "the server answered \(status): it did not accept the approval of \(challenge.transactionId)",
                hint: "the org's policy may require user verification (--user-verification with a PIN)")
        }
        if case .wrongPIN = outcome {
            throw .authentication(
                "the PIN did not unlock the user-verification key; the challenge \(challenge.transactionId) was answered \(consent.rawValue), not approved",
                hint: "check the PIN; the sign-in must be started again")
        }
        throw .denied(
            "the challenge \(challenge.transactionId) requires user verification this enrollment cannot give; answered \(consent.rawValue)",
            hint: "add a user-verification key with `idflow enroll update ID --user-verification on --pin-stdin`")
    }

    private func with(_ output: Output, decision: String) -> Output {
        var copy = output
        copy.decision = decision
        return copy
    }
}
