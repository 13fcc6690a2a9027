import Crypto
import Foundation
import HTTPTypes
import OneTimePasscode

/// An enrollment with what its JSON shows: the device and the user.
struct EnrollmentSnapshot: Sendable {
    let enrollment: RegisteredEnrollment
    let device: DeviceRecord
    let user: UserRecord
}

/// A validated enrollment body (devices.md §2b).
struct EnrollmentInput: Sendable {
    /// A first enrollment on this org brings a client-instance key; later ones name the device.
    enum Device: Sendable {
        case new(profile: DeviceProfile, clientInstanceKid: String, clientInstanceKey: P256.Signing.PublicKey)
        case existing(id: String, clientInstanceId: String, attestation: DeviceAssertionClaims)
    }

    let authenticatorId: String
    let device: Device
    let pushToken: String
    let apsEnvironment: String?
    let transactionTypes: [String]
    let proofOfPossession: (kid: String, key: P256.Signing.PublicKey)
    let userVerification: (kid: String, key: P256.Signing.PublicKey)?
}

/// A validated merge-patch body (devices.md §3a); nil members are left as they are.
struct EnrollmentPatch: Sendable {
    enum KeyChange: Sendable {
        case unchanged
        case remove
        case set(kid: String, key: P256.Signing.PublicKey)
    }

    var pushToken: String?
    var userVerification: KeyChange = .unchanged
    var transactionTypes: [String]?
}

/// The MyAccount app-authenticators API (devices.md §1–§3, §7b): the org's one custom app
/// authenticator, devices, enrollments and the keys registered with them.
extension SandboxState {
    /// The one custom app authenticator of the org (`aut…`, 20 characters).
    static let authenticatorId = "autidflowsandbox0000"
    static let manageScope = "okta.myAccount.appAuthenticator.manage"
    static let readScope = "okta.myAccount.appAuthenticator.read"
    static let maintenanceManageScope = "okta.myAccount.appAuthenticator.maintenance.manage"
    static let maintenanceReadScope = "okta.myAccount.appAuthenticator.maintenance.read"
    /// When the org's app authenticator was "created" (a fixed date: it is part of the org's setup).
    static let authenticatorCreated = Date(timeIntervalSince1970: 1_700_000_000)
    /// The `iss` of a jwt-bearer assertion signed by a device (devices.md §7b).
    static let deviceAssertionIssuer = "urn:okta:devices:app:authenticator"
    /// The transaction types a push method may declare.
    static let pushTransactionTypes: Set<String> = ["LOGIN", "CIBA"]

    /// The org's id (`00o…`): the `idp` claim of ID tokens and `orgId` of the devices API.
    var orgId: String { Self.orgIdentityProviderID }

    func device(id: String) -> DeviceRecord? { push.devices[id] }

    /// A registered key by `kid`, whoever it belongs to.
    func registeredKey(kid: String) -> RegisteredKey? { push.deviceKeys[kid] }

    // MARK: Enroll, update, delete

