import Foundation
import IdFlowFoundation
import OneTimePasscode

/// `idflow enroll`: makes this machine a push authenticator of the signed-in user (devices.md §1, §2).
/// Discovery (org id, then the app-authenticator configuration), keys (the org's client-instance key, a
/// PoP key, a PIN-sealed user-verification key when asked), the enrollment POST, and the record.
public struct EnrollDevice: Sendable {
    public var accessTokenFromStandardInput: Bool
    /// Lowercase hex, or nil for an empty token (no APNs here: challenges are fetched, not pushed).
    public var pushToken: String?
    public var userVerification: Bool
    /// Where the PIN sealing the user-verification key comes from; needed only with `userVerification`.
    public var pin: SecretSource?
    public var name: String?
    /// Signals describing the machine; nil reads this one's.
    public var signals: DeviceSignals?
    /// Where to keep the seed of the enrollment's TOTP method (Okta Verify's code), when the org sends one.
    public var totpSecretFile: TOTPSeedFile?

    public init(
        accessTokenFromStandardInput: Bool = false, pushToken: String? = nil, userVerification: Bool = false, pin: SecretSource? = nil,
        name: String? = nil, signals: DeviceSignals? = nil, totpSecretFile: TOTPSeedFile? = nil
    ) {
        self.totpSecretFile = totpSecretFile
        self.accessTokenFromStandardInput = accessTokenFromStandardInput
        self.pushToken = pushToken
        self.userVerification = userVerification
        self.pin = pin
        self.name = name
        self.signals = signals
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> EnrollmentOutput {
        let org = try AuthenticatorOrg.configured(context)
        if let totpSecretFile, FileManager.default.fileExists(atPath: totpSecretFile.url.path) {
            throw .localState(
                "\(totpSecretFile.url.path) already exists; idflow never overwrites a TOTP seed (nothing was enrolled)",
                hint: "give --totp-secret-file a path that does not exist yet")
        }
        var pinSecret: Secret?
        if userVerification {
            guard let pin else { throw Self.pinMissing }
            pinSecret = try SealedKey.acceptable(context.secrets.read("PIN", from: pin))
        }
        let (token, configuredClient) = try MyAccountToken.resolve(context, org: org, fromStandardInput: accessTokenFromStandardInput)
        guard let clientID = configuredClient, !clientID.isEmpty else {
            throw .configuration(
                "no OAuth client id configured", hint: "pass --client-id, export IDFLOW_CLIENT_ID, or set clientId in the profile")
        }

        let organization = try await context.http.send(OktaOrganizationRequest(orgURL: org))
        let configurations = try await context.http.send(
            AppAuthenticatorConfigurationRequest(orgURL: org, clientID: clientID, accessToken: token))
        guard !configurations.isEmpty else {
            throw .notFound(
                "the org has no app authenticator for the OAuth client \(clientID) (authenticator policy not found)",
                hint: "an admin must create a custom authenticator bound to this client, or pass the right --client-id")
        }
        guard let configuration = configurations.first(where: { $0.pushMethod != nil }) else {
            throw .notFound(
                "no app authenticator of the org offers the push method", hint: "an admin must enable push on the custom authenticator")
        }
        let enrollURL = try AuthenticatorOrg.link(configuration.appAuthenticatorEnrollEndpoint, on: org, what: "enroll endpoint")

        let folder = try DeviceStore(context).org(org)
        let target = Target(
            org: org, orgId: organization.id, clientID: clientID, configuration: configuration, enrollURL: enrollURL, token: token,
            pin: pinSecret, signals: signals ?? DeviceSignals.current(name: name), folder: folder)
        let identity = try folder.identity().flatMap { $0.orgId == organization.id && $0.orgUrl == org.absoluteString ? $0 : nil }
        switch try await enroll(identity, target, context) {
        case .enrolled(let output):
            return output
        case .deviceUnknown(let code):
            // §2b/§8: the server no longer knows the stored device; forget it and enroll once as a new device.
            context.message("the org no longer knows this device (\(code)); enrolling once more as a new device")
            try folder.removeIdentity()
            guard case .enrolled(let output) = try await enroll(nil, target, context) else {
                throw .internalFailure("a new device was reported as unknown")
            }
            return output
        }
    }

    /// What one enrollment needs that does not change between its attempts.
    private struct Target {
        let org: URL
        let orgId: String
        let clientID: String
        let configuration: AppAuthenticatorConfiguration
        let enrollURL: URL
        let token: Secret
        let pin: Secret?
        let signals: DeviceSignals
        let folder: OrgDeviceFolder
    }

    private enum Attempt {
        case enrolled(EnrollmentOutput)
        /// The server does not know the stored device (its error code); the attempt's keys are gone.
        case deviceUnknown(String)
    }

    /// One enrollment with `identity` (nil: as a new device): new keys saved, the enroll call, the records saved.
    /// A failure removes the keys it made; an unknown stored device is an answer, not an error, so the caller can
    /// forget it and try once more.
    private func enroll(_ identity: DeviceIdentity?, _ target: Target, _ context: IdFlowContext) async throws(IdFlowError) -> Attempt {
        let folder = target.folder
        let reused = identity?.deviceId != nil
        let (current, clientInstanceKey) = try deviceIdentity(identity, folder: folder, org: target.org, orgId: target.orgId, context)
        let proofOfPossession = DeviceKey.generate(.proofOfPossession)
        let userVerificationKey = userVerification ? DeviceKey.generate(.userVerification) : nil
        try folder.save(proofOfPossession, pin: nil, now: context.now())
        if let userVerificationKey { try folder.save(userVerificationKey, pin: target.pin, now: context.now()) }
        func discardNewKeys() {
            try? folder.removeKey(proofOfPossession.kid)
            if let userVerificationKey { try? folder.removeKey(userVerificationKey.kid) }
        }
        let body = try enrollmentBody(
            configuration: target.configuration, identity: current, clientInstanceKey: clientInstanceKey, reused: reused,
            proofOfPossession: proofOfPossession, userVerification: userVerificationKey, signals: target.signals, org: target.org, context)
        let enrollment: AppAuthenticatorEnrollment
        do {
            enrollment = try await context.http.send(
                EnrollAuthenticatorRequest(url: target.enrollURL, accessToken: target.token, body: body))
        } catch {
            discardNewKeys()
            if reused, case .okta(_, let failure, _) = error, ["E0000153", "E0000011"].contains(failure.errorCode) {
                try? folder.removeKey(clientInstanceKey.kid)
                return .deviceUnknown(failure.errorCode)
            }
            if !reused { try? folder.removeKey(clientInstanceKey.kid) }
            throw error
        }
        let record: EnrollmentRecord
        do {
            record = try Self.record(
                enrollment, org: target.org, orgId: target.orgId, clientID: target.clientID, signals: target.signals,
                pushToken: pushToken ?? "", proofOfPossession: proofOfPossession, userVerification: userVerificationKey, now: context.now())
        } catch {
            discardNewKeys()
            throw error
        }
        var saved = current
        saved.deviceId = enrollment.device.id
        saved.clientInstanceId = enrollment.device.clientInstanceId
        try folder.save(saved)
        try folder.save(record)
        if let totpSecretFile { keepTOTPSeed(enrollment.methods?.totp?.sharedSecret, in: totpSecretFile, context) }
        context.message(
            "enrolled \(target.signals.displayName) as a push authenticator of \(enrollment.user.username ?? record.userId) (enrollment \(record.enrollmentId))"
        )
        return .enrolled(EnrollmentOutput(record))
    }

    static let pinMissing = IdFlowError.invalidInput(
        "a user-verification key needs a PIN to seal it", hint: "pass --pin-stdin or --pin-file, or export IDFLOW_PIN")

    /// The stored identity and its client-instance key, or a new identity with a new key (saved, not yet
    /// known to the server).
    private func deviceIdentity(_ identity: DeviceIdentity?, folder: OrgDeviceFolder, org: URL, orgId: String, _ context: IdFlowContext)
        throws(IdFlowError) -> (DeviceIdentity, DeviceKey)
    {
        if let identity, identity.deviceId != nil {
            return (identity, try folder.silentKey(identity.clientInstanceKeyId, role: .clientInstance))
        }
        let key = DeviceKey.generate(.clientInstance)
        try folder.save(key, pin: nil, now: context.now())
        let fresh = DeviceIdentity(
            orgUrl: org.absoluteString, orgId: orgId, installationId: identity?.installationId ?? UUID().uuidString.uppercased(),
            clientInstanceKeyId: key.kid)
        return (fresh, key)
    }

    /// The body of §2b. A device already known to the org is named by id and client instance id and proves
    /// it holds the client-instance key with an attestation JWT, instead of sending the key again.
    private func enrollmentBody(
        configuration: AppAuthenticatorConfiguration, identity: DeviceIdentity, clientInstanceKey: DeviceKey, reused: Bool,
        proofOfPossession: DeviceKey, userVerification: DeviceKey?, signals: DeviceSignals, org: URL, _ context: IdFlowContext
    ) throws(IdFlowError) -> JSONValue {
        var device: [String: JSONValue] = [
            "displayName": .string(signals.displayName), "platform": .string(signals.platform), "osVersion": .string(signals.osVersion),
            "secureHardwarePresent": false, "clientInstanceBundleId": "idflow", "clientInstanceVersion": .string(IdFlowVersion.string),
            "clientInstanceDeviceSdkVersion": .string("idflow \(IdFlowVersion.string)"),
            "authenticatorAppKey": .string(identity.installationId),
        ]
        device["manufacturer"] = signals.manufacturer.map(JSONValue.string)
        device["model"] = signals.model.map(JSONValue.string)
        if reused, let deviceId = identity.deviceId, let clientInstanceId = identity.clientInstanceId {
            device["id"] = .string(deviceId)
            device["clientInstanceId"] = .string(clientInstanceId)
            var claims = DeviceJWT.timeClaims(now: context.now())
            claims["iss"] = .string(clientInstanceId)
            claims["aud"] = .string(org.absoluteString)
            claims["sub"] = .string(deviceId)
            device["deviceAttestation"] = [
                "clientInstanceKeyAttestation": .string(try DeviceJWT.sign(type: "", claims: .object(claims), key: clientInstanceKey))
            ]
        } else {
            device["clientInstanceKey"] = clientInstanceKey.publicJWK
        }
        var keys: [String: JSONValue] = ["proofOfPossession": proofOfPossession.publicJWK]
        keys["userVerification"] = userVerification?.publicJWK
        let push: JSONValue = [
            "pushToken": .string(pushToken ?? ""), "apsEnvironment": "production", "capabilities": ["transactionTypes": ["LOGIN"]],
            "keys": .object(keys),
        ]
        return ["authenticatorId": .string(configuration.authenticatorId), "device": .object(device), "methods": ["push": push]]
    }

    /// The enrollment stands whatever happens here: a seed that cannot be kept is said on stderr, not undone.
    private func keepTOTPSeed(_ seed: String?, in file: TOTPSeedFile, _ context: IdFlowContext) {
        guard let seed, let secret = TOTPSecret(base32: seed) else {
            context.notice("warning: the org sent no TOTP seed for this enrollment; \(file.url.path) was not written")
            return
        }
        do {
            try file.create(secret)
            context.message("kept the seed of Okta Verify's code in \(file.url.path) (0600)")
        } catch {
            context.notice("warning: the TOTP seed could not be kept: \(error.message)")
        }
    }

    /// What §2c says to keep; an answer without the push method or its pending link cannot be used later.
    static func record(
        _ enrollment: AppAuthenticatorEnrollment, org: URL, orgId: String, clientID: String, signals: DeviceSignals, pushToken: String,
        proofOfPossession: DeviceKey, userVerification: DeviceKey?, now: Date
    ) throws(IdFlowError) -> EnrollmentRecord {
        guard let push = enrollment.methods?.push else {
            throw .protocolViolation("the server replied with unexpected enrollment data: no methods.push")
        }
        guard let pending = push.links?.pending?.href else {
            throw .protocolViolation("the enrollment has no methods.push.links.pending link; challenges could not be fetched")
        }
        _ = try AuthenticatorOrg.link(pending, on: org, what: "pending-challenges link")
        _ = try OrgDeviceFolder.safeName(enrollment.id, what: "enrollment id")
        return EnrollmentRecord(
            enrollmentId: enrollment.id, authenticatorId: enrollment.authenticatorId, orgUrl: org.absoluteString, orgId: orgId,
            oauthClientId: clientID, userId: enrollment.user.id, username: enrollment.user.username, displayName: signals.displayName,
            deviceId: enrollment.device.id, clientInstanceId: enrollment.device.clientInstanceId, methodEnrollmentId: push.id,
            pendingUrl: pending, selfUrl: enrollment.links?.`self`?.href, pushToken: pushToken,
            proofOfPossessionKeyId: proofOfPossession.kid, userVerificationKeyId: userVerification?.kid, createdAt: now)
    }
}
