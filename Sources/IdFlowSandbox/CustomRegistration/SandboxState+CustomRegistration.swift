import Foundation

/// An open custom registration: created by a two-step init (or a one-step complete that did not succeed at
/// once), bound to its client and identity provider, expiring on the sandbox clock.
struct CustomRegistrationRecord: Sendable {
    let id: String
    let clientId: String
    let identityProvider: String
    let expiresAt: Date
    /// Complete calls answered with a retry status so far.
    var attempts = 0
    /// `smsOTP`: the code texted at init, the phone and the e-mail given there.
    var code: String?
    var phone: String?
    var email: String?
}

/// What a script answered: the status, the raw data, and for a successful complete the user to create.
struct ScriptAnswer: Sendable {
    let status: Int
    let data: String?
    var email: String?
}

/// The answer to a complete call: the script's, the transaction a retry continues, the tokens of a success.
struct CompleteOutcome: Sendable {
    let status: Int
    let data: String?
    let transactionID: String?
    let grant: UnsignedTokens?
}

/// The Token Server's custom registration (custom-registration.md §3, §4, §6): identity providers, the
/// transaction rules, the scripted behaviour of the built-in providers, and the tokens a success issues
/// (real tokens of the default authorization server, for the registering client).
extension SandboxState {
    static let customRegistrationServer = HostedAuthorizationServer.custom("default")

    /// The identity provider `id`, if it may serve `step`: 404 unknown, 403 disabled, 400 init on a one-step one.
    func customIdentityProvider(_ id: String, initStep: Bool) throws -> CustomIdentityProvider {
        guard let idp = configuration.customRegistration.identityProviders.first(where: { $0.id == id }) else {
            throw OAuthErrorResponse(.notFound, "invalid_idp_identifier", "The identity provider does not exist.")
        }
        guard idp.enabled else {
            throw OAuthErrorResponse(.forbidden, "idp_disabled", "The identity provider is disabled for this application.")
        }
        if initStep, idp.type == .oneStep {
            throw OAuthErrorResponse(.badRequest, "invalid_request", "The identity provider is ONE_STEP: it has no init step.")
        }
        return idp
    }

