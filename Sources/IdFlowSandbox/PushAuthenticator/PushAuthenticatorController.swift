import Foundation
import HTTPTypes
import Hummingbird

/// The push authenticator's server side (devices.md §9): the two well-known documents, the MyAccount
/// app-authenticators API (Bearer tokens, scopes enforced), the pending-challenge list, the
/// unauthenticated verify endpoint, and `/sandbox/push` for scripts (SSWS, via the middleware).
struct PushAuthenticatorController {
    let state: SandboxState

    static let base = "/idp/myaccount/app-authenticators"
    /// `typ` of push challenges and of their responses.
    static let pushBindType = "okta-pushbind+jwt"

    func register(in routes: RouteRegistry) {
        routes.get("/.well-known/okta-organization", use: organization)
        routes.on("/.well-known/app-authenticator-configuration", .get, takesUserToken: true, use: configuration)
        routes.on(Self.base, .post, takesUserToken: true, use: enroll)
        routes.on("\(Self.base)/:enrollmentId", .patch, takesUserToken: true, use: update)
        routes.on("\(Self.base)/:enrollmentId", .delete, takesUserToken: true, use: delete)
        routes.on("\(Self.base)/:enrollmentId/push/notifications", .get, takesUserToken: true, use: pending)
        routes.post("\(Self.base)/challenge/:transactionId/verify", use: verify)
        routes.post("/sandbox/push", use: startPush)
        routes.get("/sandbox/push/:transactionId", use: pushStatus)
    }

    // MARK: Discovery (§1)

    /// `GET /.well-known/okta-organization` (no authentication).
    @Sendable func organization(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        .json(PushAuthenticatorWire.organization(orgId: await state.orgId, orgURL: await state.orgURL))
    }

    /// `GET /.well-known/app-authenticator-configuration?oauthClientId=…` (Bearer): the authenticator
    /// for a registered client, `[]` for any other client.
    @Sendable func configuration(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        _ = try await bearer(request, context: context, anyOf: [])
        let clientId = try Required.text(request.queryParameters["oauthClientId"], else: OktaErrorResponse.blank("oauthClientId"))
        guard state.configuration.oauthClients.contains(where: { $0.id == clientId }) else { return .json([]) }
        return .json(
            PushAuthenticatorWire.configuration(
                orgId: await state.orgId, orgURL: await state.orgURL,
                userVerification: state.configuration.pushUserVerification, created: SandboxState.authenticatorCreated))
    }

    // MARK: Enrollments (§2, §3)

    /// `POST /idp/myaccount/app-authenticators` (`…appAuthenticator.manage`) → 200, the enrollment with its TOTP seed.
    @Sendable func enroll(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let (claims, user) = try await bearer(request, context: context, anyOf: [SandboxState.manageScope])
        var request = request
        guard let body = try await request.decodeJSONBody(OrderedJSON.self, context: context), body.objectValue != nil else {
            throw OktaErrorResponse.malformedBody
        }
        let input = try await enrollmentInput(body)
        let snapshot = try await state.enroll(userId: user.id, clientId: claims.cid, input: input)
        return .json(PushAuthenticatorWire.enrollment(snapshot, orgURL: await state.orgURL, withSeed: true))
    }

