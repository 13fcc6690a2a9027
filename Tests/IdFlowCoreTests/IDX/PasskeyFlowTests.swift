import CBOR
import Crypto
import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `EmbeddedLogin` answering the recorded WebAuthn documents (Tests/Fixtures/okta-webauthn) as idflow's own passkey
/// authenticator: which remediation it answers in each, and what the posted body carries (standard padded base64
/// of bytes a server can verify, for this org's RP ID and origin only).
@Suite struct PasskeyFlowTests {
    let flows = EmbeddedLoginFlowTests()
    static let org = RecordedIdentityEngine.org
    static let party = try! RelyingParty(origin: URL(string: org)!)

    /// A recorded WebAuthn document as the org at `org` would send it (the recordings come from several fake hosts),
    /// with `replacing` applied.
    static func reply(_ name: String, status: Int = 200, replacing: [String: String] = [:]) -> RoutedTransport.Reply {
        var text = String(decoding: (try? Fixtures.data("okta-webauthn/\(name)")) ?? Data(), as: UTF8.self)
        let hosts = ["https://auth.example.com", "http://localhost:3000", "https://localhost:3000", "https://oie-1635393.oktapreview.com"]
        for host in hosts { text = text.replacingOccurrences(of: host, with: org) }
        for (old, new) in replacing { text = text.replacingOccurrences(of: old, with: new) }
        return RoutedTransport.Reply(status: status, headers: ["Content-Type": IDX.ionJSON], body: Data(text.utf8))
    }

    /// The recorded Identity Engine whose introspect answers `introspect`, and whose other IDX routes answer as
    /// `routes` says (else the recorded success).
    func engine(introspect: RoutedTransport.Reply, routes: [String: RoutedTransport.Reply] = [:]) throws -> RoutedTransport {
        let success = RecordedIdentityEngine.reply("04-success-with-interaction-code.json")
        return try flows.identityEngine { request in
            if request.route == "POST /idp/idx/introspect" { return introspect }
            if let reply = routes[request.route] { return reply }
            return request.route.hasPrefix("POST /idp/idx/") ? success : nil
        }
    }

    func context(_ transport: RoutedTransport, messages: Locked<[String]> = Locked([])) -> IdFlowContext {
        TestContext.make(transport: transport, configuration: flows.context(transport).configuration, messages: messages)
    }

    func login(passkey: Bool = false, answers: [String: String] = [:]) -> EmbeddedLogin {
        var login = EmbeddedLogin(answers: IDX.AnswerSet(answers))
        login.passkey = passkey
        return login
    }

    /// A passkey kept in `context`'s state directory for the org, for `userId`'s handle as an enrollment makes it.
    func keep(_ context: IdFlowContext, userId: String = "00uflku0io38ODGrP0w6") throws -> StoredPasskey {
        try PasskeyStore(stateDirectory: context.configuration.stateDirectory).create(
            relyingParty: Self.party, userHandle: Array(Base64URL.decode(userId)!), aaguid: PasskeyAuthenticator.zeroAAGUID,
            pin: nil, rounds: 1 << 10, now: Date()
        ).passkey
    }

