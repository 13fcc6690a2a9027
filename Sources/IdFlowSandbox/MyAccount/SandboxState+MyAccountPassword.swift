import Foundation

/// The MyAccount Password API's changes to the user (direct-auth.md §9.2), through the same checks and the same end
/// as every other new password: `refusal(of:for:)` (the policy's rules and its history) and `setNewPassword`.
extension SandboxState {
    /// The scope a token needs for the MyAccount Password API, and the only one a recovery token carries (§9.1).
    static let passwordManageScope = "okta.myAccount.password.manage"

    /// `PUT /idp/myaccount/password`: the new password, or E0000080 when the policy or the history refuses it. The
    /// user ends ACTIVE with no failures counted: a locked-out user who recovered is unlocked, as after every reset.
    func replaceMyAccountPassword(userId: String, with password: String) throws -> UserRecord {
        do {
            return try setNewPassword(userId: userId, to: password)
        } catch .notAllowed {
            throw OktaErrorResponse.operationNotAllowedForStatus
        } catch {
            throw OktaErrorResponse.passwordPolicy
        }
    }

    /// `POST /idp/myaccount/password/change-password`: the old password must be the user's (E0000014), then as `PUT`.
    func changeMyAccountPassword(userId: String, from oldPassword: String, to newPassword: String) throws {
        guard let stored = directory.users[userId]?.password, stored.matches(oldPassword) else {
            throw OktaErrorResponse.wrongOldPassword
        }
        _ = try replaceMyAccountPassword(userId: userId, with: newPassword)
    }
}
