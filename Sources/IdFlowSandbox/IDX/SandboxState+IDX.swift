import Foundation

/// The Identity Engine's interaction code flow (idx.md §2–§6, §11, §12): password sign-in, then the policy's further
/// factors (`SandboxState+IDXFactors.swift`); enrollment, at sign-up or at sign-in, is in
/// `SandboxState+IDXEnroll.swift`; recovery, expired passwords and unlock in `SandboxState+IDXRecovery.swift`. An interaction code
/// is a separate token in front of an ordinary authorization code, so neither grant redeems the other's.
extension SandboxState {
    static let idxTransactionLifetime: TimeInterval = 10 * 60

    /// `/v1/interact`: a new transaction at `identify`; returns the interaction handle.
    func beginInteraction(_ request: AuthorizeRequest) -> String {
        noteRecordActivity()
        let handle = RandomToken.string(count: 43, alphabet: RandomToken.urlSafeAlphabet)
        let stateHandle = RandomToken.string(count: 42, alphabet: RandomToken.urlSafeAlphabet)
        var transaction = IDXTransaction(
            request: request, stateHandle: stateHandle, step: .identify, expiresAt: clock.now + Self.idxTransactionLifetime)
        transaction.autofillChallenge = newAutofillChallenge()
        idx.transactions[stateHandle] = transaction
        idx.interactionHandles[handle] = stateHandle
        return handle
    }

    /// The live transaction of a state handle or an interaction handle, or nil (unknown or expired).
    func idxTransaction(stateHandle: String?, interactionHandle: String? = nil) -> IDXTransaction? {
        guard let key = stateHandle ?? interactionHandle.flatMap({ idx.interactionHandles[$0] }),
            let transaction = idx.transactions[key]
        else { return nil }
        guard transaction.expiresAt > clock.now else {
            idx.transactions[key] = nil
            return nil
        }
        return transaction
    }

    /// `identify`: remembers who signs in and asks for the password.
    func identify(_ transaction: IDXTransaction, login: String) -> IDXTransaction {
        updateStep(transaction, to: .challengePassword(login: login))
    }

    /// `challenge/answer`: a wrong password (or an unknown, locked-out, suspended or otherwise inactive user) leaves the
    /// challenge as it was and returns nil, and counts toward the lockout (`checkPassword`). The right one goes on to
    /// what the policy asks next (`continueSignIn`), or first to a new password when it has expired or is about to
    /// (`passwordAccepted`).
    func answerPassword(_ transaction: IDXTransaction, password: String) -> IDXTransaction? {
        guard case .challengePassword(let login) = transaction.step else { return nil }
        switch checkPassword(username: login, password: password) {
        case .accepted(let user, let daysToExpiry):
            return passwordAccepted(transaction, userId: user.id, expired: false, daysToExpiry: daysToExpiry)
        case .expired(let user):
            return passwordAccepted(transaction, userId: user.id, expired: true, daysToExpiry: nil)
        case .lockedOut, .refused:
            return nil
        }
    }

    /// After a factor (or an enrollment at sign-in): a required Okta Verify the user lacks is a refusal; a required
    /// authenticator the user lacks is enrolled now (`select-authenticator-enroll`, as Okta asks users created before
    /// the policy); enough factors sign in; otherwise `select-authenticator-authenticate` among the user's remaining
    /// authenticators, or, when none is left, the enrollment of an optional one.
    func continueSignIn(_ transaction: IDXTransaction, _ progress: IDXSignIn) -> IDXTransaction {
        if progress.purpose != .signIn { return continueRecovery(transaction, progress) }
        let policy = configuration.idx
        let userId = progress.userId
        if policy.required.contains(.oktaVerify), !userHas(.oktaVerify, userId: userId) {
            return updateStep(transaction, to: .oktaVerifyMissing(userId: userId))
        }
        if !missingRequired(userId: userId).isEmpty, !skippedGracePeriod(transaction) {
            return updateStep(transaction, to: .selectEnroll(.signIn(progress)))
        }
        if progress.factorCount >= policy.factors { return finishSignIn(transaction, progress) }
        if !usableFactors(progress).isEmpty { return updateStep(transaction, to: .selectAuthenticator(progress)) }
        if !remainingToEnroll(.signIn(progress)).authenticators.isEmpty {
            return updateStep(transaction, to: .selectEnroll(.signIn(progress)))
        }
        return updateStep(transaction, to: .oktaVerifyMissing(userId: userId))
    }

    /// The challenge of `identify`'s usernameless passkey sign-in when the policy names passkeys, else nil.
    func newAutofillChallenge() -> String? {
        configuration.idx.authenticators.contains(.webAuthn) ? Self.newWebAuthnChallenge() : nil
    }

    /// Whether the user has `authenticator`: the password and (with an address) the e-mail always, Okta Verify with an
    /// app-authenticator enrollment, the others once enrolled through the Identity Engine.
    func userHas(_ authenticator: IDXPolicy.Authenticator, userId: String) -> Bool {
        switch authenticator {
        case .password: return true
        case .email: return !(directory.users[userId]?.email.isEmpty ?? true)
        case .oktaVerify: return !activeEnrollments(userId: userId).isEmpty
        case .customOTP: return userHasCustomOTP(userId: userId)
        case .tac: return activeTAC(userId: userId) != nil
        default: return idx.enrollments[userId]?.has(authenticator) ?? false
        }
    }

    /// The required authenticators a transaction can enroll that the user lacks, in the policy's order.
    func missingRequired(userId: String) -> [IDXPolicy.Authenticator] {
        configuration.idx.required.filter { $0.enrollsInTransaction && !userHas($0, userId: userId) }
    }

