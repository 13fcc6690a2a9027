import IdFlowFoundation

/// Okta answers a locked, suspended or deactivated account exactly like a wrong password (E0000004, idx.md §12.5,
/// okta-core.md §F3), so that a sign-in page tells nobody which accounts exist or are locked. When the profile also
/// holds an admin's API token, the user's status is read to say which it was; otherwise the hint lists the
/// possibilities and how to tell them apart.
enum RefusedSignIn {
    /// The error for a refused sign-in of `username`, explained where the org will say why.
    static func explain(_ error: IdFlowError, username: String, context: IdFlowContext) async -> IdFlowError {
        guard context.canCallManagementAPI, let api = try? context.usersAPI() else {
            return withHint(
                error,
                "a wrong username or password, or an account that is locked out, suspended or deactivated (Okta answers all alike): "
                    + "unlock a locked account with `idflow login-pkce --embedded --unlock --username \(ShellWord.quote(username))` where the org allows it; "
                    + "an admin sees the status with `idflow user get \(ShellWord.quote(username))`")
        }
        let status: String
        do throws(IdFlowError) {
            status = try await api.user(username).0.status
        } catch {
            switch error {
            case .okta(404, _, _), .notFound: return .authentication("there is no user \(username) in the org", hint: "check the username")
            default: break
            }
            return withHint(error, "a wrong username or password, or an account that cannot sign in (its status could not be read)")
        }
        return account(username, status: status) ?? withHint(error, "the password of \(username) (\(status)) is wrong; check it")
    }

    /// The failure for an account whose status keeps it from signing in, when an API token can tell; nil when it
    /// could sign in (so the password was wrong) or nobody can say. At a terminal this ends the prompts that could
    /// never succeed.
    static func blockedAccount(_ username: String, context: IdFlowContext) async -> IdFlowError? {
        guard context.canCallManagementAPI, let api = try? context.usersAPI(),
            let status = try? await api.user(username).0.status
        else { return nil }
        return account(username, status: status)
    }

    /// The failure for an account whose status keeps it from signing in; nil for one that can (ACTIVE,
    /// PASSWORD_EXPIRED: then the password was wrong).
    static func account(_ username: String, status: String) -> IdFlowError? {
        switch status {
        case "LOCKED_OUT":
            return .authentication(
                "the account \(username) is locked out (too many failed sign-ins)",
                hint:
                    "unlock it with `idflow login-pkce --embedded --unlock --username \(ShellWord.quote(username))` where the org allows self-service unlock, "
                    + "or an admin runs `idflow user unlock \(ShellWord.quote(username))`")
        case "SUSPENDED":
            return .authentication(
                "the account \(username) is suspended",
                hint: "an admin lifts the suspension with `idflow user unsuspend \(ShellWord.quote(username))`")
        case "DEPROVISIONED":
            return .authentication("the account \(username) is deactivated", hint: "an admin activates it again")
        case "STAGED", "PROVISIONED":
            return .authentication(
                "the account \(username) has no password yet (\(status))",
                hint:
                    "activate it (`idflow activate --user \(ShellWord.quote(username))`), then set the password with `idflow set-password`")
        case "RECOVERY":
            return .authentication(
                "a password reset is pending for \(username) (RECOVERY)",
                hint: "set the new password from the reset link (`idflow set-password --activation-url-stdin`), "
                    + "or with `idflow login-pkce --embedded --recover --username \(ShellWord.quote(username))`")
        default:
            return nil
        }
    }

    private static func withHint(_ error: IdFlowError, _ hint: String) -> IdFlowError {
        switch error {
        case .okta(let status, let body, _): return .okta(status: status, body: body, hint: hint)
        case .authentication(let message, _): return .authentication(message, hint: hint)
        default: return error
        }
    }
}
