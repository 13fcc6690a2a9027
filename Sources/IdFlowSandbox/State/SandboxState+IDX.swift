import Foundation

/// Where an Identity Engine transaction stands (idx.md §10): which form it waits for.
enum IDXStep: Sendable, Equatable {
    /// `identify`: who is signing in.
    case identify
    /// `challenge-authenticator` for the password of `login` (the user may not exist: nothing is revealed
    /// before the password is checked).
    case challengePassword(login: String)
    /// `enroll-profile` (sign-up, idx.md §9): the new user's profile.
    case enrollProfile
    /// `enroll-authenticator` for the first password of the user-to-be whose profile was accepted.
    case enrollPassword(profile: [String: String])
    /// Signed in: the success document with its interaction code.
    case success(interactionCode: String)
}

/// Validation messages for the fields of a form, by field path (`userProfile.email`), to send back in
/// the fields' own `messages` (idx.md §5.4).
struct IDXFieldErrors: Error, Sendable {
    var messages: [String: [(text: String, key: String)]]
}

/// One interaction started at `/v1/interact`: the authorization request it is bound to (client, redirect
/// URI, PKCE challenge, scopes, nonce) and the step it has reached.
struct IDXTransaction: Sendable {
    let request: AuthorizeRequest
    let stateHandle: String
    var step: IDXStep
    var expiresAt: Date
}

/// The Identity Engine's interaction code flow, password sign-in (idx.md §2–§6, §11). An interaction code
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

    /// `challenge/answer`: the right password issues the interaction code; a wrong one (or an unknown or
    /// inactive user) leaves the challenge as it was and returns nil.
    func answerPassword(_ transaction: IDXTransaction, password: String) -> IDXTransaction? {
        guard case .challengePassword(let login) = transaction.step, let user = verifiedUser(username: login, password: password)
        else { return nil }
        let now = clock.now
        users[user.id]!.lastLogin = now
        return signIn(transaction, userId: user.id, at: now)
    }

    /// The success step: an authorization code behind a fresh interaction code.
    private func signIn(_ transaction: IDXTransaction, userId: String, at now: Date) -> IDXTransaction {
        let code = issueCode(for: transaction.request, grant: SessionGrant(userId: userId, authTime: now))
        let interactionCode = RandomToken.string(count: 43, alphabet: RandomToken.urlSafeAlphabet)
        idxInteractionCodes[interactionCode] = code
        return updateStep(transaction, to: .success(interactionCode: interactionCode))
    }

    /// `select-enroll-profile`: the sign-up form.
    func selectEnrollProfile(_ transaction: IDXTransaction) -> IDXTransaction {
        updateStep(transaction, to: .enrollProfile)
    }

    /// `enroll-profile`: a well-formed e-mail address nobody signs in with yet moves on to the password;
    /// otherwise the field messages to show on `userProfile.email` (`registration.error.*`).
    func enrollProfile(_ transaction: IDXTransaction, profile: [String: JSONValue]) -> Result<IDXTransaction, IDXFieldErrors> {
        var errors: [String: [(text: String, key: String)]] = [:]
        for name in ["firstName", "lastName", "email"] where (profile[name]?.stringValue ?? "").isEmpty {
            errors["userProfile.\(name)", default: []].append(("This field cannot be left blank", "registration.error.isRequired"))
        }
        if let email = profile["email"]?.stringValue, !email.isEmpty {
            if !Self.isEmailShaped(email) {
                errors["userProfile.email", default: []].append(
                    ("'Email' must be in the form of an email address", "registration.error.invalidLoginEmail"))
            } else if findUser(login: email) != nil {
                errors["userProfile.email", default: []].append(
                    ("A user with this Email already exists", "registration.error.notUniqueWithinOrg"))
            }
        }
        guard errors.isEmpty else { return .failure(IDXFieldErrors(messages: errors)) }
        var stored = profile.compactMapValues(\.stringValue)
        stored["login"] = stored["email"]
        return .success(updateStep(transaction, to: .enrollPassword(profile: stored)))
    }

    /// `enroll-authenticator` with the first password: the sandbox's password policy (one field message per
    /// broken rule, as E0000080 lists its causes), then an ACTIVE user and the interaction code.
    func enrollPassword(_ transaction: IDXTransaction, password: String) -> Result<IDXTransaction, IDXFieldErrors> {
        guard case .enrollPassword(let profile) = transaction.step else { return .failure(IDXFieldErrors(messages: [:])) }
        let login = profile["login"] ?? ""
        let failed = PasswordPolicy.failedRules(password, login: login)
        guard failed.isEmpty else {
            return .failure(
                IDXFieldErrors(messages: ["credentials.passcode": failed.map { ($0, "password.passwordRequirementsNotMet") }]))
        }
        let user: UserRecord
        do {
            user = try createUser(profile: profile.mapValues(JSONValue.string), password: password, activate: true)
        } catch {
            return .failure(
                IDXFieldErrors(messages: [
                    "userProfile.email": [("A user with this Email already exists", "registration.error.notUniqueWithinOrg")]
                ]))
        }
        let now = clock.now
        users[user.id]!.lastLogin = now
        return .success(signIn(transaction, userId: user.id, at: now))
    }

    /// `cancel`: back to `identify`, as Okta answers with a fresh identify document.
    func cancelInteraction(_ transaction: IDXTransaction) -> IDXTransaction {
        updateStep(transaction, to: .identify)
    }

    @discardableResult
    private func updateStep(_ transaction: IDXTransaction, to step: IDXStep) -> IDXTransaction {
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
