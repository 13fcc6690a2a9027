import Foundation

/// The user directory and the lifecycle status machine (okta-core.md §A and §B).
extension SandboxState {
    /// Activation tokens live 7 days, like Okta's default activation e-mail link.
    static let activationTokenLifetime: TimeInterval = 7 * 24 * 3600

    /// Creates a user following Okta's credentials × `activate` matrix:
    /// no password → STAGED / PROVISIONED (+ activation e-mail); password → STAGED / ACTIVE.
    func createUser(profile input: [String: OrderedJSON], password: String?, activate: Bool) throws -> UserRecord {
        let profile = try validatedProfile(input, of: nil)
        let login = profile["login"]!.stringValue!
        if let password { try Self.checkPassword(password, login: login) }

        let now = clock.now
        var user = UserRecord(
            id: RandomToken.oktaID(prefix: "00u"), status: .staged, created: now, activated: nil,
            // Identity Engine orgs stamp statusChanged at creation; Classic orgs leave it null (both recorded).
            statusChanged: configuration.activationURLStyle == .identityEngine ? now : nil, lastLogin: nil, lastUpdated: now,
            passwordChanged: nil, password: nil,
            profile: profile, activationToken: nil)
        if let password { user.setPassword(password, at: now) }
        directory.users[user.id] = user
        if activate {
            _ = try self.activate(userId: user.id, sendEmail: true)
        }
        return directory.users[user.id]!
    }

    /// `POST /api/v1/users/{id}` (`replace` false: only the given profile attributes change) and
    /// `PUT` (`replace` true: the profile becomes exactly the given one). Either way the result is
    /// validated as at creation (login and email present and e-mail shaped, the login unique), and a
    /// password given is checked against the policy before anything changes.
    func updateUser(
        id: String, profile changes: [String: OrderedJSON], password: String?, replace: Bool
    ) throws -> UserRecord {
        var user = try self.user(idOrLogin: id)
        let profile = try validatedProfile(replace ? changes : user.profile.merging(changes) { $1 }, of: user.id)
        if let password { try Self.checkPassword(password, login: profile["login"]!.stringValue!) }
        let now = clock.now
        user.profile = profile
        if let password { user.setPassword(password, at: now) }
        user.lastUpdated = now
        directory.users[user.id] = user
        return user
    }

    /// A profile as create and update store it: `login` defaulted from `email`, both present and
    /// e-mail shaped, the login not taken by another user than `userID`, and the base attributes
    /// real orgs always return (`mobilePhone`, `secondEmail`) null when not given.
    private func validatedProfile(_ input: [String: OrderedJSON], of userID: String?) throws -> [String: OrderedJSON] {
        var profile = input
        if profile["login"] == nil || profile["login"]?.isNull == true, let email = profile["email"] {
            profile["login"] = email
        }
        var failures: [(field: String, cause: String)] = []
        for (field, shapeMessage) in [
            ("login", "Username must be in the form of an email address"),
            ("email", "Does not match required pattern"),
        ] {
            guard let value = profile[field]?.stringValue, !value.trimmingCharacters(in: .whitespaces).isEmpty else {
                failures.append((field, "\(field): The field cannot be left blank"))
                continue
            }
            if !Self.isEmailShaped(value) {
                failures.append((field, "\(field): \(shapeMessage)"))
            }
        }
        if let first = failures.first {
            throw OktaErrorResponse.validation(first.field, causes: failures.map(\.cause))
        }
        if let holder = findUser(login: profile["login"]!.stringValue!), holder.id != userID {
            throw OktaErrorResponse.validation(
                "login", causes: ["login: An object with this field already exists in the current organization"])
        }
        for attribute in ["mobilePhone", "secondEmail"] where profile[attribute] == nil {
            profile[attribute] = .null
        }
        return profile
    }

    /// E0000001 with one `password:` cause per failed rule, as at creation.
    private static func checkPassword(_ password: String, login: String) throws {
        let failed = PasswordPolicy.failedRules(password, login: login)
        if !failed.isEmpty {
            throw OktaErrorResponse.validation("password", causes: failed.map { "password: \($0)" })
        }
    }

    /// The user with this id, or with this login (case-insensitive), as Okta's `GET /users/{idOrLogin}`.
    func user(idOrLogin: String) throws -> UserRecord {
        if let user = directory.users[idOrLogin] ?? findUser(login: idOrLogin) { return user }
        throw OktaErrorResponse.notFound(idOrLogin, type: "User")
    }

