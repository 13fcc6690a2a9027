import Foundation
import IdFlowFoundation

extension IDX {
    /// A step of the Identity Engine idflow does not take, named with the reason, so a policy no script can pass
    /// says which screen stopped it rather than failing somewhere after it: a remediation that needs Okta Verify's
    /// desktop app or the operating system's sign-in extension, an identity provider's page a script cannot open,
    /// a form of a kind idflow has not been taught. Exit 3 where the person can still finish (a browser), else the
    /// code the docs give for a step refused.
    public struct UnsupportedStep: FlowStop, Equatable {
        /// The remediation the walk stopped at.
        public var remediation: String
        /// Why idflow does not take it, in a few words (the table of screens shows them).
        public var reason: String
        /// Where a browser finishes the step (`redirect-idp`), when there is such a page.
        public var url: String?
        /// The document's own messages (`messages.value[]`), whatever their class.
        public var messages: [Message]
        public var nextStep: String?
        public var exitCode: IdFlowExitCode

        public init(
            remediation: String, reason: String, url: String? = nil, messages: [Message] = [], hint: String? = nil,
            exit: IdFlowExitCode = .rejected
        ) {
            self.remediation = remediation
            self.reason = reason
            self.url = url
            self.messages = messages
            self.nextStep = hint
            self.exitCode = exit
        }

        public var kind: String { url == nil ? "step_unsupported" : "browser_required" }
        public var exitStatus: IdFlowExitCode { exitCode }

        /// The step, why, what Okta said on the page (its INFO and WARNING words too), and the page to open.
        public var message: String {
            var text = "the sign-in stopped at \(remediation): \(reason)"
            let said = messages.map(\.message).filter { !$0.isEmpty }
            if !said.isEmpty { text += " (Okta says: \(said.joined(separator: " ")))" }
            if let url { text += "; open \(url)" }
            return text
        }

        public var hint: String? { nextStep }

        /// Nothing on stdout: exit 3 with a document there means a pending form with `fields` to a script (the
        /// contract), and this is none. Okta's messages go in the error line's `causes`, each with its class.
        public func describe(in details: inout ErrorReport.Details) {
            let causes = messages.filter { !$0.message.isEmpty }.map { "\($0.severity): \($0.message)" }
            if !causes.isEmpty { details.causes = causes }
        }
    }
}

extension IdFlowError {
    /// The step of an embedded sign-in idflow stopped at by name, when this error is one.
    public var idxUnsupportedStep: IDX.UnsupportedStep? { stop(as: IDX.UnsupportedStep.self) }
}

extension IDX.Walk {
    /// A remediation idflow never takes on its own: why, and what the person can do instead. Each needs something
    /// only Okta's own apps or a browser has (Okta Verify on this device answering a probe, the operating system's
    /// sign-in extension, a smart card, a page of another provider), or a decision a script should not make alone.
    struct NamedStop {
        var reason: String
        var hint: String
        var exit: IdFlowExitCode = .rejected
    }

    static let browserHint = "sign in with login-pkce --browser, where Okta Verify or the browser can answer it"

    static let namedStops: [String: NamedStop] = [
        "device-challenge-poll": NamedStop(
            reason: "Okta Verify on this device must answer Okta's probe (FastPass); idflow is not Okta Verify", hint: browserHint),
        "launch-authenticator": NamedStop(reason: "it opens Okta Verify on this device (FastPass)", hint: browserHint),
        "device-apple-sso-extension": NamedStop(
            reason: "the sign-in extension of Okta Verify on macOS or iOS answers it", hint: browserHint),
        "cancel-transaction": NamedStop(
            reason: "Okta offers only to cancel: Okta Verify or its sign-in extension on the device did not answer",
            hint: browserHint),
        "device-assurance-grace-period": NamedStop(
            reason: "the device falls short of the sign-in policy's device assurance, and a grace period lets it go on",
            hint: "fix the device as Okta says, or go on within the grace period with --remediation device-assurance-grace-period"),
        "launch-nfc-authenticator": NamedStop(reason: "an NFC authenticator held to a phone answers it", hint: browserHint),
        "redirect-idverify": NamedStop(
            reason: "an identity-verification provider checks the person in a browser",
            hint: "open the URL in a browser to finish there, or sign in with login-pkce --browser"),
        "piv-idp": NamedStop(
            reason: "a smart card (PIV) signs in, through the browser's client certificate",
            hint: "sign in with login-pkce --browser, with the smart card in its reader"),
        "success-redirect": NamedStop(
            reason: "Okta sends a browser on to the app instead of handing out an interaction code",
            hint: "open the URL in a browser, or sign in with login-pkce --browser"),
        "failure-redirect": NamedStop(
            reason: "the sign-in failed and Okta sends a browser to the app's error page", hint: "open the URL to read why",
            exit: .denied),
    ]

    /// Authenticators whose forms no answer fills: their own page (in a browser) answers them.
    static let browserAuthenticators: [String: String] = [
        "duo": "Duo's own prompt answers it, in a browser"
    ]

