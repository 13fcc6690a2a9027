import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import IdFlowSandbox

/// Steps the recovery tests share: signing in over Authn, locking a user out, following Authn links, and giving a
/// user the phone and security question that the Identity Engine would have enrolled.
extension SandboxClient {
    static let recoveryPassword = "Correct-Horse-7"

    /// `POST /api/v1/authn {"username","password"}`, with `options.warnBeforePasswordExpired` when `warn`.
    func authnSignIn(
        _ login: String, password: String = SandboxClient.recoveryPassword, warn: Bool = false, relayState: String? = nil
    ) async throws -> Reply {
        var body: [String: Any] = ["username": login, "password": password]
        if warn { body["options"] = ["warnBeforePasswordExpired": true] }
        if let relayState { body["relayState"] = relayState }
        return try await send(.post, "/api/v1/authn", json: body, auth: .none)
    }

    /// POSTs `body` to the path of an Authn link's `href` (clients follow links rather than build URLs).
    func follow(_ href: String, _ body: [String: Any]) async throws -> Reply {
        let path = try #require(URLComponents(string: href)?.path)
        return try await send(.post, path, json: body, auth: .none)
    }

    /// `wrong` sign-ins with a wrong password.
    func failSignIns(_ login: String, _ wrong: Int) async throws {
        for _ in 0..<wrong {
            let reply = try await authnSignIn(login, password: "Wrong-Password-0")
            #expect(reply.status == .unauthorized || reply.status == .ok, "\(reply.text)")
        }
    }

    /// The user's status as `GET /api/v1/users/{id}` shows it.
    func status(of idOrLogin: String) async throws -> String? {
        try await send(.get, "/api/v1/users/\(idOrLogin)").object()["status"] as? String
    }

    /// Gives the user a phone and/or a security question as if enrolled through the Identity Engine.
    func giveRecoveryFactors(_ login: String, phone: String? = nil, question: (text: String, answer: String)? = nil) async throws {
        try await state.seedRecoveryFactors(login: login, phone: phone, question: question)
    }

    /// The newest outbox entry for `to`.
    func lastMessage(to: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Any] {
        let messages = try await send(.get, "/sandbox/outbox").array().filter { $0["to"] as? String == to }
        return try #require(messages.last, "nothing sent to \(to)", sourceLocation: sourceLocation)
    }
}

extension Reply {
    /// `_links.{name}.href` of an Authn transaction.
    func linkHref(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let links = try #require(try object()["_links"] as? [String: Any], "no _links: \(text)", sourceLocation: sourceLocation)
        let link = try #require(links[name] as? [String: Any], "no \(name) link: \(text)", sourceLocation: sourceLocation)
        return try #require(link["href"] as? String, sourceLocation: sourceLocation)
    }

    /// The body's `status` (an Authn state).
    var authnStatus: String? { (try? object())?["status"] as? String }
}

extension SandboxState {
    fileprivate func seedRecoveryFactors(login: String, phone: String?, question: (text: String, answer: String)?) throws {
        let user = try user(idOrLogin: login)
        var enrollments = idx.enrollments[user.id] ?? IDXUserEnrollments()
        if let phone {
            enrollments.phone = PhoneEnrollment(id: RandomToken.oktaID(prefix: "sms"), phoneNumber: phone, created: now)
        }
        if let question {
            enrollments.securityQuestion = SecurityQuestionEnrollment(
                id: RandomToken.oktaID(prefix: "qae"), questionKey: "custom", question: question.text,
                answer: StoredPassword(Self.normalizedAnswer(question.answer)), created: now)
        }
        idx.enrollments[user.id] = enrollments
    }
}