    /// The policy's authenticators the user has and has not passed in this sign-in, in the policy's order: what
    /// `select-authenticator-authenticate` offers. A recovery offers the password policy's recovery authenticators.
    func usableFactors(_ progress: IDXSignIn) -> [IDXPolicy.Authenticator] {
        let candidates =
            progress.purpose == .signIn ? configuration.idx.authenticators : configuration.passwordPolicy.recovery.authenticators
        // A TAC is never named in a policy: a sign-in offers it to whoever an admin gave an active one.
        let withTAC = progress.purpose == .signIn ? candidates + [.tac] : candidates
        return withTAC.filter {
            $0 != .password && !progress.passed.contains($0) && userHas($0, userId: progress.userId)
        }
    }

    /// The success step: an authorization code behind a fresh interaction code; the user's `lastLogin`. An app that
    /// asks for consent (`idx.consent`) asks it first, once per user (`SandboxState+IDXScreens.swift`).
    func signIn(_ transaction: IDXTransaction, userId: String) -> IDXTransaction {
        if let scopes = consentToAsk(transaction, userId: userId) {
            return updateStep(transaction, to: .consent(userId: userId, scopes: scopes))
        }
        let now = clock.now
        directory.users[userId]?.lastLogin = now
        let code = issueCode(for: transaction.request, grant: SessionGrant(userId: userId, authTime: now))
        let interactionCode = RandomToken.string(count: 43, alphabet: RandomToken.urlSafeAlphabet)
        idx.interactionCodes[interactionCode] = code
        return updateStep(transaction, to: .success(interactionCode: interactionCode, userId: userId))
    }

    /// What the document of `transaction` shows besides the transaction: the policy, the user once known, the
    /// authenticators offered and enrolled, the app-authenticator enrollment a push goes (or would go) to.
    func idxView(_ transaction: IDXTransaction) -> IDXView {
        var view = IDXView(transaction: transaction, policy: configuration.idx)
        view.passwordPolicy = configuration.passwordPolicy
        let step = transaction.step
        if let enrollee = step.enrollee {
            let remaining = remainingToEnroll(enrollee)
            view.offered = remaining.authenticators
            view.skippable = remaining.skippable
            switch enrollee {
            case .signUp(let signUp):
                view.enrolled = signUp.enrolled
                view.enrollments = signUp.enrollments
            case .signIn(let progress):
                view.gracePeriods = gracePeriodObjects(userId: progress.userId)
                view.enrolled = IDXPolicy.Authenticator.allCases.filter {
                    $0 != .oktaVerify && userHas($0, userId: progress.userId)
                }
            }
        } else if let progress = step.signIn {
            view.offered = usableFactors(progress)
            view.enrolled = view.offered
        } else if case .changePassword(let progress, _) = step {
            view.enrolled = IDXPolicy.Authenticator.allCases.filter { userHas($0, userId: progress.userId) }
        } else if case .selectUnlockAuthenticator = step {
            view.offered = configuration.passwordPolicy.recovery.authenticators
        }
        guard let userId = step.userId, let user = directory.users[userId] else { return view }
        view.enrollments = idx.enrollments[userId] ?? IDXUserEnrollments()
        func attribute(_ name: String) -> String? { user.profile[name]?.stringValue }
        view.user = IDXView.User(
            id: user.id, login: user.login, email: user.email, firstName: attribute("firstName"), lastName: attribute("lastName"),
            timeZone: attribute("timezone") ?? attribute("timeZone"), locale: attribute("locale"))
        var enrollment = activeEnrollments(userId: userId).last
        if case .challengePush(_, let transactionId) = step, let challenge = push.challenges[transactionId] {
            enrollment = push.enrollments[challenge.enrollmentId]
            view.correctAnswer = challenge.request.numberChallenge?.correctAnswer
        }
        if let enrollment {
            view.oktaVerify = IDXView.OktaVerifyEnrollment(
                id: enrollment.id, deviceName: push.devices[enrollment.deviceId]?.profile.displayName ?? "idflow")
        }
        return view
    }

    /// `cancel`: back to `identify`, as Okta answers with a fresh identify document.
    func cancelInteraction(_ transaction: IDXTransaction) -> IDXTransaction {
        if case .challengePush(_, let transactionId) = transaction.step { closeWaitingChallenge(transactionId) }
        var updated = transaction
        updated.intent = "LOGIN"
        updated.autofillChallenge = newAutofillChallenge()
        updated.passkeyFirst = nil
        idx.transactions[transaction.stateHandle] = updated
        return updateStep(updated, to: .identify)
    }

    @discardableResult
    func updateStep(_ transaction: IDXTransaction, to step: IDXStep) -> IDXTransaction {
        var updated = transaction
        updated.step = step
        idx.transactions[transaction.stateHandle] = updated
        return updated
    }

    /// `grant_type=interaction_code`: single use, short-lived, PKCE-checked, for the client that started the
    /// interaction; the same checks and tokens as an authorization code.
    func exchangeInteractionCode(
        _ interactionCode: String, client: OAuthClient, server: HostedAuthorizationServer, codeVerifier: String?
    ) throws -> UnsignedTokens {
        guard let code = idx.interactionCodes[interactionCode], let record = oauth.authorizationCodes[code] else {
            throw OAuthErrorResponse(.badRequest, "invalid_grant", "The interaction code is invalid or has expired.")
        }
        guard codeVerifier?.isEmpty == false else {
            throw OAuthErrorResponse(.badRequest, "invalid_request", "PKCE code verifier is required.")
        }
        return try exchangeCode(
            code, client: client, server: server, redirectURI: record.request.redirectURI, codeVerifier: codeVerifier)
    }
}
