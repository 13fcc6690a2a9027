import Foundation
import IdFlowTestSupport
import Testing

@testable import IdFlowSandbox

/// Every passkey recording in Tests/Fixtures/okta-webauthn is parsed and set beside the sandbox's document of the same
/// kind: the same remediation names, the same credential field names, the same members of `currentAuthenticator`,
/// `webauthnAutofillUIChallenge` and the passkey entries of `authenticators` and `authenticatorEnrollments`.
///
/// The recordings come from three Okta SDKs and several widget versions, which differ among themselves; the members
/// only some of them carry are listed in `optionalMembers`, each with the reason, and are neither required nor refused.
struct IDXWebAuthnContractTests {
    /// Which of the sandbox's documents a recording is compared with.
    enum Kind: Sendable {
        /// `identify` with the usernameless sign-in.
        case identify
        /// `select-authenticator-enroll` offering passkeys.
        case selectEnroll
        /// The passkey's `enroll-authenticator` (or a fragment of its `currentAuthenticator`).
        case enroll
        /// `select-authenticator-enroll` and `skip` after a passkey was enrolled, which is listed.
        case enrolled
        /// A passkey offered by `select-authenticator-authenticate`.
        case select
        /// The passkey's `challenge-authenticator` (or a fragment of its `currentAuthenticator`).
        case challenge
        /// The challenge again after a refused assertion, with the message.
        case failure
        /// The success document after a passkey.
        case success
        /// Passkey promotion.
        case promotion
        /// Documents of flows the sandbox does not serve (said why); parsed only.
        case notServed(String)
    }

    static let recordings: [(String, Kind)] = [
        ("kotlin-idx-webauthnautofill.json", .identify),
        ("swift-idx-webauthn-autofillui-authentication-challenge-response.json", .identify),
        ("widget-identify-with-webauthn-autofill.json", .identify),
        // Also carries `launch-passkeys-authenticator` (the widget's passkey button), which the sandbox does not offer.
        ("widget-identify-with-passkeys-launch-authenticator.json", .identify),
        ("widget-identify-with-webauthn-residentkey.json", .notServed("launch-webauthn-authenticator, a widget-only button")),
        ("widget-identify-with-webauthn-launch-authenticator.json", .challenge),
        ("widget-v3-identify_webauthn-enroll-mfa.json", .selectEnroll),
        ("swift-idx-webauthn-enrolment-challenge-response.json", .enroll),
        ("widget-authenticator-enroll-webauthn.json", .enroll),
        ("widget-authenticator-enroll-webauthn-custom.json", .enroll),
        ("widget-authenticator-enroll-webauthn-passkeys.json", .enroll),
        ("widget-v3-authenticator-enroll-webauthn-custom.json", .enroll),
        ("widget-v3-authenticator-enroll-webauthn-passkeys.json", .enroll),
        ("widget-v3-authenticator-enroll-webauthn-userverification-required.json", .enroll),
        ("widget-v3-credential_enroll_webauthn-enroll-mfa.json", .enroll),
        ("widget-v3-challenge_answer_webauthn-enroll-mfa.json", .enrolled),
        ("widget-v3-challenge_answer_unlock-account-email-verify-webauthn.json", .select),
        ("widget-v3-challenge_answer_unlock-account-sms-verify-webauthn.json", .select),
        ("widget-authenticator-verification-select-authenticator.json", .select),
        ("swift-idx-webauthn-authentication-challenge-response.json", .challenge),
        ("widget-authenticator-verification-webauthn.json", .challenge),
        ("widget-authenticator-verification-webauthn-custom.json", .challenge),
        ("widget-authenticator-verification-webauthn-passkeys.json", .challenge),
        ("widget-v3-authenticator-verification-webauthn-custom.json", .challenge),
        ("widget-v3-authenticator-verification-webauthn-passkeys.json", .challenge),
        ("widget-v3-identify_webauthn-verify-mfa.json", .challenge),
        ("widget-v3-challenge_unlock-account-email-verify-webauthn.json", .challenge),
        ("widget-v3-challenge_unlock-account-sms-verify-webauthn.json", .challenge),
        ("widget-error-authenticator-webauthn-failure.json", .failure),
        ("widget-v3-challenge_answer_webauthn-verify-mfa.json", .success),
        (
            "widget-v3-challenge_answer_unlock-account-email-verify-webauthn-success.json",
            .notServed("an unlock finished with a passkey; passkeys are not a recovery authenticator in the sandbox")
        ),
        (
            "widget-v3-challenge_answer_unlock-account-sms-verify-webauthn-success.json",
            .notServed("an unlock finished with a passkey; passkeys are not a recovery authenticator in the sandbox")
        ),
        ("widget-authenticator-enroll-passkey-promotion.json", .promotion),
        ("widget-authenticator-enroll-passkey-promotion-security-key.json", .promotion),
    ]