    /// `POST /idp/myaccount/app-authenticators`: registers the device (or reuses the one the
    /// attestation proves) and the push method's keys, all stored by `kid`.
    func enroll(userId: String, clientId: String, input: EnrollmentInput) throws -> EnrollmentSnapshot {
        noteRecordActivity()
        guard input.authenticatorId == Self.authenticatorId else {
            throw OktaErrorResponse.validation(
                "authenticatorId", causes: ["authenticatorId: no app authenticator \(input.authenticatorId) in this org"])
        }
        var newKids = [input.proofOfPossession.kid]
        if let uv = input.userVerification { newKids.append(uv.kid) }
        if case .new(_, let kid, _) = input.device { newKids.append(kid) }
        try checkUnregistered(newKids)

        let now = clock.now
        var device: DeviceRecord
        switch input.device {
        case .new(let profile, let kid, let key):
            device = DeviceRecord(
                id: RandomToken.oktaID(prefix: "guo"), clientInstanceId: RandomToken.oktaID(prefix: "cli"),
                clientInstanceKid: kid, profile: profile, created: now, lastUpdated: now)
            push.deviceKeys[kid] = RegisteredKey(kid: kid, role: .clientInstance, enrollmentId: nil, deviceId: device.id, publicKey: key)
        case .existing(let id, let clientInstanceId, let attestation):
            guard let known = push.devices[id], known.clientInstanceId == clientInstanceId else { throw OktaErrorResponse.deviceDeleted }
            try checkAttestation(attestation, device: known)
            device = known
            device.lastUpdated = now
        }
        push.devices[device.id] = device

        let enrollment = RegisteredEnrollment(
            id: RandomToken.oktaID(prefix: "pfd"), userId: userId, deviceId: device.id, clientId: clientId,
            pushMethodId: RandomToken.oktaID(prefix: "opf"), created: now, lastUpdated: now, pushToken: input.pushToken,
            apsEnvironment: input.apsEnvironment, transactionTypes: input.transactionTypes,
            proofOfPossessionKid: input.proofOfPossession.kid, userVerificationKid: input.userVerification?.kid,
            totpMethodId: RandomToken.oktaID(prefix: "ost"), totpSecret: TOTPSecret.random())
        push.enrollments[enrollment.id] = enrollment
        register(input.proofOfPossession, role: .proofOfPossession, enrollment: enrollment)
        if let uv = input.userVerification { register(uv, role: .userVerification, enrollment: enrollment) }
        return try snapshot(enrollment.id, userId: userId)
    }

    /// `PATCH …/app-authenticators/{id}` (merge patch): push token, the user-verification key
    /// (a new one replaces the old; null removes it) and the transaction types.
    func updateEnrollment(id: String, userId: String, patch: EnrollmentPatch) throws -> EnrollmentSnapshot {
        var enrollment = try ownedEnrollment(id, userId: userId)
        if let types = patch.transactionTypes { enrollment.transactionTypes = try Self.checkedTransactionTypes(types) }
        switch patch.userVerification {
        case .unchanged: break
        case .remove:
            if let old = enrollment.userVerificationKid { push.deviceKeys[old] = nil }
            enrollment.userVerificationKid = nil
        case .set(let kid, let key):
            try checkUnregistered([kid])
            if let old = enrollment.userVerificationKid { push.deviceKeys[old] = nil }
            enrollment.userVerificationKid = kid
            register((kid, key), role: .userVerification, enrollment: enrollment)
        }
        if let pushToken = patch.pushToken { enrollment.pushToken = pushToken }
        enrollment.lastUpdated = clock.now
        push.enrollments[id] = enrollment
        return try snapshot(id, userId: userId)
    }

    /// `DELETE …/app-authenticators/{id}`: the enrollment and its keys are gone; its challenges
    /// can no longer be listed or answered. Deleting it again is E0000154.
    func deleteEnrollment(id: String, userId: String) throws {
        let enrollment = try ownedEnrollment(id, userId: userId)
        push.deviceKeys[enrollment.proofOfPossessionKid] = nil
        if let kid = enrollment.userVerificationKid { push.deviceKeys[kid] = nil }
        push.enrollments[id] = nil
        push.deletedEnrollmentIds.insert(id)
    }

    /// The enrollment, its device and its user, for rendering.
    func snapshot(_ id: String, userId: String) throws -> EnrollmentSnapshot {
        let enrollment = try ownedEnrollment(id, userId: userId)
        guard let device = push.devices[enrollment.deviceId], let user = directory.users[enrollment.userId] else {
            throw OktaErrorResponse.enrollmentNotFound(id)
        }
        return EnrollmentSnapshot(enrollment: enrollment, device: device, user: user)
    }

    /// An enrollment of this user: deleted ones are E0000154 (410), unknown ones and other
    /// users' E0000008 (404), so the API does not reveal enrollments of others.
    func ownedEnrollment(_ id: String, userId: String) throws -> RegisteredEnrollment {
        if push.deletedEnrollmentIds.contains(id) { throw OktaErrorResponse.enrollmentDeleted(id) }
        guard let enrollment = push.enrollments[id], enrollment.userId == userId else {
            throw OktaErrorResponse.enrollmentNotFound(id)
        }
        return enrollment
    }

