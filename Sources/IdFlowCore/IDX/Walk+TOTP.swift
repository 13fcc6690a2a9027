import Foundation
import IdFlowFoundation
import OneTimePasscode

/// Authenticator apps without a phone (`--totp-secret-file`): an enrollment that shows a seed keeps it in the
/// file and is confirmed with a computed code; a sign-in that asks for a TOTP code gets one computed from the
/// file, choosing the authenticator app where the person would have to choose. Answers given with `--answer`
/// always come first (one scoped to the app; an unscoped `credentials.passcode` is the password's, never the app's
/// code); what idflow filled in itself is dropped again once the document it was for is answered (`Walk.step`).
extension IDX.Walk {
    /// The i18n keys of a refused TOTP code (idx.md §12.6): the step's code was used already, or the clocks
    /// disagree by a step. One more try, with the next step's code, may pass.
    static let refusedCodeKeys: Set<String> = [
        "authfactor.challenge.soft_token.used_passcode", "authfactor.challenge.soft_token.invalid_passcode",
        "api.authn.error.PASSCODE_INVALID",
    ]

    /// Fills what an authenticator app answers in `document`, or shows a person what to scan.
    mutating func answerAuthenticatorApp(_ document: IDX.Document) async throws(IdFlowError) {
        guard let seedFile = login.totpSecretFile else {
            showEnrollmentSecret(document)
            return
        }
        var kept = try? seedFile.read()
        if let enrollment = enrollmentSecret(document) {
            guard let secret = TOTPSecret(base32: enrollment.secret) else {
                throw .protocolViolation("the Identity Engine sent a TOTP seed that is not Base32")
            }
            if kept != secret {
                try seedFile.create(secret)
                kept = secret
                context.message("totp: kept the seed of \(enrollment.name) in \(seedFile.url.path) (0600)")
            }
        }
        chooseAuthenticatorApp(document, seedFileExists: FileManager.default.fileExists(atPath: seedFile.url.path))
        for form in document.remediations where form.method.uppercased() == "POST" && form.refresh == nil {
            guard let path = codeField(of: form, in: document) else { continue }
            // Read again only when the first read failed, so its reason (missing, too open) is the error.
            let secret: TOTPSecret
            if let kept { secret = kept } else { secret = try seedFile.read() }
            let totp = TOTP(secret: secret)
            let code = try await TOTPStepLedger(stateDirectory: context.configuration.stateDirectory).spendCode(totp, context: context)
            fill(path, with: code, for: document.authenticator(of: form))
            context.message("totp: answering \(form.name) with the code of \(seedFile.url.lastPathComponent)")
            break
        }
    }

    /// Whether the server refused the code idflow computed for `form` in a way the next step's code may pass:
    /// the step is marked spent and one more try is allowed per sign-in.
    mutating func retriesRefusedCode(_ next: IDX.Document, after form: IDX.Remediation, used: Set<String>) -> Bool {
        guard let seedFile = login.totpSecretFile, !automatic.isDisjoint(with: used), totpRetries > 0, next.offersAgain(form),
            let error = next.errors.first, let key = error.key, Self.refusedCodeKeys.contains(key),
            let secret = try? seedFile.read()
        else { return false }
        totpRetries -= 1
        try? TOTPStepLedger(stateDirectory: context.configuration.stateDirectory).markSpent(TOTP(secret: secret), at: context.now())
        context.message("totp: \(error.message); trying the next code")
        return true
    }

    /// An answer idflow gives itself, for a form about `authenticator`; one the script gave wins.
    mutating func fill(_ path: String, with value: String, for authenticator: IDX.FormAuthenticator? = nil) {
        guard answers.lookup(path, for: authenticator) == nil else { return }
        automatic.insert(answers.answer(path, with: value, for: authenticator))
    }

