import Foundation
import IdFlowFoundation

/// `idflow password reset --username U`: recovers a forgotten password (docs/protocols/direct-auth.md §9). Direct
/// Authentication with the recovery intent and the one scope `okta.myAccount.password.manage` proves who the user is
/// with a factor other than the password (a one-time code, a push, an SMS or voice code), then the MyAccount Password
/// API's `PUT` sets the new password with that token. The recovery token is used once and never stored.
public struct PasswordRecovery: Sendable {
    /// The factor that proves who the user is: those of `login-direct` but the password.
    public enum Factor: Sendable, Equatable {
        case otp(LoginDirect.Code)
        case oob(OOBChannel)

        var name: String {
            switch self {
            case .otp: return "otp"
            case .oob(let channel): return channel.rawValue
            }
        }
    }

    public var username: String
    public var factor: Factor
    /// Where the SMS or voice code comes from (`--binding-code-stdin`); nil asks at a terminal.
    public var bindingCode: SecretSource?
    public var newPassword: NewPassword
    public var clientSecret: Secret?

    public init(username: String, factor: Factor, bindingCode: SecretSource? = nil, newPassword: NewPassword, clientSecret: Secret? = nil) {
        self.username = username
        self.factor = factor
        self.bindingCode = bindingCode
        self.newPassword = newPassword
        self.clientSecret = clientSecret
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> PasswordOutput {
        let org = try AuthenticatorOrg.configured(context)
        let token = try await recoveryToken(context)
        let rules = try await context.http.send(MyAccountComplexityRequest(org: org, accessToken: token))
        let choice = PasswordChoice(
            newPassword: newPassword, rules: rules, login: username, situation: "recovering the password of \(username)",
            retryHint: "choose a password that meets every rule in causes and run password reset again", context: context)
        let status = try await choice.send { (candidate: Secret) throws(IdFlowError) in
            try await context.http.send(MyAccountReplacePasswordRequest(org: org, accessToken: token, password: candidate))
        }
        context.message("set a new password for \(username)")
        return PasswordOutput(method: "reset", username: username, factor: factor.name, password: status)
    }

    /// A recovery the password policy refuses (403 `access_denied` naming the recovery policy, exit 8) says what to try.
    static func explained(_ error: IdFlowError) -> IdFlowError {
        guard case .oauth(let status, let body, _) = error, body.error == "access_denied",
            (body.errorDescription ?? "").lowercased().contains("recovery")
        else { return error }
        return .oauth(
            status: status, body: body,
            hint:
                "the password policy does not let this factor recover a password; try another (--totp-secret-file, --oob push|sms|voice), or ask an admin (`idflow user reset-password`)"
        )
    }

    /// The recovery token: a Direct Authentication sign-in (the session `login-direct` uses) whose requests carry
    /// `intent=recovery`, asking for the password scope alone.
    private func recoveryToken(_ context: IdFlowContext) async throws(IdFlowError) -> Secret {
        let server = try await AuthorizationServer.discover(context, clientSecret: clientSecret)
        let primary: LoginDirect.Primary =
            switch factor {
            case .otp(let code): .otp(code)
            case .oob(let channel): .oob(channel)
            }
        let session = DirectAuthSession(
            login: LoginDirect(username: username, primary: primary, bindingCode: bindingCode, store: false, intent: .recovery),
            server: server,
            endpoints: try DirectAuthEndpoints(tokenEndpoint: server.metadata.tokenEndpoint), scope: MyAccountPassword.scope,
            context: context)
        let tokens = try await Interruption.cancellingOnInterrupt("interrupted while proving who you are") { () throws(IdFlowError) in
            do throws(IdFlowError) {
                return try await session.signIn { _ in }
            } catch {
                throw Self.explained(error)
            }
        }
        guard !tokens.accessToken.isEmpty else {
            throw .protocolViolation("the recovery answered no access token to set the new password with")
        }
        return Secret(tokens.accessToken)
    }
}