    /// Members some recordings have and others lack, so neither side is held to them:
    /// - `catalogKey`, `settings`, `description`: the widget's newer authenticator objects (`description` only with a
    ///   custom display name); the sandbox sends the first two at promotion, as recorded there.
    /// - `methods`: missing from the widget's passkey mocks of enrollment and promotion.
    /// - `hints`, `extensions.credProps`, `requireResidentKey`, `excludeCredentials`: in some SDKs' or versions'
    ///   creation and request options and not others.
    /// - `allowedFor`, `authenticatorid`, `authenticatorId`, `transports`, `profile`: members of `authenticators` and
    ///   `authenticatorEnrollments` only some recordings have (the widget mocks' own ids and transports; the Swift SDK's
    ///   `profile.aaguid`).
    static let optionalMembers: Set<String> = [
        "catalogKey", "settings", "description", "methods", "methods[].type", "contextualData.activationData.hints",
        "contextualData.challengeData.hints", "contextualData.activationData.extensions",
        "contextualData.activationData.extensions.credProps", "contextualData.activationData.authenticatorSelection.requireResidentKey",
        "contextualData.activationData.excludeCredentials", "allowedFor", "authenticatorid", "authenticatorId", "transports", "profile",
        "profile.aaguid",
    ]

    /// What one recording alone has or lacks: the widget's select mock lists passkey enrollments without their
    /// `credentialId` and marks a field of its passkey option `visible`.
    static let fileTolerance: [String: Set<String>] = [
        "widget-authenticator-verification-select-authenticator.json": ["credentialId", "value.form.value[].visible"]
    ]

    /// Credential fields newer widget recordings add (`transports`, `clientExtensions`, which the sandbox does not
    /// need and ignores when posted) or the resident-key flow's `userHandle` on `challenge-authenticator`.
    static let optionalFields: Set<String> = ["transports", "clientExtensions", "userHandle"]

    /// The forms the passkey steps write, compared field by field.
    static let passkeyForms: Set<String> = [
        "identify", "enroll-authenticator", "challenge-authenticator", "enroll-authenticator-promotion",
        "challenge-webauthn-autofillui-authenticator", "skip",
    ]

    // MARK: The sandbox's documents

    /// Walks the sandbox through every passkey step once and keeps each document.
    static func sandboxDocuments() async throws -> [String: IDXDocument] {
        let box = DocumentBox()
        try await withSandbox(configure: PasskeyFlow.configure(optional: [.phone], factors: 2)) { api in
            let authenticator = TestAuthenticator.es256()
            let pkce = PKCEPair()
            let (stateHandle, select) = try await IDXSignUpPolicyTests.profileAccepted(api, email: "shape@example.com", pkce: pkce)
            _ = select
            box.set(
                "selectEnroll", try await IDXSignUpPolicyTests.enrollPassword(api, stateHandle: stateHandle, password: "Sunny-Meadow-42"))
            let enroll = try await api.idx(
                "credential/enroll", ["authenticator": ["id": PasskeyFlow.authenticatorID], "stateHandle": stateHandle])
            box.set("enroll", enroll)
            let ceremony = try await PasskeyFlow.ceremony(api, challenge: try PasskeyFlow.contextual(enroll, "activationData")["challenge"])
            let enrolled = try await api.idx(
                "challenge/answer", PasskeyFlow.registrationBody(authenticator.registration(ceremony), stateHandle: stateHandle))
            box.set("enrolled", enrolled)
            _ = try await api.idx("skip", ["stateHandle": stateHandle])

            let (identifyHandle, identify) = try await IDXWebAuthnAutofillTests.identifyDocument(api, pkce: PKCEPair())
            _ = identifyHandle
            box.set("identify", identify)

            let (signIn, selectFactor) = try await api.passwordAccepted(
                login: "shape@example.com", password: "Sunny-Meadow-42", pkce: PKCEPair())
            box.set("select", selectFactor)
            let challenge = try await api.idx("challenge", ["authenticator": ["id": PasskeyFlow.authenticatorID], "stateHandle": signIn])
            box.set("challenge", challenge)
            let issued = try PasskeyFlow.contextual(challenge, "challengeData")["challenge"]
            var wrong = try await PasskeyFlow.ceremony(api, challenge: issued)
            wrong.origin = "https://evil.example"
            box.set(
                "failure",
                try await api.idx("challenge/answer", PasskeyFlow.assertionBody(authenticator.assertion(wrong), stateHandle: signIn)))
            let right = try await PasskeyFlow.ceremony(api, challenge: issued)
            box.set(
                "success",
                try await api.idx("challenge/answer", PasskeyFlow.assertionBody(authenticator.assertion(right), stateHandle: signIn)))
        }
        try await withSandbox(configure: IDXWebAuthnAutofillTests.promotion) { api in
            try await api.registerActiveUser(email: "nudge@example.com")
            box.set("promotion", try await api.passwordAccepted(login: "nudge@example.com", pkce: PKCEPair()).document)
        }
        return box.documents
    }