    /// The user with this login, ignoring case (an index lookup, not a scan).
    func findUser(login: String) -> UserRecord? {
        directory.users.user(login: login)
    }

    /// One page of `GET /api/v1/users` in creation order; `next` is the cursor for the following page, if any.
    func listUsers(_ query: UserListQuery) -> (users: [UserRecord], next: String?) {
        directory.users.page(after: query.after, limit: query.limit, where: query.matches)
    }

    /// `DELETE /api/v1/users/{id}`: the first call on a live user deactivates it, the next one deletes it.
    func deleteUser(id: String) throws {
        let user = try self.user(idOrLogin: id)
        if user.status != .deprovisioned {
            try deactivate(userId: user.id)
            return
        }
        directory.users[user.id] = nil
        if let token = user.activationToken { directory.activationGrants[token] = nil }
    }

    // MARK: Lifecycle

    /// `lifecycle/activate`: STAGED or DEPROVISIONED only. With a password the user becomes ACTIVE,
    /// without one PROVISIONED until the activation token is redeemed through Authn.
    func activate(userId: String, sendEmail: Bool) throws -> ActivationOutcome {
        var user = try self.user(idOrLogin: userId)
        switch user.status {
        case .active, .provisioned:
            throw OktaErrorResponse.alreadyActive
        case .staged, .deprovisioned:
            user.transition(to: user.password == nil ? .provisioned : .active, at: clock.now)
            directory.users[user.id] = user
            return issueActivationToken(userId: user.id, sendEmail: sendEmail)
        default:
            throw OktaErrorResponse.operationNotAllowedForStatus
        }
    }

    /// `lifecycle/reactivate`: PROVISIONED or RECOVERY only; a new token replaces (and kills) the old one.
    func reactivate(userId: String, sendEmail: Bool) throws -> ActivationOutcome {
        let user = try self.user(idOrLogin: userId)
        guard user.status == .provisioned || user.status == .recovery else {
            throw OktaErrorResponse.operationNotAllowedForStatus
        }
        return issueActivationToken(userId: user.id, sendEmail: sendEmail)
    }

    /// `lifecycle/deactivate`: any status but DEPROVISIONED. Pending tokens die with the account.
    func deactivate(userId: String) throws {
        var user = try self.user(idOrLogin: userId)
        guard user.status != .deprovisioned else { throw OktaErrorResponse.operationNotAllowedForStatus }
        user.transition(to: .deprovisioned, at: clock.now)
        if let token = user.activationToken { directory.activationGrants[token] = nil }
        user.activationToken = nil
        directory.users[user.id] = user
        endSessions(userId: user.id)
    }

    /// `lifecycle/suspend` (ACTIVE → SUSPENDED) and `lifecycle/unsuspend` (SUSPENDED → ACTIVE).
    func setSuspended(_ suspended: Bool, userId: String) throws {
        var user = try self.user(idOrLogin: userId)
        guard user.status == (suspended ? .active : .suspended) else {
            throw OktaErrorResponse.operationNotAllowedForStatus
        }
        user.transition(to: suspended ? .suspended : .active, at: clock.now)
        directory.users[user.id] = user
        if suspended { endSessions(userId: user.id) }
    }

    /// Issues the user's one valid activation token and either returns it or "e-mails" it.
    private func issueActivationToken(userId: String, sendEmail: Bool) -> ActivationOutcome {
        noteRecordActivity()
        var user = directory.users[userId]!
        if let old = user.activationToken { directory.activationGrants[old] = nil }
        let token = RandomToken.activationToken()
        let now = clock.now
        directory.activationGrants[token] = ActivationGrant(userId: userId, expiresAt: now + Self.activationTokenLifetime)
        user.activationToken = token
        directory.users[userId] = user
        let url = activationURL(token: token)
        guard sendEmail else { return .token(token: token, url: url) }
        deliver(OutboxMessage(to: user.email, subject: "Activate your account", activationUrl: url, sentAt: now))
        return .emailed
    }

    func activationURL(token: String) -> String {
        switch configuration.activationURLStyle {
        case .identityEngine: return "\(orgURL)/tokens/\(token)/verify"
        case .classic: return "\(orgURL)/welcome/\(token)"
        }
    }

    /// `local@domain.tld` with no spaces: Okta's default login and email pattern, loosely.
    static func isEmailShaped(_ value: String) -> Bool {
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !value.contains(where: \.isWhitespace) else { return false }
        let domain = parts[1]
        return domain.contains(".") && !domain.hasPrefix(".") && !domain.hasSuffix(".")
    }
}