    /// The step `nextStep` chose, unless it is one idflow does not take (`namedStops`): then a stop naming it. A
    /// remediation asked for by name (`--remediation`) is taken all the same; at a terminal such forms are left out
    /// of the choice, and when nothing else is left the walk stops as a script's would.
    func stopsByName(_ step: IDX.NextStep, in document: IDX.Document) throws(IdFlowError) -> IDX.NextStep {
        func stop(_ form: IDX.Remediation) -> IdFlowError? {
            guard form.name != login.remediation else { return nil }
            if let named = Self.namedStops[form.name] { return .stopped(unsupported(form, named, in: document)) }
            if let authenticator = document.authenticator(of: form),
                let reason = Self.browserAuthenticators.first(where: { authenticator.isNamed($0.key) })?.value
            {
                return .stopped(unsupported(form, NamedStop(reason: reason, hint: Self.browserHint), in: document))
            }
            return nil
        }
        switch step {
        case .send(let form, _), .poll(let form):
            if let error = stop(form) { throw error }
        case .stop(let pending):
            if let form = document.form(named: pending.remediation), let error = stop(form) { throw error }
        case .ask(let forms):
            let left = forms.filter { stop($0) == nil }
            if left.isEmpty, let first = forms.first, let error = stop(first) { throw error }
            if left.count != forms.count { return .ask(left) }
        case .redirect:
            break
        }
        return step
    }

    /// The stop for a document whose every form is one idflow cannot take: the first by name, why, and its page
    /// when it has one.
    func onlyUnsupported(_ document: IDX.Document) -> IdFlowError {
        guard let form = document.remediations.first else { return endOfDocument(document) }
        let named =
            Self.namedStops[form.name]
            ?? NamedStop(
                reason: "idflow does not take this step (offered: \(document.remediations.map(\.name).joined(separator: ", ")))",
                hint: Self.browserHint)
        return .stopped(unsupported(form, named, in: document))
    }

    func unsupported(_ form: IDX.Remediation, _ named: NamedStop, in document: IDX.Document) -> IDX.UnsupportedStep {
        let url = form.method.uppercased() == "GET" ? form.href.absoluteString : nil
        if let url { context.notice("idx: \(form.name): open this URL in a browser to go on: \(url)") }
        return IDX.UnsupportedStep(
            remediation: form.name, reason: named.reason, url: url, messages: document.messages, hint: named.hint, exit: named.exit)
    }

    /// A document with nothing to do next: what ended the sign-in, in Okta's words (every message, by its i18n
    /// key when Okta sent no text), the OAuth error some answers carry instead, or what the org asks of the device.
    func endOfDocument(_ document: IDX.Document) -> IdFlowError {
        let raw = document.raw
        if let success = raw["success"], let href = success["href"]?.stringValue {
            // The document's `success` form (named `success-redirect` inside): the app is not signed in with a code.
            let form = "success"
            context.notice("idx: \(form): the sign-in goes on at \(href)")
            return .stopped(
                IDX.UnsupportedStep(
                    remediation: form, reason: Self.namedStops["success-redirect"]?.reason ?? "", url: href, messages: document.messages,
                    hint: "the app's sign-in ends in a browser: sign in with login-pkce --browser"))
        }
        if let device = raw["deviceEnrollment"]?["value"] {
            let vendor = device["vendor"]?.stringValue ?? device["name"]?.stringValue ?? "device management"
            return .stopped(
                IDX.UnsupportedStep(
                    remediation: "device-enrollment", reason: "the org wants this device enrolled in \(vendor) first",
                    url: device["enrollmentLink"]?.stringValue, messages: document.messages,
                    hint: "enroll the device (the URL), then sign in with login-pkce --browser"))
        }
        let said = document.messages.map { $0.message.isEmpty ? ($0.key ?? "") : $0.message }.filter { !$0.isEmpty }
        if said.isEmpty, let description = raw["error_description"]?.stringValue ?? raw["message"]?.stringValue {
            let code = raw["error"]?.stringValue.map { " (\($0))" } ?? ""
            return .authentication(description + code, hint: "start the sign-in again; if it fails the same way, ask the org's admin")
        }
        let expired = document.messages.contains { $0.key == "idx.session.expired" }
        return .authentication(
            said.isEmpty ? "the Identity Engine offered nothing to do next" : said.joined(separator: " "),
            hint: expired ? "the sign-in expired; start it again" : "start the sign-in again")
    }
}

extension IDX {
    /// An answer that is no IDX document, said plainly: the status and what came instead (nothing, text), never the
    /// body itself; a server error that does carry a document says its messages. Nil when `response` is a document.
    static func unreadable(_ response: HTTPResponse) -> IdFlowError? {
        let status = response.status
        guard status != 429 else { return nil }
        if response.body.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) {
            return .protocolViolation("the Identity Engine answered HTTP \(status) with an empty body, not a document")
        }
        guard !(200..<500).contains(status), let json = try? JSONValue(data: response.body), case .object = json else { return nil }
        let messages = Message.list(json["messages"]).map(\.message).filter { !$0.isEmpty }
        guard
            let said = messages.isEmpty
                ? (json["message"]?.stringValue ?? json["errorSummary"]?.stringValue) : messages.joined(separator: " ")
        else { return nil }
        return .protocolViolation("the Identity Engine answered HTTP \(status): \(said)")
    }
}
