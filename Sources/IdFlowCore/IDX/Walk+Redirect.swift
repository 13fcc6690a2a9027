import Foundation
import IdFlowFoundation

extension IDX.Walk {
    /// `redirect-idp` (idx.md §7): the sign-in goes on at another identity provider, in a browser. The org then
    /// redirects to this app's redirect URI with `interaction_code` and this sign-in's `state` (exchanged at the
    /// token endpoint like the success form), or with `error=interaction_required` (introspect and go on here).
    /// The redirect is caught on a loopback redirect URI, or pasted at a terminal.
    func signInElsewhere(_ form: IDX.Remediation, _ transaction: IDX.Transaction) async throws(IdFlowError) -> IDX.Document {
        try requireSameOrigin(form.href)
        let name = form.identityProvider ?? "the identity provider"
        let parameters = try await redirect(to: form.href, name: name, state: transaction.state)
        if parameters["error"] == "interaction_required" {
            context.message("idx: \(name) handed the sign-in back; it goes on here")
            return try await send(
                IDX.IntrospectRequest(url: IDX.introspectURL(issuer: server.issuer), interactionHandle: transaction.interactionHandle))
        }
        guard let code = parameters["interaction_code"], !code.isEmpty else {
            throw .protocolViolation("the redirect from \(name) carries neither an interaction_code nor an error")
        }
        // The same success form the server hands out (§6), aimed at the discovered token endpoint.
        let issue: JSONValue = [
            "name": "issue", "href": .string(server.metadata.tokenEndpoint.absoluteString), "method": "POST",
            "accepts": "application/x-www-form-urlencoded",
            "value": [
                ["name": "grant_type", "value": "interaction_code"], ["name": "interaction_code", "value": .string(code)],
                ["name": "client_id", "value": .string(server.client.clientID)], ["name": "code_verifier", "required": true],
            ],
        ]
        return try IDX.Document(json: ["successWithInteractionCode": issue])
    }

    /// Opens the browser and catches the redirect on the configured loopback redirect URI; without one, a person
    /// at a terminal pastes the URL they were sent to.
    private func redirect(to url: URL, name: String, state: String) async throws(IdFlowError) -> [String: String] {
        let continuing: Set<String> = ["interaction_required"]
        // The org redirects to the redirect URI the interaction was started with, so only its own port will do.
        if let loopback = context.configuration.loopbackRedirect, let port = loopback.port {
            let receiver = try LoopbackReceiver(port: port)
            BrowserOpener(environment: context.secrets.environment).open(
                url, saying: "idx: redirect-idp: opening the browser to sign in with \(name); if it does not open, visit:",
                to: context.notice)
            let context = self.context
            return try await receiver.waitForRedirectParameters(
                path: loopback.path, expectedState: state, answer: "interaction_code", continuing: continuing, timeout: login.pollTimeout,
                refused: { note in context.notice(note) })
        }
        guard atTerminal else {
            // A script stops by name with the page to open (exit 3): a person can finish there, and the error line says
            // how idflow could have caught the end of it.
            context.notice("idx: redirect-idp: open this URL in a browser to sign in with \(name): \(url.absoluteString)")
            throw .stopped(
                IDX.UnsupportedStep(
                    remediation: "redirect-idp",
                    reason:
                        "the sign-in goes on at \(name) in a browser, and the redirect URI \(context.configuration.redirectURI ?? "") cannot be caught here",
                    url: url.absoluteString,
                    hint:
                        "use a loopback redirect URI registered for the app (--redirect-uri http://127.0.0.1:PORT/callback), or run at a terminal"
                ))
        }
        context.notice("Open this URL in a browser and sign in with \(name), then paste the URL you were redirected to:")
        context.notice(url.absoluteString)
        let pasted = try PromptInterruption.run { context.console.promptLine("Redirect URL: ") } ?? ""
        return try AuthorizationResponse.parameters(from: pasted, expectedState: state, continuing: continuing)
    }
}
