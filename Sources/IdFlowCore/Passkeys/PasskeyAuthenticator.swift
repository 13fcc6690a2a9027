import Crypto
import Foundation
import IdFlowFoundation

/// idflow as a software FIDO2 authenticator for one relying party: it answers creation options with a new passkey
/// and request options with an assertion from a kept one. Everything here is bytes; the Identity Engine posts them
/// in standard padded base64 and Direct Authentication in its own encoding, so each protocol encodes for itself and
/// neither can change what the other signs.
public struct PasskeyAuthenticator: Sendable {
    /// How a passkey is made and opened, from the command line.
    public struct Settings: Sendable, Equatable {
        /// Where the PIN comes from. Without one, a terminal prompts only when the server requires user verification
        /// (or the passkey is sealed); a script is told how to give one.
        public var pin: SecretSource?
        /// `none` (what platform passkeys answer) or a `packed` self attestation.
        public var attestation: AttestationObject.Format
        /// The AAGUID a new passkey reports: all zeros unless an org allows only listed ones.
        public var aaguid: UUID
        /// scrypt's rounds for a PIN-sealed key (tests choose fewer).
        public var sealingRounds: Int

        public init(
            pin: SecretSource? = nil, attestation: AttestationObject.Format = .none,
            aaguid: UUID = PasskeyAuthenticator.zeroAAGUID, sealingRounds: Int = PasskeyStore.sealingRounds
        ) {
            self.pin = pin
            self.attestation = attestation
            self.aaguid = aaguid
            self.sealingRounds = sealingRounds
        }
    }

    /// `authenticatorSelection.userVerification` / `userVerification` (W3C §5.8.6); an unknown value counts as
    /// `preferred`, as a browser treats it.
    public enum UserVerification: String, Sendable, Equatable {
        case required
        case preferred
        case discouraged

        public init(_ text: String?) {
            self = text.flatMap(Self.init(rawValue:)) ?? .preferred
        }
    }

    /// What of `PublicKeyCredentialCreationOptions` (W3C §5.4) a passkey is made from, decoded from the protocol.
    public struct CreationOptions: Sendable, Equatable {
        public var challenge: [UInt8]
        /// `user.id` as bytes: the user handle every assertion returns.
        public var userHandle: [UInt8]
        /// `pubKeyCredParams[].alg`; empty means ES256 and RS256 (W3C §5.4).
        public var algorithms: [Int]
        public var userVerification: UserVerification
        /// `excludeCredentials[].id`: a passkey kept here with one of these ids is already enrolled.
        public var excludedCredentialIds: [[UInt8]]

        public init(
            challenge: [UInt8], userHandle: [UInt8], algorithms: [Int] = [], userVerification: UserVerification = .preferred,
            excludedCredentialIds: [[UInt8]] = []
        ) {
            self.challenge = challenge
            self.userHandle = userHandle
            self.algorithms = algorithms
            self.userVerification = userVerification
            self.excludedCredentialIds = excludedCredentialIds
        }
    }

    /// A new passkey, already kept, and the two values the server verifies.
    public struct Creation: Sendable, Equatable {
        public var passkey: StoredPasskey
        public var credentialId: [UInt8]
        public var clientDataJSON: [UInt8]
        public var attestationObject: [UInt8]
        /// Whether a PIN sealed it, and so the UV flag was set.
        public var userVerified: Bool
    }

    /// What of `PublicKeyCredentialRequestOptions` (W3C §5.5) an assertion answers.
    public struct RequestOptions: Sendable, Equatable {
        public var challenge: [UInt8]
        public var userVerification: UserVerification
        /// The credential ids the server accepts (`allowCredentials`, or the user's enrolments); nil: any kept for
        /// this RP ID (a usernameless sign-in).
        public var allowedCredentialIds: [[UInt8]]?
        /// The user, when known: only that user's passkeys answer.
        public var userHandle: [UInt8]?

        public init(
            challenge: [UInt8], userVerification: UserVerification = .preferred, allowedCredentialIds: [[UInt8]]? = nil,
            userHandle: [UInt8]? = nil
        ) {
            self.challenge = challenge
            self.userVerification = userVerification
            self.allowedCredentialIds = allowedCredentialIds
            self.userHandle = userHandle
        }
    }