    /// `PATCH …/{id}` (merge patch): `…maintenance.manage` or `…manage`; the user-verification key
    /// only with `…manage` → 200, the whole enrollment.
    @Sendable func update(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        // The token is checked first; which scope it needs depends on the body.
        let (claims, user) = try await bearer(request, context: context, anyOf: [])
        var request = request
        let body = try await request.decodeJSONBody(OrderedJSON.self, context: context)
        let push = try Required.value(
            body?["methods"]?["push"]?.objectValue, else: OktaErrorResponse.blank("methods.push", field: "methods"))
        var patch = EnrollmentPatch()
        if let token = push["pushToken"], !token.isNull {
            guard let value = token.stringValue else {
                throw OktaErrorResponse.validation("pushToken", causes: ["methods.push.pushToken: must be a string"])
            }
            patch.pushToken = value
        }
        if let types = push["capabilities"]?["transactionTypes"] {
            patch.transactionTypes = try Self.strings(types, field: "methods.push.capabilities.transactionTypes")
        }
        let keys = push["keys"]?.objectValue
        if keys?["proofOfPossession"] != nil {
            throw OktaErrorResponse.validation(
                "proofOfPossession", causes: ["methods.push.keys.proofOfPossession: cannot be changed; enroll again"])
        }
        if let uv = keys?["userVerification"] {
            if uv.isNull {
                patch.userVerification = .remove
            } else {
                let (kid, key) = try DeviceJWTVerifier.publicKey(fromJWK: uv, field: "methods.push.keys.userVerification")
                patch.userVerification = .set(kid: kid, key: key)
            }
        }
        let scopes =
            keys?["userVerification"] == nil
            ? [SandboxState.manageScope, SandboxState.maintenanceManageScope] : [SandboxState.manageScope]
        try Self.requireScope(claims, anyOf: scopes)
        let id = request.pathParameter("enrollmentId", context: context)
        let snapshot = try await state.updateEnrollment(id: id, userId: user.id, patch: patch)
        return .json(PushAuthenticatorWire.enrollment(snapshot, orgURL: await state.orgURL))
    }

    /// `DELETE …/{id}` (`…manage`) → 204.
    @Sendable func delete(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let (_, user) = try await bearer(request, context: context, anyOf: [SandboxState.manageScope])
        try await state.deleteEnrollment(id: request.pathParameter("enrollmentId", context: context), userId: user.id)
        return .empty(.noContent)
    }

    // MARK: Challenges (§4, §6)

    /// `GET …/{id}/push/notifications` (`…maintenance.read`, `…maintenance.manage` or `…manage`) →
    /// the waiting challenges, oldest first, each an RS256 JWT signed by the org's key.
    @Sendable func pending(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let (_, user) = try await bearer(
            request, context: context,
            anyOf: [SandboxState.maintenanceReadScope, SandboxState.maintenanceManageScope, SandboxState.manageScope])
        let claims = try await state.pendingChallengeClaims(
            enrollmentId: request.pathParameter("enrollmentId", context: context), userId: user.id)
        let key = try await state.signingKey()
        var entries: [OrderedJSON] = []
        for challenge in claims {
            entries.append(PushAuthenticatorWire.pendingChallenge(try await key.sign(challenge, type: Self.pushBindType)))
        }
        return .json(.array(entries))
    }

    struct VerifyBody: Decodable {
        var method: String?
        var challengeResponse: String?
    }

    /// `POST …/challenge/{tx}/verify` (no authentication) → 200 approved, 204 denied or not verified.
    @Sendable func verify(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        var request = request
        let body = try await request.decodeJSONBody(VerifyBody.self, context: context) ?? VerifyBody()
        guard body.method == "push" else {
            throw OktaErrorResponse.validation("method", causes: ["method: must be push"])
        }
        let token = try Required.text(body.challengeResponse, else: OktaErrorResponse.blank("challengeResponse"))
        let transactionId = request.pathParameter("transactionId", context: context)
        let header: DeviceJWTVerifier.Header
        do throws(DeviceJWTVerifier.Rejected) {
            header = try DeviceJWTVerifier.header(of: token)
        } catch {
            throw OktaErrorResponse.invalidDeviceToken(error.reason)
        }
        guard header.typ?.lowercased() == Self.pushBindType else {
            throw OktaErrorResponse.invalidDeviceToken("typ must be \(Self.pushBindType)")
        }
        let (_, key) = try await state.challengeForVerification(transactionId: transactionId, kid: header.kid)
        let claims: ChallengeResponseClaims
        do throws(DeviceJWTVerifier.Rejected) {
            claims = try await DeviceJWTVerifier.verify(token, with: key.publicKey, kid: key.kid, as: ChallengeResponseClaims.self)
        } catch {
            throw OktaErrorResponse.invalidDeviceToken(error.reason)
        }
        let status = try await state.answerPushChallenge(transactionId: transactionId, claims: claims, kid: key.kid)
        return .empty(status == .approved ? .ok : .noContent)
    }

