import Foundation
import IdFlowFoundation

/// Passkeys in the Identity Engine (webauthn.md §1, §2, §9): idflow is the authenticator. An enrollment
/// (`enroll-authenticator` with `activationData`, or the promotion after a sign-in) is answered with a new passkey,
/// a challenge (`challengeData`) with a kept one the user has enrolled, and, with `--passkey` and no identifier,
/// the autofill remediation with any kept for this site. Each is posted in standard padded base64, as the widget
/// does. The relying party is derived from the issuer idflow talks to (`RelyingParty`), so a document can never
/// make a passkey sign for another site.
extension IDX.Walk {
    /// The key of the WebAuthn ("passkeys") authenticator in every document.
    static let passkeyKey = "webauthn"
    static let promotionRemediation = "enroll-authenticator-promotion"
    /// The usernameless sign-in: the autofill remediation, and the passkey button's, which posts the same.
    static let usernamelessRemediations = ["challenge-webauthn-autofillui-authenticator", "launch-passkeys-authenticator"]

    /// One passkey answer to post: the form, its body, and the passkey made for it (forgotten again when the
    /// server refuses the enrollment).
    struct PasskeyAnswer {
        var form: IDX.Remediation
        var body: [String: JSONValue]
        var created: String?
        var ceremony: String
    }

    /// Where a person would choose an authenticator, the passkey is chosen: to enroll with `--passkey`; to sign in
    /// with `--passkey`, or when a passkey the user enrolled is kept here for this site.
    mutating func choosePasskey(_ document: IDX.Document) {
        guard answers.lookup("authenticator") == nil, wanted == nil else { return }
        for form in document.remediations {
            guard let options = form.fields.first(where: { $0.name == "authenticator" })?.options, options.count > 1,
                options.contains(where: { $0.matches(Self.passkeyKey, in: document) })
            else { continue }
            switch form.name {
            case "select-authenticator-enroll" where login.passkey:
                fill("authenticator", with: Self.passkeyKey)
            case "select-authenticator-authenticate" where login.passkey || keepsEnrolledPasskey(document):
                fill("authenticator", with: Self.passkeyKey)
                context.message("idx: verifying with the passkey kept for this site")
            default: continue
            }
            return
        }
    }

    /// The passkey answer `document` asks for, if any: the promotion (enrolled with `--passkey`, else skipped), an
    /// enrollment or challenge of the WebAuthn authenticator, or the usernameless sign-in with `--passkey` and no
    /// identifier. A form asked for by name (`--remediation`) comes first.
    func passkeyAnswer(_ document: IDX.Document) async throws(IdFlowError) -> PasskeyAnswer? {
        let passkeyForms = ["enroll-authenticator", "challenge-authenticator", Self.promotionRemediation] + Self.usernamelessRemediations
        if let wanted, !passkeyForms.contains(wanted) { return nil }
        let current = document.currentAuthenticator
        let isPasskey = current?["key"]?.stringValue == Self.passkeyKey
        if let promotion = document.remediations.first(where: { $0.name == Self.promotionRemediation }) {
            if login.passkey {
                return try enroll(promotion, activation: current?["contextualData"]?["activationData"], document)
            }
            guard let skip = document.remediations.first(where: { $0.name == "skip" }) else { return nil }
            context.message("idx: the org offers to enroll a passkey; skipped (--passkey enrolls one)")
            return PasskeyAnswer(form: skip, body: skip.fill(IDX.AnswerSet(), in: document).body, created: nil, ceremony: "skip")
        }
        if isPasskey, let form = document.remediations.first(where: { $0.name == "enroll-authenticator" }),
            let activation = current?["contextualData"]?["activationData"]
        {
            return try enroll(form, activation: activation, document)
        }
        if isPasskey, let form = document.remediations.first(where: { $0.name == "challenge-authenticator" }),
            let challenge = current?["contextualData"]?["challengeData"]
        {
            return try await assert(form, challengeData: challenge, allowed: enrolledCredentialIds(document), document)
        }
        if login.passkey, answers.lookup("identifier") == nil,
            let form = Self.usernamelessRemediations.lazy.compactMap({ name in
                document.remediations.first { $0.name == name }
            }).first,
            let challenge = form.relatesTo.lazy.compactMap(document.resolve).first?["challengeData"]
                ?? document.resolve("$.webauthnAutofillUIChallenge")?["challengeData"]
        {
            context.message("idx: signing in with a passkey alone (no username)")
            return try await assert(form, challengeData: challenge, allowed: nil, document, withUserHandle: true)
        }
        return nil
    }