    static func checkedTransactionTypes(_ types: [String]) throws -> [String] {
        guard !types.isEmpty, types.allSatisfy(pushTransactionTypes.contains) else {
            throw OktaErrorResponse.validation(
                "transactionTypes", causes: ["capabilities.transactionTypes: each value must be LOGIN or CIBA"])
        }
        return types
    }

    private func checkUnregistered(_ kids: [String]) throws {
        guard Set(kids).count == kids.count else {
            throw OktaErrorResponse.validation("keys", causes: ["keys: every key needs its own kid"])
        }
        for kid in kids where push.deviceKeys[kid] != nil {
            throw OktaErrorResponse.validation("kid", causes: ["kid: a key with kid \(kid) is already registered"])
        }
    }

    private func register(
        _ key: (kid: String, key: P256.Signing.PublicKey), role: RegisteredKeyRole, enrollment: RegisteredEnrollment
    ) {
        push.deviceKeys[key.kid] = RegisteredKey(
            kid: key.kid, role: role, enrollmentId: enrollment.id, deviceId: enrollment.deviceId, publicKey: key.key)
    }

    /// The client-instance key attestation of a second enrollment (devices.md §2b): signed by the
    /// device's key (checked by the caller), `iss` = clientInstanceId, `sub` = deviceId, `aud` = org.
    private func checkAttestation(_ claims: DeviceAssertionClaims, device: DeviceRecord) throws {
        do throws(DeviceJWTVerifier.Rejected) {
            guard claims.iss == device.clientInstanceId, claims.sub == device.id, claims.aud == orgURL else {
                throw DeviceJWTVerifier.Rejected("iss, sub and aud must be the clientInstanceId, the device id and the org URL")
            }
            try consumeDeviceTokenID(claims.jti, nbf: claims.nbf, exp: claims.exp, iat: claims.iat)
        } catch {
            throw OktaErrorResponse.invalidDeviceToken(error.reason)
        }
    }

    /// Checks a device token's lifetime and that its `jti` was never accepted before, then
    /// remembers the `jti` until the token expires (minutes, since the lifetime is bounded).
    func consumeDeviceTokenID(_ jti: String?, nbf: Double?, exp: Double?, iat: Double?) throws(DeviceJWTVerifier.Rejected) {
        let now = clock.now
        try DeviceJWTVerifier.checkLifetime(nbf: nbf, exp: exp, iat: iat, now: now)
        guard let jti, !jti.isEmpty else { throw DeviceJWTVerifier.Rejected("jti is required") }
        if let until = push.usedDeviceTokenIDs[jti], until >= now { throw DeviceJWTVerifier.Rejected("jti \(jti) was already used") }
        push.usedDeviceTokenIDs[jti] = Date(timeIntervalSince1970: exp ?? now.timeIntervalSince1970)
    }

    // MARK: Maintenance tokens (jwt-bearer)

    /// The proof-of-possession key a jwt-bearer assertion names, with its enrollment.
    func assertionKey(kid: String) throws -> (RegisteredKey, RegisteredEnrollment) {
        guard let key = push.deviceKeys[kid], key.role == .proofOfPossession, let enrollmentId = key.enrollmentId,
            let enrollment = push.enrollments[enrollmentId]
        else { throw Self.invalidAssertion("no proof-of-possession key is registered with kid \(kid)") }
        return (key, enrollment)
    }

