import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowSandbox

extension SandboxClient {
    /// interact → introspect: the state handle and the `identify` document.
    func atIdentify(pkce: PKCEPair = PKCEPair(), sourceLocation: SourceLocation = #_sourceLocation) async throws -> (String, IDXDocument) {
        let handle = try await interact(pkce: pkce, sourceLocation: sourceLocation)
        let document = try IDXDocument(
            try await send(.post, "/idp/idx/introspect", json: ["interactionHandle": handle], auth: .none), sourceLocation: sourceLocation)
        return (try #require(document.stateHandle, sourceLocation: sourceLocation), document)
    }

    /// The user as `GET /api/v1/users/{id}` shows it.
    func user(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Any] {
        let reply = try await send(.get, "/api/v1/users/\(id)")
        #expect(reply.status == .ok, "user: \(reply.text)", sourceLocation: sourceLocation)
        return try reply.object(sourceLocation: sourceLocation)
    }

    func status(of userId: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String? {
        try await user(userId, sourceLocation: sourceLocation)["status"] as? String
    }

    /// The newest code sent to `address` (an e-mail address or a phone number), with its message.
    func lastCode(to address: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> (
        code: String, message: [String: Any]
    ) {
        let message = try #require(try await outbox(to: address).last, "nothing sent to \(address)", sourceLocation: sourceLocation)
        return (try #require(message["code"] as? String, sourceLocation: sourceLocation), message)
    }

    /// A password sign-in with `password` that ends in the E0000004 the password challenge answers to any failure.
    @discardableResult
    func passwordRefused(login: String, password: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> IDXDocument {
        let stateHandle = try await identified(as: login, pkce: PKCEPair(), sourceLocation: sourceLocation)
        let answer = try await idx("challenge/answer", ["credentials": ["passcode": password], "stateHandle": stateHandle])
        #expect(answer.status == .unauthorized, "\(answer.reply.text)", sourceLocation: sourceLocation)
        #expect(answer.messageKeys == ["errors.E0000004"], sourceLocation: sourceLocation)
        return answer
    }

    /// The password challenge's `recover` from the user's password challenge: the recovery's first document.
    func recoverFromPasswordChallenge(login: String, pkce: PKCEPair, sourceLocation: SourceLocation = #_sourceLocation) async throws -> (
        String, IDXDocument
    ) {
        let stateHandle = try await identified(as: login, pkce: pkce, sourceLocation: sourceLocation)
        return (stateHandle, try await idx("recover", ["stateHandle": stateHandle]))
    }
}

extension IDXDocument {
    /// The `authenticator` ids a form offers.
    func offeredIDs(_ formName: String) -> [String] {
        authenticatorOptions(formName).compactMap { $0.values["id"] }
    }

    /// `settings` of the current authenticator (the password, when a new one is asked for).
    var passwordSettings: [String: Any]? { object("currentAuthenticator")?["settings"] as? [String: Any] }

    /// The top-level messages' classes.
    var messageClasses: [String] {
        ((body["messages"] as? [String: Any])?["value"] as? [[String: Any]] ?? []).compactMap { $0["class"] as? String }
    }
}

/// Password policies for the recovery tests.
enum RecoveryPolicies {
    static func configure(
        lockout: LockoutPolicy = LockoutPolicy(), age: PasswordAgePolicy = PasswordAgePolicy(),
        recovery: RecoveryPolicy = RecoveryPolicy(), idx: IDXPolicy = IDXPolicy()
    ) -> (inout SandboxConfiguration) -> Void {
        {
            $0.passwordPolicy = PasswordPolicySettings(lockout: lockout, age: age, recovery: recovery)
            $0.idx = idx
        }
    }

    static let day = 86_400
    static let emailID = "autidflowemail000000"
    static let phoneID = "autidflowphone000000"
    static let passwordID = "autidflowpassword000"
}

extension SandboxState {
    /// Puts a user into `status` as a lifecycle call would, for tests that do not go through the users API.
    func move(userId: String, to status: UserStatus) {
        directory.users[userId]?.transition(to: status, at: now)
    }
}