    /// Posts a passkey answer; a refusal ends the run with the server's message (a refused enrollment forgets the
    /// passkey just made, so the next try starts clean).
    mutating func sendPasskeyAnswer(_ answer: PasskeyAnswer) async throws(IdFlowError) -> IDX.Document {
        formsSent += 1
        guard formsSent <= EmbeddedLogin.maximumSteps else {
            throw .protocolViolation("the Identity Engine did not finish the sign-in within \(EmbeddedLogin.maximumSteps) steps")
        }
        if answer.form.name == wanted { wanted = nil }
        context.message("idx: \(answer.form.name)")
        let next = try await proceed(answer.form, body: answer.body)
        guard let error = next.errors.first else {
            if let id = answer.created {
                context.message("passkey: enrolled \(id), kept in \(context.configuration.stateDirectory.path)/passkeys")
            }
            return next
        }
        if let id = answer.created { try? PasskeyStore(stateDirectory: context.configuration.stateDirectory).delete(id) }
        throw Self.passkeyRefusal(error, ceremony: answer.ceremony, ended: next.remediations.isEmpty)
    }

    /// The server's refusal of a passkey answer, with its own words: an AAGUID off the org's allow list is exit 3
    /// naming `--aaguid`; a refused enrollment exit 3; a refused assertion exit 4.
    static func passkeyRefusal(_ error: IDX.Message, ceremony: String, ended: Bool) -> IdFlowError {
        let text = error.message + " " + (error.key ?? "")
        if text.localizedCaseInsensitiveContains("aaguid") {
            return .rejected(
                error.message,
                hint: "the org allows listed authenticators only: give an allowed one with --aaguid UUID "
                    + "(with --attestation packed if the org wants a statement)")
        }
        if ceremony == "enroll" {
            return .rejected(error.message, hint: "the org refused the new passkey; it was not kept")
        }
        return .authentication(
            error.message,
            hint: ended
                ? "start the sign-in again"
                : "the org refused the passkey's answer; `idflow passkey list` shows the passkeys kept here")
    }

    /// A new passkey for `activation` (`PublicKeyCredentialCreationOptions` as Okta sends it), posted to `form`.
    func enroll(_ form: IDX.Remediation, activation: JSONValue?, _ document: IDX.Document) throws(IdFlowError) -> PasskeyAnswer {
        guard let activation, let challengeText = activation["challenge"]?.stringValue,
            let userId = activation["user"]?["id"]?.stringValue
        else {
            throw .protocolViolation("the Identity Engine's \(form.name) carries no WebAuthn activation data")
        }
        let party = try RelyingParty(
            origin: server.issuer, requestedId: activation["rp"]?["id"]?.stringValue,
            appId: activation["u2fParams"]?["appid"]?.stringValue)
        let options = PasskeyAuthenticator.CreationOptions(
            challenge: try Self.challengeBytes(challengeText),
            // The widget's user handle: the base64url decoding of the user id (webauthn.md §2).
            userHandle: Base64URL.decode(userId).map(Array.init) ?? Array(userId.utf8),
            algorithms: (activation["pubKeyCredParams"]?.arrayValue ?? []).compactMap { $0["alg"]?.intValue },
            userVerification: .init(activation["authenticatorSelection"]?["userVerification"]?.stringValue),
            excludedCredentialIds: (activation["excludeCredentials"]?.arrayValue ?? []).compactMap {
                $0["id"]?.stringValue.flatMap(Base64URL.decode).map(Array.init)
            } + (enrolledCredentialIds(document) ?? []))
        let creation = try authenticator(party).create(options, context: context)
        var body = form.fill(IDX.AnswerSet(), in: document).body
        body["credentials"] = .object([
            "clientData": .string(Self.base64(creation.clientDataJSON)),
            "attestation": .string(Self.base64(creation.attestationObject)),
        ])
        context.message("passkey: made \(creation.passkey.id) for \(party.id)\(creation.userVerified ? " (PIN-sealed)" : "")")
        return PasskeyAnswer(form: form, body: body, created: creation.passkey.id, ceremony: "enroll")
    }

