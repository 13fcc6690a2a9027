import Foundation

/// What the push authenticator family (devices.md) keeps: devices, their enrollments and registered keys,
/// push challenges, and the device-signed tokens already accepted.
///
/// A plain value held by `SandboxState` (see `DirectoryStore` for why).
struct PushAuthenticatorStore: Sendable {
    var devices: [String: DeviceRecord] = [:]
    var enrollments: [String: RegisteredEnrollment] = [:]
    /// Deleted enrollment ids, so a second DELETE or PATCH is E0000154 rather than "not found".
    var deletedEnrollmentIds: Set<String> = []
    /// Every registered device key by `kid` (client-instance, proof-of-possession, user-verification).
    var deviceKeys: [String: RegisteredKey] = [:]
    var challenges: [String: PushChallengeRecord] = [:]
    /// The `jti` of every device-signed token accepted, until its `exp` passes (replay detection).
    var usedDeviceTokenIDs: [String: Date] = [:]

    /// Drops challenges an hour after they expire and accepted `jti`s whose token has expired.
    /// Devices, enrollments and keys stay.
    mutating func purge(now: Date) {
        challenges = challenges.filter { $0.value.expiresAt + SandboxState.pushChallengeRetention > now }
        usedDeviceTokenIDs = usedDeviceTokenIDs.filter { $0.value >= now }
    }

    /// How many records of each kind are kept (keys of `GET /sandbox/records`).
    var recordCounts: [String: Int] {
        [
            "devices": devices.count,
            "enrollments": enrollments.count,
            "deletedEnrollmentIds": deletedEnrollmentIds.count,
            "deviceKeys": deviceKeys.count,
            "pushChallenges": challenges.count,
            "usedDeviceTokenIDs": usedDeviceTokenIDs.count,
        ]
    }
}
