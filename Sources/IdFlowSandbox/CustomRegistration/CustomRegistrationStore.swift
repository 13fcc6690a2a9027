import Foundation

/// What custom registration keeps: registrations in progress, by id.
///
/// A plain value held by `SandboxState` (see `DirectoryStore` for why).
struct CustomRegistrationStore: Sendable {
    var registrations: [String: CustomRegistrationRecord] = [:]

    /// Drops registrations past their expiry, which answer exactly as unknown ones do.
    mutating func purge(now: Date) {
        registrations = registrations.filter { $0.value.expiresAt > now }
    }

    /// How many records of each kind are kept (keys of `GET /sandbox/records`).
    var recordCounts: [String: Int] {
        ["customRegistrations": registrations.count]
    }
}
