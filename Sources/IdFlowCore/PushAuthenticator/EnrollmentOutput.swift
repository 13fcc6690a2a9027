import Foundation
import IdFlowFoundation

/// What `enroll` and `enroll update` print (docs/contract.md).
public struct EnrollmentOutput: Encodable, Sendable, Equatable {
    public var enrollmentId: String
    public var authenticatorId: String
    public var userId: String
    public var deviceId: String
    public var methodEnrollmentId: String
    public var userVerification: Bool
    public var orgUrl: String

    public init(_ record: EnrollmentRecord) {
        enrollmentId = record.enrollmentId
        authenticatorId = record.authenticatorId
        userId = record.userId
        deviceId = record.deviceId
        methodEnrollmentId = record.methodEnrollmentId
        userVerification = record.userVerificationKeyId != nil
        orgUrl = record.orgUrl
    }
}