    // MARK: Scripts and tests

    struct PushBody: Decodable {
        var login: String?
        var enrollmentId: String?
        var userVerification: String?
        var clientOS: String?
        var clientLocation: String?
    }

    /// `POST /sandbox/push {"login","userVerification"?,"clientOS"?,"clientLocation"?,"enrollmentId"?}`
    /// → `{"transactionId","expiresAt"}`: a challenge for the user's (newest) enrollment.
    @Sendable func startPush(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        var request = request
        let body = try await request.requireJSONBody(PushBody.self, context: context)
        let login = try Required.text(body.login, else: OktaErrorResponse.blank("login"))
        var pushRequest = PushRequest(userVerification: state.configuration.pushUserVerification)
        if let level = body.userVerification {
            guard let parsed = PushUserVerification(rawValue: level.uppercased()) else {
                throw OktaErrorResponse.validation(
                    "userVerification", causes: ["userVerification: must be NONE, PREFERRED or REQUIRED"])
            }
            pushRequest.userVerification = parsed
        }
        if let clientOS = body.clientOS { pushRequest.clientOS = clientOS }
        if let clientLocation = body.clientLocation { pushRequest.clientLocation = clientLocation }
        let challenge = try await state.startPush(login: login, enrollmentId: body.enrollmentId, request: pushRequest)
        return .json([
            "transactionId": .string(challenge.transactionId), "expiresAt": .string(Timestamps.iso8601(challenge.expiresAt)),
        ])
    }

    /// `GET /sandbox/push/{tx}` → `{"status","userConsent","keyType"}` (null until answered).
    @Sendable func pushStatus(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let (challenge, status) = try await state.pushChallenge(
            transactionId: request.pathParameter("transactionId", context: context))
        return .json([
            "status": .string(status.rawValue), "userConsent": OrderedJSON(challenge.userConsent),
            "keyType": OrderedJSON(challenge.keyType),
        ])
    }

    // MARK: Helpers

    /// The access token's claims and user; `anyOf` lists the scopes of which one must be granted
    /// (none: any valid token). A missing or dead token is 401 E0000011, a weak one 403 E0000006; a bound token
    /// needs its proof of possession (`UserTokenBinding`), a DPoP-bound one the `DPoP` scheme.
    private func bearer(_ request: Request, context: SandboxRequestContext, anyOf scopes: [String]) async throws -> (
        AccessTokenClaims, UserRecord
    ) {
        let (claims, user) = try await UserTokenBinding.myAccountToken(request, context: context, scopes: scopes, state: state)
        try Self.requireScope(claims, anyOf: scopes)
        return (claims, user)
    }

    /// 403 E0000006 unless the token carries one of `scopes` (none: any token will do).
    private static func requireScope(_ claims: AccessTokenClaims, anyOf scopes: [String]) throws {
        guard scopes.isEmpty || scopes.contains(where: claims.scp.contains) else {
            throw OktaErrorResponse.insufficientScope(scopes)
        }
    }

