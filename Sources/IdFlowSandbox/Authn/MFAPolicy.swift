import Foundation

/// When primary authentication (`POST /api/v1/authn` with a password) asks for a second factor.
public enum MFAPolicy: String, Codable, Sendable, CaseIterable {
    /// Never: a good password is SUCCESS.
    case never
    /// When the user has an active push enrollment: MFA_REQUIRED with the push factor(s).
    case whenEnrolled
    /// Always: MFA_REQUIRED, or MFA_ENROLL for a user with no push enrollment.
    case always
}
