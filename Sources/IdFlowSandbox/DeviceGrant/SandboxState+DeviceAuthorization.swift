import Foundation

/// The device authorization grant (RFC 8628) as Okta serves it: `/v1/device/authorize` hands out a device code
/// and an `XXXX-XXXX` user code, the user answers at `{org}/activate` (or a test at `POST /sandbox/device`),
/// and the token endpoint answers the device's polls until the tokens are issued, once.
extension SandboxState {
    /// Okta's codes live 10 minutes.
    static let deviceCodeLifetime: TimeInterval = 600
    /// An expired code is remembered this much longer, so a late poll still reads `expired_token` rather than
    /// the `invalid_grant` of a code never issued.
    static let deviceCodeRetention: TimeInterval = 3600
    /// Consonants only, as RFC 8628 §6.1 suggests: no vowels to spell words, no 0/O or 1/I to mix up.
    static let userCodeAlphabet = Array("BCDFGHJKLMNPQRSTVWXZ")
    /// Network jitter allowed when judging whether a poll came before its interval was up.
    static let pollingTolerance: TimeInterval = 0.2

    static let invalidDeviceCode = OAuthErrorResponse(.badRequest, "invalid_grant", "The device code is invalid or has expired.")

    /// Issues a device code and a user code for `client` at `server`.
    func startDeviceAuthorization(client: OAuthClient, server: HostedAuthorizationServer, scopes: [String]) -> DeviceAuthorizationRecord {
        noteRecordActivity()
        var userCode: String
        repeat {
            let letters = RandomToken.string(count: 8, alphabet: Self.userCodeAlphabet)
            userCode = "\(letters.prefix(4))-\(letters.suffix(4))"
        } while deviceGrant.deviceCodesByUserCode[userCode] != nil
        let record = DeviceAuthorizationRecord(
            deviceCode: RandomToken.string(count: 43, alphabet: RandomToken.urlSafeAlphabet), userCode: userCode, server: server,
            clientId: client.id, scopes: scopes, expiresAt: clock.now + Self.deviceCodeLifetime,
            interval: TimeInterval(configuration.deviceIntervalSeconds))
        deviceGrant.authorizations[record.deviceCode] = record
        deviceGrant.deviceCodesByUserCode[userCode] = record.deviceCode
        return record
    }

    /// A user code as stored (`BCDF-GHJK`) from what a person typed: any case, with or without the dash or
    /// spaces (RFC 8628 §6.1); nil when it cannot be one.
    static func normalizedUserCode(_ typed: String) -> String? {
        let letters = typed.uppercased().filter { !$0.isWhitespace && $0 != "-" }
        guard letters.count == 8, letters.allSatisfy(userCodeAlphabet.contains) else { return nil }
        return "\(letters.prefix(4))-\(letters.suffix(4))"
    }

    /// The code a user code names, if it still waits for an answer (known, not expired, not yet answered).
    func pendingDeviceAuthorization(userCode: String) -> DeviceAuthorizationRecord? {
        guard let normalized = Self.normalizedUserCode(userCode), let deviceCode = deviceGrant.deviceCodesByUserCode[normalized],
            let record = deviceGrant.authorizations[deviceCode], record.expiresAt > clock.now, record.decision == .pending
        else { return nil }
        return record
    }

    /// The `/activate` sign-in form: good credentials record the user's answer; bad ones leave the code waiting.
    func completeDeviceSignIn(userCode: String, username: String, password: String, verdict: DeviceVerdict) -> DeviceSignInResult {
        guard let record = pendingDeviceAuthorization(userCode: userCode) else { return .unknownCode }
        guard let user = verifiedUser(username: username, password: password) else { return .rejected }
        let now = clock.now
        if verdict == .approve { directory.users[user.id]!.lastLogin = now }
        return .decided(decide(record.deviceCode, userId: user.id, verdict: verdict))
    }

    /// `POST /sandbox/device`: answers a user code for the user with `login` (or id), without a password.
    func decideDeviceAuthorization(userCode: String, login: String, verdict: DeviceVerdict) throws -> (
        DeviceAuthorizationRecord, UserRecord
    ) {
        guard let normalized = Self.normalizedUserCode(userCode), let deviceCode = deviceGrant.deviceCodesByUserCode[normalized],
            let record = deviceGrant.authorizations[deviceCode], record.expiresAt > clock.now
        else { throw OktaErrorResponse.notFound(userCode, type: "DeviceAuthorization") }
        guard record.decision == .pending else {
            throw OktaErrorResponse.validation(
                "userCode", causes: ["userCode: this code was already \(record.decision.status.lowercased())"])
        }
        guard let user = findUser(login: login) ?? directory.users[login] else { throw OktaErrorResponse.notFound(login, type: "User") }
        guard user.status == .active else { throw OktaErrorResponse.operationNotAllowedForStatus }
        _ = decide(deviceCode, userId: user.id, verdict: verdict)
        return (deviceGrant.authorizations[deviceCode]!, user)
    }

    private func decide(_ deviceCode: String, userId: String, verdict: DeviceVerdict) -> DeviceDecision {
        let decision: DeviceDecision =
            verdict == .approve ? .approved(userId: userId, authTime: clock.now) : .denied(userId: userId)
        deviceGrant.authorizations[deviceCode]?.decision = decision
        return decision
    }

    /// `grant_type=urn:ietf:params:oauth:grant-type:device_code`, in RFC 8628 §3.5's order: an unknown or spent
    /// code is `invalid_grant`, an expired one `expired_token`; a poll sooner than the interval is `slow_down`
    /// (and the interval grows by 5 s); then `authorization_pending`, `access_denied`, or the tokens, once.
    func pollDeviceCode(_ deviceCode: String, client: OAuthClient, server: HostedAuthorizationServer) throws -> UnsignedTokens {
        noteRecordActivity()
        guard var record = deviceGrant.authorizations[deviceCode], record.clientId == client.id, record.server == server,
            !record.redeemed
        else { throw Self.invalidDeviceCode }
        let now = clock.now
        guard record.expiresAt > now else {
            throw OAuthErrorResponse(.badRequest, "expired_token", "The device code has expired.")
        }
        defer { deviceGrant.authorizations[deviceCode] = record }
        let previous = record.lastPolledAt
        record.lastPolledAt = now
        if let previous, now.timeIntervalSince(previous) + Self.pollingTolerance < record.interval {
            record.interval += 5
            throw OAuthErrorResponse(
                .badRequest, "slow_down", "The client is polling too frequently. Wait \(Int(record.interval)) seconds between polls.")
        }
        switch record.decision {
        case .pending:
            throw OAuthErrorResponse(.badRequest, "authorization_pending", "The device authorization is pending. Please try again later.")
        case .denied:
            throw OAuthErrorResponse(.badRequest, "access_denied", "The end-user denied the authorization request.")
        case .approved(let userId, let authTime):
            guard directory.users[userId]?.status == .active else { throw Self.invalidDeviceCode }
            record.redeemed = true
            let family = TokenFamily(
                id: RandomToken.string(count: 20), server: server, clientId: client.id, userId: userId, scopes: record.scopes,
                authTime: authTime)
            oauth.tokenFamilies[family.id] = family
            return makeGrant(family: family, scopes: record.scopes, nonce: nil)
        }
    }
}