    /// An assertion by a kept passkey, with the id the server knows it by.
    public struct Signed: Sendable, Equatable {
        public var passkeyId: String
        public var credentialId: [UInt8]
        public var clientDataJSON: [UInt8]
        public var authenticatorData: [UInt8]
        /// DER ECDSA.
        public var signature: [UInt8]
        public var userHandle: [UInt8]
        public var userVerified: Bool
    }

    /// The AAGUID of an authenticator that says nothing about itself.
    public static let zeroAAGUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// How to make a passkey, for the error that finds none.
    public static let enrollHint =
        "enroll one with `idflow login-pkce --embedded --passkey` (or `idflow register --embedded --passkey`); "
        + "`idflow passkey list` shows the passkeys kept here"

    public let relyingParty: RelyingParty
    public let settings: Settings
    public let store: PasskeyStore

    public init(relyingParty: RelyingParty, settings: Settings, stateDirectory: URL) {
        self.relyingParty = relyingParty
        self.settings = settings
        self.store = PasskeyStore(stateDirectory: stateDirectory)
    }

    /// Answers `navigator.credentials.create`: makes and keeps a passkey for `options.userHandle`, sealed when a
    /// PIN is given (or typed because the server requires user verification), and returns the client data and
    /// attestation object to post.
    public func create(_ options: CreationOptions, context: IdFlowContext) throws(IdFlowError) -> Creation {
        guard options.algorithms.isEmpty || options.algorithms.contains(COSEKey.es256) else {
            throw .rejected(
                "the server accepts no passkey key type idflow makes (it asks for algorithms \(options.algorithms), idflow makes ES256, -7)"
            )
        }
        let excluded = Set(options.excludedCredentialIds.map { Base64URL.encode($0) })
        if let kept = try store.all().first(where: { $0.rpId == relyingParty.id && excluded.contains($0.id) }) {
            throw .rejected(
                "passkey \(kept.id), kept here, is already enrolled for this user at \(relyingParty.id)",
                hint: "sign in with it, or forget it with `idflow passkey delete \(kept.id)` and remove it at the org")
        }
        let pin = try pinForCreation(options.userVerification, context: context)
        let (passkey, key) = try store.create(
            relyingParty: relyingParty, userHandle: options.userHandle, aaguid: settings.aaguid, pin: pin,
            rounds: settings.sealingRounds, now: context.now())
        guard let credentialId = Base64URL.decode(passkey.id).map(Array.init) else {
            throw .internalFailure("the new passkey's id \(passkey.id) is not base64url")
        }
        let clientData = ClientData(ceremony: .create, challenge: options.challenge, origin: relyingParty.origin)
        let verified = pin != nil
        let authenticatorData = AuthenticatorData(
            relyingParty: relyingParty, flags: verified ? [.userPresent, .userVerified] : [.userPresent], signCount: 0,
            attestedCredential: .init(
                aaguid: Self.bytes(settings.aaguid), credentialId: credentialId, publicKey: key.publicKey))
        let attestation = try AttestationObject.encoded(
            format: settings.attestation, authenticatorData: authenticatorData, clientDataHash: clientData.hash,
            credentialKey: key)
        sayUserPresentOnly(passkey.id, verified: verified, asked: options.userVerification, context: context)
        return Creation(
            passkey: passkey, credentialId: credentialId, clientDataJSON: clientData.json, attestationObject: attestation,
            userVerified: verified)
    }

    /// Answers `navigator.credentials.get`: the newest passkey kept for this RP ID that the server allows (and of
    /// `options.userHandle`, when known) signs the challenge; none is an error that says how to enroll one.
    public func get(_ options: RequestOptions, context: IdFlowContext) async throws(IdFlowError) -> Signed {
        let passkey = try choose(options)
        let pin = try pinForAssertion(passkey, context: context)
        let clientData = ClientData(ceremony: .get, challenge: options.challenge, origin: relyingParty.origin)
        let assertion = try await store.assert(passkey.id, relyingParty: relyingParty, clientData: clientData, pin: pin)
        let verified = assertion.authenticatorData[32] & AuthenticatorData.Flags.userVerified.rawValue != 0
        sayUserPresentOnly(passkey.id, verified: verified, asked: options.userVerification, context: context)
        return Signed(
            passkeyId: passkey.id, credentialId: Array(Base64URL.decode(passkey.id) ?? Data()),
            clientDataJSON: assertion.clientDataJSON, authenticatorData: assertion.authenticatorData,
            signature: assertion.signature, userHandle: assertion.userHandle, userVerified: verified)
    }