    /// Reads the enrollment body (devices.md §2b); a second enrollment's attestation is verified here.
    private func enrollmentInput(_ body: OrderedJSON) async throws -> EnrollmentInput {
        let authenticatorId = try Required.value(body["authenticatorId"]?.stringValue, else: OktaErrorResponse.blank("authenticatorId"))
        let deviceBody = try Required.value(body["device"]?.objectValue, else: OktaErrorResponse.blank("device"))
        let push = try Required.value(
            body["methods"]?["push"]?.objectValue, else: OktaErrorResponse.blank("methods.push", field: "methods"))
        let device: EnrollmentInput.Device
        if let deviceId = deviceBody["id"]?.stringValue {
            device = try await existingDevice(deviceId, body: deviceBody)
        } else {
            guard let jwk = deviceBody["clientInstanceKey"] else {
                throw OktaErrorResponse.validation(
                    "clientInstanceKey", causes: ["device.clientInstanceKey: required unless device.id is given"])
            }
            let (kid, key) = try DeviceJWTVerifier.publicKey(fromJWK: jwk, field: "device.clientInstanceKey")
            let signal = { (name: String) in deviceBody[name]?.stringValue }
            let profile = DeviceProfile(
                displayName: signal("displayName"), platform: signal("platform"), manufacturer: signal("manufacturer"),
                model: signal("model"), osVersion: signal("osVersion"), serialNumber: signal("serialNumber"),
                imei: signal("imei"), meid: signal("meid"), udid: signal("udid"), sid: signal("sid"))
            device = .new(profile: profile, clientInstanceKid: kid, clientInstanceKey: key)
        }
        var pushToken = ""
        if let token = push["pushToken"], !token.isNull {
            guard let value = token.stringValue else {
                throw OktaErrorResponse.validation("pushToken", causes: ["methods.push.pushToken: must be a string"])
            }
            pushToken = value
        }
        let aps = push["apsEnvironment"]?.stringValue?.lowercased()
        if let aps, !["production", "development"].contains(aps) {
            throw OktaErrorResponse.validation(
                "apsEnvironment", causes: ["methods.push.apsEnvironment: must be production or development"])
        }
        var transactionTypes = ["LOGIN"]
        if let types = push["capabilities"]?["transactionTypes"] {
            transactionTypes = try SandboxState.checkedTransactionTypes(
                Self.strings(types, field: "methods.push.capabilities.transactionTypes"))
        }
        guard let keys = push["keys"]?.objectValue, let pop = keys["proofOfPossession"] else {
            throw OktaErrorResponse.blank("methods.push.keys.proofOfPossession", field: "proofOfPossession")
        }
        let uv = keys["userVerification"].flatMap { $0.isNull ? nil : $0 }
        return EnrollmentInput(
            authenticatorId: authenticatorId, device: device, pushToken: pushToken, apsEnvironment: aps,
            transactionTypes: transactionTypes,
            proofOfPossession: try DeviceJWTVerifier.publicKey(fromJWK: pop, field: "methods.push.keys.proofOfPossession"),
            userVerification: try uv.map { try DeviceJWTVerifier.publicKey(fromJWK: $0, field: "methods.push.keys.userVerification") })
    }

    /// A device already known to the org: its client-instance key must have signed the attestation.
    private func existingDevice(_ deviceId: String, body: JSONObject) async throws -> EnrollmentInput.Device {
        guard let clientInstanceId = body["clientInstanceId"]?.stringValue,
            let attestation = body["deviceAttestation"]?["clientInstanceKeyAttestation"]?.stringValue
        else {
            throw OktaErrorResponse.validation(
                "deviceAttestation",
                causes: ["device: clientInstanceId and deviceAttestation.clientInstanceKeyAttestation are required with device.id"])
        }
        guard let known = await state.device(id: deviceId), known.clientInstanceId == clientInstanceId else {
            throw OktaErrorResponse.deviceDeleted
        }
        do throws(DeviceJWTVerifier.Rejected) {
            let header = try DeviceJWTVerifier.header(of: attestation)
            guard header.kid == known.clientInstanceKid, let key = await state.registeredKey(kid: header.kid) else {
                throw DeviceJWTVerifier.Rejected("the attestation must be signed by the device's client-instance key")
            }
            let claims = try await DeviceJWTVerifier.verify(attestation, with: key.publicKey, kid: key.kid, as: DeviceAssertionClaims.self)
            return .existing(id: deviceId, clientInstanceId: clientInstanceId, attestation: claims)
        } catch {
            throw OktaErrorResponse.invalidDeviceToken(error.reason)
        }
    }

    private static func strings(_ value: OrderedJSON, field: String) throws -> [String] {
        let strings = value.arrayValue?.compactMap(\.stringValue)
        guard let strings, strings.count == value.arrayValue?.count else {
            throw OktaErrorResponse.validation(field, causes: ["\(field): must be an array of strings"])
        }
        return strings
    }
}
