import Foundation

/// What the device authorization grant (RFC 8628) keeps: authorizations by device code, and the device code
/// of each user code.
///
/// A plain value held by `SandboxState` (see `DirectoryStore` for why).
struct DeviceGrantStore: Sendable {
    var authorizations: [String: DeviceAuthorizationRecord] = [:]
    var deviceCodesByUserCode: [String: String] = [:]

    /// Drops authorizations an hour after they expire (until then an expired code answers `expired_token`,
    /// an unknown one `invalid_grant`), and the user codes that pointed at them.
    mutating func purge(now: Date) {
        authorizations = authorizations.filter { $0.value.expiresAt + SandboxState.deviceCodeRetention > now }
        let kept = authorizations
        deviceCodesByUserCode = deviceCodesByUserCode.filter { kept[$0.value] != nil }
    }

    /// How many records of each kind are kept (keys of `GET /sandbox/records`).
    var recordCounts: [String: Int] {
        ["deviceAuthorizations": authorizations.count, "deviceCodesByUserCode": deviceCodesByUserCode.count]
    }
}
