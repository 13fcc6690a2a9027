import Crypto
import Foundation
import OneTimePasscode

/// The `userVerification` a push challenge asks for (devices.md §5b, §6b).
public enum PushUserVerification: String, Codable, Sendable, CaseIterable {
    /// No claim in the challenge: the proof-of-possession key answers after a consent prompt.
    case none = "NONE"
    /// The user-verification key if the device has one, else the proof-of-possession key.
    case preferred = "PREFERRED"
    /// Only `APPROVED_USER_VERIFICATION` signed by the registered user-verification key approves.
    case required = "REQUIRED"
}

/// What a `RegisteredKey` stands for (devices.md §2a); the client's `DeviceKeyRole` names the keys it
/// generates and keeps.
enum RegisteredKeyRole: String, Sendable {
    case clientInstance = "clientInstanceKey"
    case proofOfPossession
    case userVerification
}

/// A public key registered at enrollment (or by a PATCH), found by its `kid`.
struct RegisteredKey: Sendable {
    let kid: String
    let role: RegisteredKeyRole
    /// The enrollment it belongs to; nil for a client-instance key (it belongs to the device).
    let enrollmentId: String?
    /// The device it belongs to.
    let deviceId: String
    let publicKey: P256.Signing.PublicKey
}

/// A device identity (one per org on the device), shared by its enrollments.
struct DeviceRecord: Sendable {
    let id: String
    let clientInstanceId: String
    let clientInstanceKid: String
    /// The device signals of the first enrollment, rendered as `device.profile`.
    let profile: DeviceProfile
    let created: Date
    var lastUpdated: Date
}

/// The device signals the sandbox keeps and shows (`device.profile` of the enrollment fixture).
struct DeviceProfile: Sendable {
    var displayName: String?
    var platform: String?
    var manufacturer: String?
    var model: String?
    var osVersion: String?
    var serialNumber: String?
    var imei: String?
    var meid: String?
    var udid: String?
    var sid: String?
}

/// One app-authenticator enrollment (`pfd…`) with its push method (`opf…`) and its TOTP method (`ost…`), whose
/// seed the enrollment answer hands over once (`methods.totp.sharedSecret`), as Okta Verify gets it. Registered on
/// the server, like `RegisteredKey`; the client's `EnrollmentRecord` is the device's own copy.
struct RegisteredEnrollment: Sendable {
    let id: String
    let userId: String
    let deviceId: String
    /// The OAuth client of the token that enrolled; push challenges carry it as `aud`.
    let clientId: String
    let pushMethodId: String
    let created: Date
    var lastUpdated: Date
    var pushToken: String
    var apsEnvironment: String?
    var transactionTypes: [String]
    let proofOfPossessionKid: String
    var userVerificationKid: String?
    let totpMethodId: String
    /// The seed of the TOTP method (SHA-1, 6 digits, 30 s).
    let totpSecret: TOTPSecret
    /// The last time step whose code was accepted: a code is never accepted twice.
    var lastTOTPStep: Int64?
}

/// Where a push challenge stands; EXPIRED is derived from the clock, never stored.
enum PushStatus: String, Sendable {
    case waiting = "WAITING"
    case approved = "APPROVED"
    case denied = "DENIED"
    case expired = "EXPIRED"
}

/// Who or what asked for a push challenge, as the challenge context shows it.
struct PushRequest: Sendable {
    var userVerification: PushUserVerification
    var clientOS = "UNKNOWN"
    var clientLocation = "Unknown location"
    var transactionType = "LOGIN"
    /// The number challenge (`idx.numberChallenge`): the numbers the device offers (`challengeTextItems`) and the one
    /// the sign-in page shows (`correctAnswer`), which an approval must carry.
    var numberChallenge: NumberChallenge?
}

/// The numbers of a number challenge: the device shows `choices`, the sign-in page shows `correctAnswer`.
struct NumberChallenge: Sendable, Equatable {
    let correctAnswer: String
    let choices: [String]

    /// Three different two-digit numbers in random order, one of them the answer.
    static func random() -> NumberChallenge {
        var numbers: [Int] = []
        while numbers.count < 3 {
            let number = Int.random(in: 10...99)
            if !numbers.contains(number) { numbers.append(number) }
        }
        return NumberChallenge(correctAnswer: String(numbers[0]), choices: numbers.shuffled().map(String.init))
    }
}

/// One push challenge (devices.md §5): the claims it is minted with and the answer it got.
struct PushChallengeRecord: Sendable {
    let transactionId: String
    let enrollmentId: String
    let userId: String
    let nonce: String
    let jti: String
    let issuedAt: Date
    let expiresAt: Date
    let request: PushRequest
    var status: PushStatus = .waiting
    var userConsent: String?
    var keyType: String?

    /// The status with expiry applied: a challenge nobody answered in time is EXPIRED.
    func currentStatus(at now: Date) -> PushStatus {
        status == .waiting && now >= expiresAt ? .expired : status
    }
}