    /// `init`: runs the init script; a success opens a transaction, anything else opens none.
    func initCustomRegistration(_ idp: CustomIdentityProvider, clientId: String, data: String?) -> (ScriptAnswer, String?) {
        noteRecordActivity()
        var record = CustomRegistrationRecord(
            id: RandomToken.string(count: 24), clientId: clientId, identityProvider: idp.id,
            expiresAt: clock.now + TimeInterval(configuration.customRegistration.transactionLifetimeSeconds))
        let answer: ScriptAnswer
        switch idp.script {
        case .smsOTP:
            let fields = Self.jsonObject(data)
            guard let phone = fields?["phone"]?.stringValue, phone.count >= 4 else {
                return (ScriptAnswer(status: 4003, data: "a phone number is needed, as {\"phone\": \"+31600000000\"}"), nil)
            }
            record.code = sendCode(to: phone, subject: "Your \(idp.id) registration code")
            record.phone = phone
            record.email = fields?["email"]?.stringValue
            answer = ScriptAnswer(status: 2000, data: #"{"hint":"code sent to …\#(phone.suffix(2))"}"#)
        case .rules:
            answer = Self.firstRule(idp.initRules, matching: data) ?? ScriptAnswer(status: 2000, data: nil)
        case .inviteCode:
            answer = ScriptAnswer(status: 5000, data: "this identity provider has no init script")
        }
        guard (2000...2999).contains(answer.status) else { return (answer, nil) }
        customRegistration.registrations[record.id] = record
        return (answer, record.id)
    }

    /// `complete`: checks the transaction, runs the complete script, and on success creates the user and
    /// issues the tokens; a retry keeps the transaction (counting the attempt), a failure deletes it.
    func completeCustomRegistration(
        _ idp: CustomIdentityProvider, clientId: String, transactionID: String?, data: String?, scopes: [String]
    ) throws -> CompleteOutcome {
        noteRecordActivity()
        var record: CustomRegistrationRecord
        if let transactionID {
            guard let open = customRegistration.registrations[transactionID], open.expiresAt > clock.now, open.clientId == clientId,
                open.identityProvider == idp.id
            else {
                if let open = customRegistration.registrations[transactionID], open.expiresAt <= clock.now {
                    customRegistration.registrations[transactionID] = nil
                }
                throw OAuthErrorResponse(.badRequest, "invalid_transaction", "The transaction is unknown, expired, or not this one's.")
            }
            record = open
        } else {
            guard idp.type == .oneStep else {
                throw OAuthErrorResponse(
                    .badRequest, "invalid_request", "The 'transaction_id' parameter is required for a TWO_STEP identity provider.")
            }
            record = CustomRegistrationRecord(
                id: RandomToken.string(count: 24), clientId: clientId, identityProvider: idp.id,
                expiresAt: clock.now + TimeInterval(configuration.customRegistration.transactionLifetimeSeconds))
        }
        var answer = Self.completeScript(idp, record: record, data: data)
        if (2000...2999).contains(answer.status) {
            customRegistration.registrations[record.id] = nil
            let email =
                answer.email
                ?? "registered.\(RandomToken.string(count: 10, alphabet: Array("abcdefghijklmnopqrstuvwxyz0123456789")))@example.com"
            guard let user = try? registerActiveUser(email: email, phone: record.phone) else {
                answer = ScriptAnswer(status: 4009, data: "a user with this login exists already")
                return retry(answer, record: &record, maxAttempts: idp.maxAttempts)
            }
            let grant = issueRegistrationGrant(userId: user.id, clientId: clientId, scopes: scopes)
            return CompleteOutcome(status: answer.status, data: answer.data, transactionID: nil, grant: grant)
        }
        if (4000...4999).contains(answer.status) {
            return retry(answer, record: &record, maxAttempts: idp.maxAttempts)
        }
        customRegistration.registrations[record.id] = nil
        return CompleteOutcome(status: answer.status, data: answer.data, transactionID: nil, grant: nil)
    }

    /// A retry status: the attempt counts; the `maxAttempts`-th turns into the matching 5xxx and ends it.
    private func retry(_ answer: ScriptAnswer, record: inout CustomRegistrationRecord, maxAttempts: Int?) -> CompleteOutcome {
        record.attempts += 1
        if let maxAttempts, record.attempts >= maxAttempts {
            customRegistration.registrations[record.id] = nil
            return CompleteOutcome(status: 5000 + answer.status % 1000, data: "too many attempts", transactionID: nil, grant: nil)
        }
        customRegistration.registrations[record.id] = record
        return CompleteOutcome(status: answer.status, data: answer.data, transactionID: record.id, grant: nil)
    }

    private static func completeScript(_ idp: CustomIdentityProvider, record: CustomRegistrationRecord, data: String?) -> ScriptAnswer {
        let text = data?.trimmingCharacters(in: .whitespacesAndNewlines)
        switch idp.script {
        case .inviteCode:
            let fields = jsonObject(data)
            let code = fields?["code"]?.stringValue ?? text
            if code == idp.inviteCode { return ScriptAnswer(status: 2000, data: nil, email: fields?["email"]?.stringValue) }
            if code == idp.revokedCode { return ScriptAnswer(status: 5001, data: "invite code revoked") }
            return ScriptAnswer(status: 4001, data: "invalid code")
        case .smsOTP:
            guard let code = record.code, let text, ConstantTime.equals(text, code) else {
                return ScriptAnswer(status: 4002, data: "wrong code")
            }
            return ScriptAnswer(status: 2000, data: nil, email: record.email)
        case .rules:
            return firstRule(idp.completeRules, matching: data) ?? ScriptAnswer(status: 5000, data: "no rule matched")
        }
    }

    private static func firstRule(_ rules: [ScriptRule], matching data: String?) -> ScriptAnswer? {
        rules.first { $0.whenData == nil || $0.whenData == data }.map { ScriptAnswer(status: $0.status, data: $0.data, email: $0.email) }
    }

    /// The data as a JSON object, when it is one.
    private static func jsonObject(_ data: String?) -> JSONObject? {
        guard let data, let value = try? JSONDecoder().decode(OrderedJSON.self, from: Data(data.utf8)) else { return nil }
        return value.objectValue
    }

    /// The user a successful registration creates: ACTIVE at once, with no password (it signs in with tokens).
    private func registerActiveUser(email: String, phone: String?) throws -> UserRecord {
        var profile: [String: OrderedJSON] = ["email": .string(email), "login": .string(email)]
        if let phone { profile["mobilePhone"] = .string(phone) }
        let created = try createUser(profile: profile, password: nil, activate: false)
        directory.users[created.id]!.transition(to: .active, at: clock.now)
        return directory.users[created.id]!
    }

    /// Tokens of the default authorization server for `clientId`, a new family as after a login.
    private func issueRegistrationGrant(userId: String, clientId: String, scopes: [String]) -> UnsignedTokens {
        let family = TokenFamily(
            id: RandomToken.string(count: 20), server: Self.customRegistrationServer, clientId: clientId, userId: userId, scopes: scopes,
            authTime: clock.now)
        oauth.tokenFamilies[family.id] = family
        return makeGrant(family: family, scopes: scopes, nonce: nil)
    }

    /// Whether a transaction is still open (tests, and the end-to-end check that a failure dropped it).
    public func hasCustomRegistration(_ transactionID: String) -> Bool {
        customRegistration.registrations[transactionID].map { $0.expiresAt > clock.now } ?? false
    }
}