    /// An assertion for `challengeData` by a kept passkey among `allowed` (any for this site when nil), posted to
    /// `form`; `userHandle` too where the form has it or the user is not known yet.
    func assert(
        _ form: IDX.Remediation, challengeData: JSONValue, allowed: [[UInt8]]?, _ document: IDX.Document,
        withUserHandle: Bool = false
    ) async throws(IdFlowError) -> PasskeyAnswer {
        guard let challengeText = challengeData["challenge"]?.stringValue else {
            throw .protocolViolation("the Identity Engine's \(form.name) carries no WebAuthn challenge")
        }
        let party = try RelyingParty(
            origin: server.issuer, requestedId: challengeData["rpId"]?.stringValue,
            appId: challengeData["extensions"]?["appid"]?.stringValue)
        let options = PasskeyAuthenticator.RequestOptions(
            challenge: try Self.challengeBytes(challengeText),
            userVerification: .init(challengeData["userVerification"]?.stringValue), allowedCredentialIds: allowed)
        let signed = try await authenticator(party).get(options, context: context)
        var credentials: [String: JSONValue] = [
            "clientData": .string(Self.base64(signed.clientDataJSON)),
            "authenticatorData": .string(Self.base64(signed.authenticatorData)),
            "signatureData": .string(Self.base64(signed.signature)),
        ]
        let credentialFields = form.fields.first { $0.name == "credentials" }?.form ?? []
        if withUserHandle || credentialFields.contains(where: { $0.name == "userHandle" }) {
            credentials["userHandle"] = .string(Self.base64(signed.userHandle))
        }
        var body = form.fill(IDX.AnswerSet(), in: document).body
        body["credentials"] = .object(credentials)
        context.message("passkey: signing with \(signed.passkeyId)\(signed.userVerified ? " (user verified with its PIN)" : "")")
        return PasskeyAnswer(form: form, body: body, created: nil, ceremony: "assert")
    }

    func authenticator(_ party: RelyingParty) -> PasskeyAuthenticator {
        PasskeyAuthenticator(
            relyingParty: party, settings: login.passkeySettings, stateDirectory: context.configuration.stateDirectory)
    }

    /// The credential ids of the user's WebAuthn enrollments (`authenticatorEnrollments`, webauthn.md §1): the
    /// passkeys that may answer; nil when the document lists none.
    func enrolledCredentialIds(_ document: IDX.Document) -> [[UInt8]]? {
        let ids = (document.resolve("$.authenticatorEnrollments.value")?.arrayValue ?? []).filter {
            $0["key"]?.stringValue == Self.passkeyKey
        }.compactMap {
            $0["credentialId"]?.stringValue.flatMap(Base64URL.decode).map(Array.init)
        }
        return ids.isEmpty ? nil : ids
    }

    /// Whether a passkey the user enrolled (any for this site, when the document lists no credential ids) is kept
    /// here: then a sign-in verifies with it without being asked.
    func keepsEnrolledPasskey(_ document: IDX.Document) -> Bool {
        guard let party = try? RelyingParty(origin: server.issuer) else { return false }
        let allowed = enrolledCredentialIds(document)
        let options = PasskeyAuthenticator.RequestOptions(challenge: [], allowedCredentialIds: allowed)
        return (try? authenticator(party).choose(options)) != nil
    }

    /// The server's challenge (base64url, unpadded) as bytes.
    static func challengeBytes(_ text: String) throws(IdFlowError) -> [UInt8] {
        guard let bytes = Base64URL.decode(text), !bytes.isEmpty else {
            throw .protocolViolation("the WebAuthn challenge \(text) is not base64url")
        }
        return Array(bytes)
    }

    /// Standard base64 with padding, as the widget posts every WebAuthn value (webauthn.md §2).
    static func base64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }
}