    /// Whether a passkey is kept for this RP ID (of `userHandle`, when given): what makes a sign-in choose one.
    public func hasPasskey(userHandle: [UInt8]? = nil) throws(IdFlowError) -> Bool {
        (try? choose(RequestOptions(challenge: [], userHandle: userHandle))) != nil
    }

    /// The newest passkey that may answer `options`.
    func choose(_ options: RequestOptions) throws(IdFlowError) -> StoredPasskey {
        let allowed = options.allowedCredentialIds.map { Set($0.map { Base64URL.encode($0) }) }
        let handle = options.userHandle.map { Base64URL.encode($0) }
        let candidates = try store.all().filter { passkey in
            passkey.rpId == relyingParty.id && passkey.origin == relyingParty.originText
                && allowed.map { $0.contains(passkey.id) } != false && handle.map { $0 == passkey.userHandle } != false
        }
        guard let newest = candidates.last else {
            let whose = options.allowedCredentialIds == nil ? "" : " enrolled for this user"
            throw .notFound("no passkey\(whose) for \(relyingParty.originText) is kept on this machine", hint: Self.enrollHint)
        }
        return newest
    }

    /// The PIN a new passkey is sealed with: the one given; or, when the server requires user verification, one
    /// typed at a terminal (twice); a script without one exits 3 naming how to give it.
    func pinForCreation(_ verification: UserVerification, context: IdFlowContext) throws(IdFlowError) -> Secret? {
        if let source = settings.pin {
            return try SealedKey.acceptable(context.secrets.read("passkey PIN", from: source))
        }
        guard verification == .required else { return nil }
        guard context.console.isInteractive else {
            throw .rejected(
                "the org requires user verification, so the new passkey must be sealed under a PIN", hint: Self.pinHint)
        }
        let typed = try PromptInterruption.run { context.console.promptSecret("New passkey PIN: ") } ?? ""
        let again = try PromptInterruption.run { context.console.promptSecret("New passkey PIN again: ") } ?? ""
        guard !typed.isEmpty else { throw .rejected("no passkey PIN was typed", hint: Self.pinHint) }
        guard again == typed else { throw .invalidInput("the two PINs typed differ", hint: "run the command again") }
        return try SealedKey.acceptable(Secret(typed))
    }

    /// The PIN that opens a sealed passkey: the one given, or typed at a terminal; an unsealed one needs none.
    func pinForAssertion(_ passkey: StoredPasskey, context: IdFlowContext) throws(IdFlowError) -> Secret? {
        guard passkey.sealed else { return nil }
        if let source = settings.pin { return try context.secrets.read("passkey PIN", from: source) }
        guard context.console.isInteractive else {
            throw .rejected("passkey \(passkey.id) is sealed under a PIN", hint: Self.pinHint)
        }
        let typed = try PromptInterruption.run { context.console.promptSecret("Passkey PIN: ") } ?? ""
        guard !typed.isEmpty else { throw .rejected("no passkey PIN was typed", hint: Self.pinHint) }
        return Secret(typed)
    }

    static let pinHint = "give the PIN with --passkey-pin-file PATH, or run at a terminal to type it"

    /// An unsealed passkey where the server asked for user verification: a warning when it requires it (the
    /// server may refuse), progress when it only prefers it.
    func sayUserPresentOnly(_ id: String, verified: Bool, asked: UserVerification, context: IdFlowContext) {
        guard !verified, asked != .discouraged else { return }
        let text = "passkey \(id) is not sealed under a PIN, so it tells the server the user was present, not verified"
        if asked == .required { context.notice("warning: " + text) } else { context.message(text) }
    }

    static func bytes(_ uuid: UUID) -> [UInt8] {
        withUnsafeBytes(of: uuid.uuid) { Array($0) }
    }
}
