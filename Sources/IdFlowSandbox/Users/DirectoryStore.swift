import Foundation

/// What the directory family keeps: the users and the activation tokens handed out for them.
///
/// A plain value held by `SandboxState`, so the actor stays the one place requests are serialised; the
/// family's `SandboxState+Users.swift` extension reads and writes it through `directory`.
struct DirectoryStore: Sendable {
    var users = UserDirectory()
    /// Activation tokens (`activationToken` of `POST /users`, `…/lifecycle/activate`) by token.
    var activationGrants: [String: ActivationGrant] = [:]

    /// Drops activation tokens past their expiry: an expired token and an unknown one get the same answer.
    /// Users are never purged.
    mutating func purge(now: Date) {
        activationGrants = activationGrants.filter { $0.value.expiresAt > now }
    }

    /// How many records of each kind are kept (keys of `GET /sandbox/records`).
    var recordCounts: [String: Int] {
        ["users": users.count, "activationGrants": activationGrants.count]
    }
}