    static func standardBase64(_ value: JSONValue?) throws -> [UInt8] {
        let text = try #require(value?.stringValue)
        #expect(text.count % 4 == 0 && !text.contains("-") && !text.contains("_"), "standard padded base64: \(text)")
        return Array(try #require(Data(base64Encoded: text)))
    }

    static func clientData(_ value: JSONValue?) throws -> [String: String] {
        let bytes = try standardBase64(value)
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]).compactMapValues { $0 as? String }
    }

    @Test func aRequiredPasskeyIsChosenAndEnrolledWithAnAttestationForTheOrgsRPID() async throws {
        let transport = try engine(
            introspect: Self.reply("widget-v3-identify_webauthn-enroll-mfa.json"),
            routes: ["POST /idp/idx/credential/enroll": Self.reply("swift-idx-webauthn-enrolment-challenge-response.json")])
        let context = self.context(transport)

        _ = try await login().run(context)

        let select = try #require(transport.requests.first { $0.route == "POST /idp/idx/credential/enroll" })
        #expect(select.jsonBody?["authenticator"]?["id"]?.stringValue == "aut2gl19n8PCsDMHW1d7")
        let answer = try #require(transport.requests.first { $0.route == "POST /idp/idx/challenge/answer" })
        let credentials = answer.jsonBody?["credentials"]
        let client = try Self.clientData(credentials?["clientData"])
        #expect(client["type"] == "webauthn.create" && client["challenge"] == "YAS4Fj0L-HRueJP3Z0uRkSRIdikfmnno")
        #expect(client["origin"] == Self.org)
        let object = try CBOR.decode(try Self.standardBase64(credentials?["attestation"]))
        #expect(object["fmt"]?.textValue == "none")
        let authData = try #require(object["authData"]?.bytesValue)
        #expect(Array(authData[0..<32]) == Array(SHA256.hash(data: Data("example.com".utf8))))
        let kept = try PasskeyStore(stateDirectory: context.configuration.stateDirectory).all()
        #expect(kept.count == 1)
        // The user handle is the base64url decoding of activationData.user.id, as the widget registers it.
        #expect(kept.first?.userHandle == "00uflku0io38ODGrP0w6" && kept.first?.rpId == "example.com")
        #expect(answer.jsonBody?["stateHandle"]?.stringValue?.hasPrefix("02.id.") == true)
    }

    @Test func aChallengeIsAnsweredByTheKeptPasskeyTheUserEnrolled() async throws {
        let transport0 = RoutedTransport { _ in nil }
        let context0 = self.context(transport0)
        let enrolled = try keep(context0)
        _ = try keep(context0)  // newer, but not among the user's enrollments
        let recordedId = "hpxQXbu5R5Y2JMqpvtE9Oo9FdwO6z2kMR-ZQkAb6p6GSguXQ57oVXKvpVHT2fyCR_m2EL1vIgszxi00kyFIX6w"
        let transport = try engine(
            introspect: Self.reply("widget-authenticator-verification-webauthn.json", replacing: [recordedId: enrolled.id]))
        let messages = Locked<[String]>([])
        var context = self.context(transport, messages: messages)
        context.configuration.stateDirectory = context0.configuration.stateDirectory

        _ = try await login().run(context)

        let answer = try #require(transport.requests.first { $0.route == "POST /idp/idx/challenge/answer" })
        let credentials = try #require(answer.jsonBody?["credentials"])
        let client = try Self.clientData(credentials["clientData"])
        #expect(client["type"] == "webauthn.get" && client["challenge"] == "qjUCU0xoVe5QZ3-etDCD" && client["origin"] == Self.org)
        let authenticatorData = try Self.standardBase64(credentials["authenticatorData"])
        #expect(authenticatorData.count == 37 && Array(authenticatorData[33..<37]) == [0, 0, 0, 1])
        _ = try Self.standardBase64(credentials["signatureData"])
        #expect(credentials["userHandle"] == nil, "challenge-authenticator has no userHandle field")
        let store = PasskeyStore(stateDirectory: context.configuration.stateDirectory)
        #expect(try store.passkey(enrolled.id).signCount == 1)
        // The recording requires UV; an unsealed passkey says it only tells the user was present.
        #expect(messages.current.contains { $0.contains("present, not verified") })
    }

    @Test func whereAPersonWouldChooseAKeptPasskeyForTheSiteChoosesThePasskey() async throws {
        let recordedId = "hpxQXbu5R5Y2JMqpvtE9Oo9FdwO6z2kMR-ZQkAb6p6GSguXQ57oVXKvpVHT2fyCR_m2EL1vIgszxi00kyFIX6w"
        let choice = Self.reply("widget-authenticator-verification-select-authenticator.json")

        // Nothing kept and no --passkey: the script stops at the choice, as before.
        let unchosen = try engine(introspect: choice)
        let stopped = await failure { () throws(IdFlowError) in try await login().run(context(unchosen)) }
        #expect(stopped?.idxPending?.remediation == "select-authenticator-authenticate")

        let keeper = context(RoutedTransport { _ in nil })
        let stateDirectory = keeper.configuration.stateDirectory
        let kept = try keep(keeper)
        let transport = try engine(
            introspect: choice,
            routes: [
                "POST /idp/idx/challenge": Self.reply(
                    "widget-authenticator-verification-webauthn.json", replacing: [recordedId: kept.id])
            ])
        var signIn = context(transport)
        signIn.configuration.stateDirectory = stateDirectory
        _ = try await login().run(signIn)

        let select = try #require(transport.requests.first { $0.route == "POST /idp/idx/challenge" })
        #expect(select.jsonBody?["authenticator"]?["methodType"]?.stringValue == "webauthn")
        #expect(transport.requests.contains { $0.route == "POST /idp/idx/challenge/answer" })
        #expect(try PasskeyStore(stateDirectory: stateDirectory).passkey(kept.id).signCount == 1)
    }

    @Test func aChallengeWithNoKeptPasskeyForThisSiteSaysHowToEnrollOne() async throws {
        let transport = try engine(introspect: Self.reply("widget-authenticator-verification-webauthn.json"))
        let error = await failure { () throws(IdFlowError) in try await login().run(context(transport)) }
        #expect(error?.exitStatus == .notFound)
        #expect(error?.hint?.contains("--passkey") == true)
        #expect(!transport.requests.contains { $0.route == "POST /idp/idx/challenge/answer" })
    }

    @Test func withPasskeyAndNoUsernameTheAutofillRemediationIsAnsweredWithAUserHandle() async throws {
        let transport = try engine(introspect: Self.reply("swift-idx-webauthn-autofillui-authentication-challenge-response.json"))
        let context = self.context(transport)
        let kept = try keep(context)

        _ = try await login(passkey: true).run(context)

        #expect(!transport.requests.contains { $0.route == "POST /idp/idx/identify" })
        let answer = try #require(transport.requests.first { $0.route == "POST /idp/idx/challenge/answer/webauthn-autofillui" })
        let credentials = answer.jsonBody?["credentials"]
        let client = try Self.clientData(credentials?["clientData"])
        #expect(client["challenge"] == "-Lifxbd9JKL1qBS-2dXEiH2MCM5s4uGa" && client["type"] == "webauthn.get")
        // base64 of the handle's bytes: for an Okta user id, the id itself (webauthn.md §2).
        #expect(credentials?["userHandle"]?.stringValue == "00uflku0io38ODGrP0w6")
        #expect(try PasskeyStore(stateDirectory: context.configuration.stateDirectory).passkey(kept.id).signCount == 1)
    }

    @Test func withAUsernameTheAutofillRemediationIsLeftForIdentify() async throws {
        let transport = try engine(introspect: Self.reply("swift-idx-webauthn-autofillui-authentication-challenge-response.json"))
        let context = self.context(transport)
        _ = try keep(context)
        _ = try await login(passkey: true, answers: ["identifier": "jo@example.com"]).run(context)
        #expect(transport.requests.contains { $0.route == "POST /idp/idx/identify" })
        #expect(!transport.requests.contains { $0.route.hasSuffix("/webauthn-autofillui") })
    }

    @Test func aPromotionIsSkippedWithoutPasskeyAndEnrolledWithIt() async throws {
        let skipped = try engine(introspect: Self.reply("widget-authenticator-enroll-passkey-promotion.json"))
        let skippedContext = context(skipped)
        _ = try await login().run(skippedContext)
        #expect(skipped.requests.contains { $0.route == "POST /idp/idx/skip" })
        #expect(!skipped.requests.contains { $0.route == "POST /idp/idx/credential/enroll" })
        #expect(try PasskeyStore(stateDirectory: skippedContext.configuration.stateDirectory).all().isEmpty)

        let accepted = try engine(introspect: Self.reply("widget-authenticator-enroll-passkey-promotion.json"))
        let acceptedContext = context(accepted)
        _ = try await login(passkey: true).run(acceptedContext)
        #expect(!accepted.requests.contains { $0.route == "POST /idp/idx/skip" })
        let enroll = try #require(accepted.requests.first { $0.route == "POST /idp/idx/credential/enroll" })
        let client = try Self.clientData(enroll.jsonBody?["credentials"]?["clientData"])
        #expect(client["type"] == "webauthn.create" && client["challenge"] == "zrTo0mMXyCt90mweh2HL")
        _ = try Self.standardBase64(enroll.jsonBody?["credentials"]?["attestation"])
        #expect(try PasskeyStore(stateDirectory: acceptedContext.configuration.stateDirectory).all().count == 1)
    }

    @Test func anAAGUIDRefusalExits3NamingTheFlagAndForgetsThePasskey() async throws {
        let refusal = Self.reply(
            "widget-error-authenticator-webauthn-failure.json",
            replacing: [
                "None of the WebAuthn authenticators the user has enrolled for was able to validate the assertion":
                    "The authenticator's AAGUID 00000000-0000-0000-0000-000000000000 is not allowed by this org's policy.",
                "authfactor.webauthn.error.assertion_validation_failure": "passkey.aaguid.not_allowed",
            ])
        let transport = try engine(
            introspect: Self.reply("swift-idx-webauthn-enrolment-challenge-response.json"),
            routes: ["POST /idp/idx/challenge/answer": refusal])
        let context = self.context(transport)
        let error = await failure { () throws(IdFlowError) in try await login().run(context) }
        #expect(error?.exitStatus == .rejected)
        #expect(error?.message.contains("AAGUID") == true && error?.hint?.contains("--aaguid") == true)
        #expect(try PasskeyStore(stateDirectory: context.configuration.stateDirectory).all().isEmpty)
    }

    @Test func aDocumentNamingAnotherSiteIsRefusedWithExit13AndNothingIsPosted() async throws {
        let transport = try engine(
            introspect: Self.reply(
                "swift-idx-webauthn-enrolment-challenge-response.json",
                replacing: ["\"appid\": \"\(Self.org)\"": "\"appid\": \"https://login.example.net\""]))
        let context = self.context(transport)
        let error = await failure { () throws(IdFlowError) in try await login().run(context) }
        #expect(error?.exitStatus == .security)
        #expect(!transport.requests.contains { $0.route == "POST /idp/idx/challenge/answer" })
        #expect(try PasskeyStore(stateDirectory: context.configuration.stateDirectory).all().isEmpty)
    }
}
