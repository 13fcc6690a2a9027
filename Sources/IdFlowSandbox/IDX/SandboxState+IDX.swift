import Foundation

/// The Identity Engine's interaction code flow (idx.md §2–§6, §11): password sign-in, then the policy's second
/// factor (`SandboxState+IDXFactors.swift`); sign-up is in `SandboxState+IDXSignUp.swift`. An interaction code
/// is a separate token in front of an ordinary authorization code, so neither grant redeems the other's.
extension SandboxState {
    static let idxTransactionLifetime: TimeInterval = 10 * 60

    /// `/v1/interact`: a new transaction at `identify`; returns the interaction handle.
    func beginInteraction(_ request: AuthorizeRequest) -> String {
        noteRecordActivity()
        let handle = RandomToken.string(count: 43, alphabet: RandomToken.urlSafeAlphabet)
        let stateHandle = RandomToken.string(count: 42, alphabet: RandomToken.urlSafeAlphabet)
        idxTransactions[stateHandle] = IDXTransaction(
            request: request, stateHandle: stateHandle, step: .identify, expiresAt: clock.now + Self.idxTransactionLifetime)
        idxInteractionHandles[handle] = stateHandle
        return handle
    }

    /// The live transaction of a state handle or an interaction handle, or nil (unknown or expired).
    func idxTransaction(stateHandle: String?, interactionHandle: String? = nil) -> IDXTransaction? {
        guard let key = stateHandle ?? interactionHandle.flatMap({ idxInteractionHandles[$0] }),
            let transaction = idxTransactions[key]
        else { return nil }
        guard transaction.expiresAt > clock.now else {
            idxTransactions[key] = nil
            return nil
        }
        return transaction
    }

    /// `identify`: remembers who signs in and asks for the password.
    func identify(_ transaction: IDXTransaction, login: String) -> IDXTransaction {
        updateStep(transaction, to: .challengePassword(login: login))
    }

    /// `challenge/answer`: a wrong password (or an unknown or inactive user) leaves the challenge as it was
    /// and returns nil. The right one issues the interaction code, or goes on to the policy's second factor:
    /// `select-authenticator-authenticate`, or for Okta Verify without an enrollment the refusal.
    func answerPassword(_ transaction: IDXTransaction, password: String) -> IDXTransaction? {
        guard case .challengePassword(let login) = transaction.step, let user = verifiedUser(username: login, password: password)
        else { return nil }
        switch configuration.idx.secondFactor {
        case nil, .password: return signIn(transaction, userId: user.id)
        case .email: return updateStep(transaction, to: .selectAuthenticator(userId: user.id))
        case .oktaVerify:
            let enrolled = !activeEnrollments(userId: user.id).isEmpty
            return updateStep(transaction, to: enrolled ? .selectAuthenticator(userId: user.id) : .oktaVerifyMissing(userId: user.id))
        }
    }

    /// The success step: an authorization code behind a fresh interaction code; the user's `lastLogin`.
    func signIn(_ transaction: IDXTransaction, userId: String) -> IDXTransaction {
        let now = clock.now
        users[userId]?.lastLogin = now
        let code = issueCode(for: transaction.request, grant: SessionGrant(userId: userId, authTime: now))
        let interactionCode = RandomToken.string(count: 43, alphabet: RandomToken.urlSafeAlphabet)
        idxInteractionCodes[interactionCode] = code
        return updateStep(transaction, to: .success(interactionCode: interactionCode, userId: userId))
    }

    /// What the document of `transaction` shows besides the transaction: the policy, the user once known,
    /// and the app-authenticator enrollment a push goes (or would go) to.
    func idxView(_ transaction: IDXTransaction) -> IDXView {
        var view = IDXView(transaction: transaction, policy: configuration.idx)
        guard let userId = transaction.step.userId, let user = users[userId] else { return view }
        func attribute(_ name: String) -> String? { user.profile[name]?.stringValue }
        view.user = IDXView.User(
            id: user.id, login: user.login, email: user.email, firstName: attribute("firstName"), lastName: attribute("lastName"),
            timeZone: attribute("timezone") ?? attribute("timeZone"), locale: attribute("locale"))
        let enrollment: EnrollmentRecord?
        if case .challengePush(_, let transactionId) = transaction.step, let challenge = pushChallenges[transactionId] {
            enrollment = enrollments[challenge.enrollmentId]
        } else {
            enrollment = activeEnrollments(userId: userId).last
        }
        if configuration.idx.secondFactor == .oktaVerify, let enrollment {
            view.oktaVerify = IDXView.OktaVerifyEnrollment(
                id: enrollment.id, deviceName: devices[enrollment.deviceId]?.profile.displayName ?? "idflow")
        }
        return view
    }

    /// `cancel`: back to `identify`, as Okta answers with a fresh identify document.
    func cancelInteraction(_ transaction: IDXTransaction) -> IDXTransaction {
        if case .challengePush(_, let transactionId) = transaction.step { closeWaitingChallenge(transactionId) }
        var updated = transaction
        updated.intent = "LOGIN"
        idxTransactions[transaction.stateHandle] = updated
        return updateStep(updated, to: .identify)
    }

    @discardableResult
    func updateStep(_ transaction: IDXTransaction, to step: IDXStep) -> IDXTransaction {
        var updated = transaction
        updated.step = step
        idxTransactions[transaction.stateHandle] = updated
        return updated
    }

    /// `grant_type=interaction_code`: single use, short-lived, PKCE-checked, for the client that started the
    /// interaction; the same checks and tokens as an authorization code.
    func exchangeInteractionCode(
        _ interactionCode: String, client: OAuthClient, server: AuthorizationServer, codeVerifier: String?
    ) throws -> TokenGrant {
        guard let code = idxInteractionCodes[interactionCode], let record = authorizationCodes[code] else {
            throw OAuthErrorResponse(.badRequest, "invalid_grant", "The interaction code is invalid or has expired.")
        }
        guard codeVerifier?.isEmpty == false else {
            throw OAuthErrorResponse(.badRequest, "invalid_request", "PKCE code verifier is required.")
        }
        return try exchangeCode(
            code, client: client, server: server, redirectURI: record.request.redirectURI, codeVerifier: codeVerifier)
    }
}
