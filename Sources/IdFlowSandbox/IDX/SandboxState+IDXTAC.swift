import Foundation

/// A Temporary Access Code (`tac…`): a code an admin creates for one user through the management API and hands over
/// out of band, for a user who has lost their other authenticators. Okta keeps one per user (a new one replaces the
/// old), never shows it again after the answer that created it, and refuses it once expired or, single-use, once used.
struct TACEnrollment: Sendable {
    let id: String
    let code: String
    let multiUse: Bool
    let created: Date
    let expiresAt: Date
    /// A single-use code that signed someone in: kept, so the enrollment is still listed, but refused.
    var used = false

    func isUsable(at now: Date) -> Bool { now < expiresAt && !(used && !multiUse) }
}

/// The body of `POST /api/v1/users/{userId}/authenticator-enrollments/tac`, as Okta's TAC guide sends it:
/// `{"authenticatorId", "authenticatorType": "tac", "config": {"ttl": minutes, "multiUse"}}`.
struct TACRequest: Decodable, Sendable {
    struct Config: Decodable, Sendable {
        var ttl: Int?
        var multiUse: Bool?
    }
    var authenticatorId: String?
    var authenticatorType: String?
    var config: Config?
}

extension SandboxState {
    /// The TAC authenticator's settings, as the guide's example configures it: lifetimes in minutes from 10 to 720
    /// (12 hours), 480 when none is asked for, 16 characters of letters, digits and symbols.
    static let tacMinimumTTL = 10
    static let tacMaximumTTL = 720
    static let tacDefaultTTL = 480
    static let tacLength = 16
    /// Letters, digits and the symbols of the guide's example code (`4&^CnBV^3^u4b^Hg`); nothing a shell or a file
    /// line would strip.
    static let tacAlphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789&^%$#@!*")

    /// `POST /api/v1/users/{userId}/authenticator-enrollments/tac`: a new code for the user, replacing any earlier
    /// one; the TAC authenticator's id, when given, must be the sandbox's, and `ttl` within the authenticator's range.
    func createTAC(userIdOrLogin: String, request: TACRequest) throws -> (enrollment: TACEnrollment, userId: String) {
        let user = try user(idOrLogin: userIdOrLogin)
        if let type = request.authenticatorType, type != "tac" {
            throw OktaErrorResponse.validation("authenticatorType", causes: ["authenticatorType: must be tac"])
        }
        if let id = request.authenticatorId, id != IDXWire.tacAuthenticatorID {
            throw OktaErrorResponse.validation(
                "authenticatorId", causes: ["authenticatorId: not the Temporary Access Code authenticator (\(IDXWire.tacAuthenticatorID))"])
        }
        let ttl = request.config?.ttl ?? Self.tacDefaultTTL
        guard (Self.tacMinimumTTL...Self.tacMaximumTTL).contains(ttl) else {
            throw OktaErrorResponse.validation(
                "ttl", causes: ["ttl: must be from \(Self.tacMinimumTTL) to \(Self.tacMaximumTTL) minutes"])
        }
        let now = clock.now
        let enrollment = TACEnrollment(
            id: RandomToken.oktaID(prefix: "tac"), code: RandomToken.string(count: Self.tacLength, alphabet: Self.tacAlphabet),
            multiUse: request.config?.multiUse ?? false, created: now, expiresAt: now.addingTimeInterval(TimeInterval(ttl * 60)))
        idx.enrollments[user.id, default: IDXUserEnrollments()].tac = enrollment
        return (enrollment, user.id)
    }

    /// `DELETE /api/v1/users/{userId}/authenticator-enrollments/{enrollmentId}` of the user's TAC: gone, so the code
    /// no longer signs in and is no longer offered.
    func deleteTAC(userIdOrLogin: String, enrollmentId: String) throws {
        let user = try user(idOrLogin: userIdOrLogin)
        guard let tac = idx.enrollments[user.id]?.tac, tac.id == enrollmentId else {
            throw OktaErrorResponse.notFound(enrollmentId, type: "AuthenticatorEnrollment")
        }
        idx.enrollments[user.id]?.tac = nil
    }

    /// The user's TAC while it can still sign in: unexpired by the sandbox clock, and unused unless multi-use.
    func activeTAC(userId: String) -> TACEnrollment? {
        guard let tac = idx.enrollments[userId]?.tac, tac.isUsable(at: clock.now) else { return nil }
        return tac
    }

    /// Checks a code against the user's TAC; a right one counts as used (a single-use code then stops working).
    func useTAC(_ code: String, userId: String) -> Bool {
        guard let tac = activeTAC(userId: userId), !code.isEmpty, ConstantTime.equals(code, tac.code) else { return false }
        idx.enrollments[userId]?.tac?.used = true
        return true
    }

    /// `challenge {"authenticator": {"id": TAC}}`: the code form; the TAC must still be usable.
    func challengeTAC(_ transaction: IDXTransaction, _ progress: IDXSignIn) -> IDXTransaction? {
        guard activeTAC(userId: progress.userId) != nil else { return nil }
        return updateStep(transaction, to: .challengeTAC(progress))
    }
}

extension TACEnrollment {
    /// The answer of the create call, as the guide's example shows it: the code itself only here, `expiresAt` in the
    /// example's form (UTC, no fraction, no zone letter).
    func rendered(userId: String, orgURL: String) -> OrderedJSON {
        let userURL = "\(orgURL)/api/v1/users/\(userId)"
        return [
            "id": .string(id), "type": "tac", "key": "tac", "name": "Temporary Access Code", "status": "ACTIVE",
            "profile": [
                "tac": .string(code), "multiUse": .bool(multiUse),
                "expiresAt": .string(String(Timestamps.iso8601(expiresAt).dropLast(".000Z".count))),
            ],
            "created": .string(Timestamps.iso8601(created)), "lastUpdated": .string(Timestamps.iso8601(created)), "nickname": "",
            "_links": [
                "self": [
                    "href": .string("\(userURL)/authenticator-enrollments/\(id)"), "hints": ["allow": ["GET", "DELETE"]],
                ],
                "user": ["href": .string(userURL), "hints": ["allow": ["GET"]]],
            ],
        ]
    }
}