    /// The seed an enrollment shows (`contextualData.sharedSecret`, idx.md §12.2) while its form is offered.
    private func enrollmentSecret(_ document: IDX.Document) -> (secret: String, name: String)? {
        guard document.remediations.contains(where: { $0.name == "enroll-authenticator" }),
            let authenticator = document.resolve("$.currentAuthenticator"),
            let secret = authenticator["contextualData"]?["sharedSecret"]?.stringValue
        else { return nil }
        return (secret, authenticator["displayName"]?.stringValue ?? "the authenticator app")
    }

    /// Where the person would choose, the authenticator app is chosen: Google Authenticator, else Okta Verify's
    /// code (`methodType` totp); to enroll, only while the seed file does not exist yet.
    private mutating func chooseAuthenticatorApp(_ document: IDX.Document, seedFileExists: Bool) {
        guard answers["authenticator"] == nil else { return }
        for form in document.remediations {
            guard let field = form.fields.first(where: { $0.name == "authenticator" }) else { continue }
            switch form.name {
            case "select-authenticator-authenticate":
                let options = field.options ?? []
                if options.contains(where: { $0.matches("google_otp", in: document) }) {
                    fill("authenticator", with: "google_otp")
                } else if let verify = options.first(where: { $0.matches("okta_verify", in: document) }),
                    verify.offersMethod("totp")
                {
                    fill("authenticator", with: "okta_verify")
                    fill("authenticator.methodType", with: "totp")
                }
            case "select-authenticator-enroll" where !seedFileExists:
                if (field.options ?? []).contains(where: { $0.matches("google_otp", in: document) }) {
                    fill("authenticator", with: "google_otp")
                }
            case "authenticator-verification-data":
                let methods = (field.form ?? []).first { $0.name == "methodType" }?.options ?? []
                if methods.contains(where: { $0.value?.stringValue == "totp" }) { fill("authenticator.methodType", with: "totp") }
            default: continue
            }
            return
        }
    }

    /// The field of `form` a TOTP code goes in, when no answer fills it: Okta Verify's `credentials.totp`, or the
    /// passcode of Google Authenticator and of an enrollment that showed a seed.
    private func codeField(of form: IDX.Remediation, in document: IDX.Document) -> String? {
        let missing = form.fill(answers, in: document).missing.map(\.name)
        if let totp = missing.first(where: { $0 == "credentials.totp" }) { return totp }
        let related = form.relatesTo.compactMap(document.resolve)
        let isApp =
            related.contains { $0["key"]?.stringValue == "google_otp" }
            || (form.name == "enroll-authenticator" && related.contains { $0["contextualData"]?["sharedSecret"] != nil })
        return isApp ? missing.first { $0 == "credentials.passcode" } : nil
    }

    /// At a terminal, an enrollment's QR code drawn for a phone to scan, with the key to type when scanning fails;
    /// in a script, nothing (the pending form says what to add).
    private mutating func showEnrollmentSecret(_ document: IDX.Document) {
        guard atTerminal, let authenticator = document.resolve("$.currentAuthenticator"),
            let data = authenticator["contextualData"], data["qrcode"] != nil || data["sharedSecret"] != nil
        else { return }
        let id = authenticator["id"]?.stringValue ?? ""
        guard !shownEnrollments.contains(id) else { return }
        shownEnrollments.insert(id)
        let name = authenticator["displayName"]?.stringValue ?? "the authenticator app"
        if let href = data["qrcode"]?["href"]?.stringValue {
            switch EnrollmentQRCode.lines(dataURL: href) {
            case .success(let lines):
                context.notice("Scan this QR code with \(name):")
                for line in lines { context.console.line(line) }
            case .failure(let reason):
                context.notice("idx: the QR code of \(name) cannot be drawn here (\(reason))")
            }
        }
        if let secret = data["sharedSecret"]?.stringValue {
            context.notice("Can't scan it? Enter this key in \(name): \(secret)")
        }
    }
}

extension IDX.Option {
    /// Whether this choice (an authenticator) can be used with `method`, fixed or among its `methodType` options.
    func offersMethod(_ method: String) -> Bool {
        guard let field = form?.first(where: { $0.name == "methodType" }) else { return false }
        return field.value?.stringValue == method || (field.options ?? []).contains { $0.value?.stringValue == method }
    }
}