    /// `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer` (devices.md §7b), after the
    /// signature verified: checks the claims and issues an access token with maintenance scopes only.
    func maintenanceGrant(
        _ claims: DeviceAssertionClaims, enrollment: RegisteredEnrollment, client: OAuthClient, server: HostedAuthorizationServer,
        scopes requested: [String]?
    ) throws -> UnsignedTokens {
        noteRecordActivity()
        guard let current = push.enrollments[enrollment.id], let user = directory.users[current.userId], user.status == .active else {
            throw Self.invalidAssertion("the enrollment no longer exists")
        }
        guard claims.iss == Self.deviceAssertionIssuer else {
            throw Self.invalidAssertion("iss must be \(Self.deviceAssertionIssuer)")
        }
        guard claims.aud == orgURL else { throw Self.invalidAssertion("aud must be the org URL \(orgURL)") }
        guard claims.sub == user.id else { throw Self.invalidAssertion("sub must be the enrolled user's id") }
        guard claims.methodEnrollmentId == current.pushMethodId else {
            throw Self.invalidAssertion("methodEnrollmentId must be the push method's id")
        }
        do throws(DeviceJWTVerifier.Rejected) {
            try consumeDeviceTokenID(claims.jti, nbf: claims.nbf, exp: claims.exp, iat: claims.iat)
        } catch {
            throw Self.invalidAssertion(error.reason)
        }
        let allowed: Set = [Self.maintenanceManageScope, Self.maintenanceReadScope]
        let scopes = requested ?? [Self.maintenanceManageScope]
        guard !scopes.isEmpty, scopes.allSatisfy(allowed.contains) else {
            throw OAuthErrorResponse(
                .badRequest, "invalid_scope",
                "The requested scope is invalid, unknown, or malformed. A device assertion grants only "
                    + "\(Self.maintenanceManageScope) and \(Self.maintenanceReadScope).")
        }
        let family = TokenFamily(
            id: RandomToken.string(count: 20), server: server, clientId: client.id, userId: user.id, scopes: scopes,
            authTime: clock.now)
        oauth.tokenFamilies[family.id] = family
        return makeGrant(family: family, scopes: scopes, nonce: nil)
    }

    static func invalidAssertion(_ reason: String) -> OAuthErrorResponse {
        OAuthErrorResponse(.badRequest, "invalid_grant", "The assertion is invalid: \(reason).")
    }

    /// The user behind an active access token from either authorization server (the MyAccount API
    /// takes tokens of the org AS and, in the sandbox, of `default` too, which idflow uses by default).
    func activeAccessToken(_ claims: AccessTokenClaims) -> UserRecord? {
        for server in [HostedAuthorizationServer.org, .custom("default")] where server.issuer(orgURL: orgURL) == claims.iss {
            return activeAccessToken(claims, server: server)
        }
        return nil
    }
}

extension OktaErrorResponse {
    /// E0000006: the token lacks the scope the operation needs.
    static func insufficientScope(_ scopes: [String]) -> Self {
        var error = Self(
            .forbidden, "E0000006", "You do not have permission to perform the requested action",
            causes: ["The access token must carry one of the scopes: \(scopes.joined(separator: ", "))"])
        error.headers[.wwwAuthenticate] = #"Bearer error="insufficient_scope", scope="\#(scopes.joined(separator: " "))""#
        return error
    }

    /// E0000011 in the MyAccount API's shape (no `errorCauses`): a missing, invalid or expired bearer token.
    static let invalidBearerToken: Self = {
        var error = Self(.unauthorized, "E0000011", "Invalid token provided")
        error.omitsEmptyCauses = true
        error.headers[.wwwAuthenticate] = #"Bearer error="invalid_token""#
        return error
    }()

    /// E0000011 for a device-signed token (attestation, challenge response) that does not verify.
    static func invalidDeviceToken(_ reason: String) -> Self {
        Self(.unauthorized, "E0000011", "Invalid token provided", causes: [reason])
    }

    /// E0000153 (410): the device a second enrollment names no longer exists.
    static let deviceDeleted: Self = {
        var error = Self(.gone, "E0000153", "Device is deleted")
        error.omitsEmptyCauses = true
        return error
    }()

    /// E0000154 (410): the enrollment was deleted.
    static func enrollmentDeleted(_ id: String) -> Self {
        var error = Self(.gone, "E0000154", "Not found: Resource not found: \(id) (GenericUDObject)")
        error.omitsEmptyCauses = true
        return error
    }

    /// E0000008 (404): no such enrollment for this user.
    static func enrollmentNotFound(_ id: String) -> Self {
        var error = Self(.notFound, "E0000008", "The requested path was not found")
        error.omitsEmptyCauses = true
        return error
    }
}
