import Foundation
import IdFlowFoundation

/// The challenges waiting on this machine's enrollments (devices.md §4, §7b), each enrollment's fetched
/// with its own maintenance token.
enum PendingChallenges {
    /// The pending challenges of one enrollment (maintenance token, then its pending link).
    static func of(_ record: EnrollmentRecord, folder: OrgDeviceFolder, _ context: IdFlowContext) async throws(IdFlowError)
        -> [PushChallenge]
    {
        let org = try record.org()
        let link = try AuthenticatorOrg.link(record.pendingUrl, on: org, what: "pending-challenges link")
        let token = try await maintenanceToken(record, folder: folder, org: org, context)
        return try await context.http.send(PendingChallengesRequest(url: link, accessToken: token))
    }

    /// The pending challenges of every enrollment in `records`, oldest first, each with its enrollment.
    /// With several enrollments one that fails is noted on stderr and skipped; if every one fails, the
    /// first failure is thrown.
    static func of(_ records: [EnrollmentRecord], _ context: IdFlowContext) async throws(IdFlowError) -> [(
        EnrollmentRecord, PushChallenge
    )] {
        var found: [(EnrollmentRecord, PushChallenge)] = []
        var firstFailure: IdFlowError?
        var seen: Set<String> = []
        for record in records {
            do {
                let folder = try DeviceStore(context).org(try record.storedOrgURL())
                for challenge in try await of(record, folder: folder, context) where seen.insert(challenge.transactionId).inserted {
                    found.append((record, challenge))
                }
            } catch {
                guard records.count > 1 else { throw error }
                firstFailure = firstFailure ?? error
                context.notice("enrollment \(record.enrollmentId): \(error.message)")
            }
        }
        if found.isEmpty, let firstFailure, records.count > 1 {
            throw firstFailure
        }
        return found.sorted { ($0.1.issuedAt, $0.1.transactionId) < ($1.1.issuedAt, $1.1.transactionId) }
    }

    /// A maintenance token for `record` (§7b): the jwt-bearer grant with an assertion signed by its PoP key.
    private static func maintenanceToken(
        _ record: EnrollmentRecord, folder: OrgDeviceFolder, org: URL, _ context: IdFlowContext
    ) async throws(IdFlowError) -> Secret {
        let key = try folder.silentKey(record.proofOfPossessionKeyId, role: .proofOfPossession)
        var claims = DeviceJWT.timeClaims(now: context.now())
        claims["iss"] = "urn:okta:devices:app:authenticator"
        claims["aud"] = .string(org.absoluteString)
        claims["sub"] = .string(record.userId)
        claims["methodEnrollmentId"] = .string(record.methodEnrollmentId)
        let assertion = try DeviceJWT.sign(type: "JWT", claims: .object(claims), key: key)
        let token = try await context.http.send(MaintenanceTokenRequest(orgURL: org, clientID: record.oauthClientId, assertion: assertion))
        return Secret(token.accessToken)
    }
}