    final class DocumentBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String: IDXDocument] = [:]
        func set(_ key: String, _ document: IDXDocument) { lock.withLock { stored[key] = document } }
        var documents: [String: IDXDocument] { lock.withLock { stored } }
    }

    // MARK: Comparisons

    static func forms(_ document: [String: Any]) -> [[String: Any]] {
        (document["remediation"] as? [String: Any])?["value"] as? [[String: Any]] ?? []
    }

    static func form(_ document: [String: Any], _ name: String) -> [String: Any]? {
        forms(document).first { $0["name"] as? String == name }
    }

    /// The fields inside a form's `credentials` (or its top-level fields, `stateHandle` aside, when it has none).
    static func fields(_ form: [String: Any]) -> [[String: Any]] {
        let top = form["value"] as? [[String: Any]] ?? []
        if let credentials = top.first(where: { $0["name"] as? String == "credentials" }) {
            return (credentials["form"] as? [String: Any])?["value"] as? [[String: Any]] ?? []
        }
        return top.filter { $0["name"] as? String != "stateHandle" }
    }

    static func names(_ fields: [[String: Any]]) -> Set<String> { Set(fields.compactMap { $0["name"] as? String }) }

    /// The passkey entry of a list (`authenticators`, `authenticatorEnrollments`).
    static func passkeyEntry(_ document: [String: Any], _ list: String) -> [String: Any]? {
        ((document[list] as? [String: Any])?["value"] as? [[String: Any]])?.first { $0["key"] as? String == "webauthn" }
    }

    /// The option of a select form that names passkeys (by the `methodType` value `webauthn`).
    static func passkeyOption(_ document: [String: Any], _ formName: String) -> [String: Any]? {
        let fields = form(document, formName)?["value"] as? [[String: Any]] ?? []
        let options = fields.first { $0["name"] as? String == "authenticator" }?["options"] as? [[String: Any]] ?? []
        return options.first { option in
            let inner = ((option["value"] as? [String: Any])?["form"] as? [String: Any])?["value"] as? [[String: Any]] ?? []
            return inner.contains { $0["name"] as? String == "methodType" && $0["value"] as? String == "webauthn" }
        }
    }

    static func expectSame(
        _ got: Set<String>, _ recorded: Set<String>, _ what: String, ignoring: Set<String> = optionalMembers,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let (got, recorded) = (got.subtracting(ignoring), recorded.subtracting(ignoring))
        #expect(
            got == recorded, "\(what): missing \(recorded.subtracting(got).sorted()), extra \(got.subtracting(recorded).sorted())",
            sourceLocation: sourceLocation)
    }

    /// `fallback`: where the passkey entries of `authenticatorEnrollments` are taken from when `ours` lists none (a
    /// recording of a user enrolling a further passkey, which the sandbox's policy never asks for).
    static func compare(_ file: String, _ recorded: [String: Any], _ ours: [String: Any], fallback: [String: Any]) {
        let tolerated = optionalMembers.union(fileTolerance[file] ?? [])
        // Remediation: every passkey form recorded is one the sandbox writes, with the same fields.
        for recordedForm in forms(recorded) {
            guard let name = recordedForm["name"] as? String, passkeyForms.contains(name) else { continue }
            guard let ourForm = form(ours, name) else {
                Issue.record("\(file): the sandbox's document has no \(name) form")
                continue
            }
            expectSame(names(fields(ourForm)), names(fields(recordedForm)), "\(file) \(name) fields", ignoring: optionalFields)
            for field in fields(recordedForm) {
                guard let fieldName = field["name"] as? String,
                    let ourField = fields(ourForm).first(where: { $0["name"] as? String == fieldName })
                else { continue }
                // `hint` is on the widget's newer fields; one widget mock spells `required` as `requred`.
                expectSame(
                    Set(ourField.keys), Set(field.keys), "\(file) \(name).\(fieldName) members",
                    ignoring: ["hint", "requred", "required", "value", "type", "options"])
            }
            // The widget's playground mocks leave out `produces`, which the SDKs' recordings have.
            expectSame(
                Set(ourForm.keys), Set(recordedForm.keys), "\(file) \(name) form members", ignoring: ["relatesTo", "refresh", "produces"])
        }
        for key in ["currentAuthenticator", "webauthnAutofillUIChallenge", "enrollmentAuthenticator"] {
            guard let value = (recorded[key] as? [String: Any])?["value"] else { continue }
            guard let ourValue = (ours[key] as? [String: Any])?["value"] else {
                Issue.record("\(file): the sandbox's document has no \(key)")
                continue
            }
            expectSame(keyPaths(ourValue), keyPaths(value), "\(file) \(key)", ignoring: tolerated)
        }
        for list in ["authenticators", "authenticatorEnrollments"] {
            guard let entry = passkeyEntry(recorded, list) else { continue }
            guard let ourEntry = passkeyEntry(ours, list) ?? passkeyEntry(fallback, list) else {
                Issue.record("\(file): the sandbox lists no passkey in \(list)")
                continue
            }
            expectSame(Set(ourEntry.keys), Set(entry.keys), "\(file) \(list) passkey entry", ignoring: tolerated)
        }
    }

    @Test func everyRecordingIsListedOnce() throws {
        let onDisk = try Fixtures.files(in: "okta-webauthn")
        let listed = Self.recordings.map(\.0)
        #expect(Set(listed).count == listed.count)
        #expect(Set(onDisk) == Set(listed), "unlisted: \(Set(onDisk).subtracting(listed).sorted())")
    }

    @Test func theSandboxsPasskeyDocumentsHaveTheRecordedShapes() async throws {
        let documents = try await Self.sandboxDocuments()
        for (file, kind) in Self.recordings {
            let recorded = try Fixtures.object("okta-webauthn/\(file)")
            #expect(recorded["version"] as? String == "1.0.0" || recorded["remediation"] == nil, "\(file) is an IDX document")
            let key: String
            switch kind {
            case .identify: key = "identify"
            case .selectEnroll: key = "selectEnroll"
            case .enroll: key = "enroll"
            case .enrolled: key = "enrolled"
            case .select: key = "select"
            case .challenge: key = "challenge"
            case .failure: key = "failure"
            case .success: key = "success"
            case .promotion: key = "promotion"
            case .notServed(let reason):
                #expect(!reason.isEmpty)
                continue
            }
            let ours = try #require(documents[key]?.body, "no \(key) document")
            Self.compare(file, recorded, ours, fallback: try #require(documents["enrolled"]?.body))
            switch kind {
            case .selectEnroll:
                let recordedOption = try #require(Self.passkeyOption(recorded, "select-authenticator-enroll"), "\(file)")
                let ourOption = try #require(Self.passkeyOption(ours, "select-authenticator-enroll"), "\(file): passkeys not offered")
                Self.expectSame(
                    keyPaths(ourOption), keyPaths(recordedOption), "\(file) passkey option",
                    ignoring: Self.optionalMembers.union(Self.fileTolerance[file] ?? []))
            case .select:
                let recordedOption = try #require(Self.passkeyOption(recorded, "select-authenticator-authenticate"), "\(file)")
                let ourOption = try #require(Self.passkeyOption(ours, "select-authenticator-authenticate"), "\(file): passkeys not offered")
                Self.expectSame(
                    keyPaths(ourOption), keyPaths(recordedOption), "\(file) passkey option",
                    ignoring: Self.optionalMembers.union(Self.fileTolerance[file] ?? []))
            case .enrolled:
                #expect(Self.forms(ours).compactMap { $0["name"] as? String } == ["select-authenticator-enroll", "skip"], "\(file)")
            case .failure:
                let messages = { (document: [String: Any]) in
                    (document["messages"] as? [String: Any])?["value"] as? [[String: Any]] ?? []
                }
                let recordedMessage = try #require(messages(recorded).first)
                let ourMessage = try #require(messages(ours).first, "\(file): no message")
                #expect(ourMessage["message"] as? String == recordedMessage["message"] as? String)
                #expect(
                    (ourMessage["i18n"] as? [String: Any])?["key"] as? String == (recordedMessage["i18n"] as? [String: Any])?["key"]
                        as? String)
                #expect(Set(ourMessage.keys) == Set(recordedMessage.keys))
            case .success:
                Self.expectSame(
                    keyPaths(ours["successWithInteractionCode"] ?? [:]), keyPaths(recorded["successWithInteractionCode"] ?? [:]),
                    "\(file) successWithInteractionCode")
            default:
                break
            }
        }
    }
}
