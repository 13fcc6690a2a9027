import HTTPTypes
import Hummingbird

/// What `/authorize` sends back to the browser: redirects in the requested response mode, the
/// minimal sign-in page, and error pages for requests that cannot be redirected.
enum AuthorizeWire {
    /// Sends `parameters` to the client's redirect URI in `mode` (query, fragment or form_post).
    static func redirect(
        to redirectURI: String, mode: ResponseMode, parameters: [(String, String)], headers: HTTPFields = [:]
    ) -> Response {
        switch mode {
        case .query, .fragment:
            let separator = mode == .fragment ? "#" : (redirectURI.contains("?") ? "&" : "?")
            var extra = headers
            extra[.referrerPolicy] = "no-referrer"
            return .redirect(to: redirectURI + separator + FormParameters.encode(parameters), headers: extra)
        case .formPost:
            let inputs = parameters.map { #"<input type="hidden" name="\#(escape($0.0))" value="\#(escape($0.1))">"# }
            var response = Response.html(
                """
                <!DOCTYPE html>
                <html><head><title>Submit this form</title></head>
                <body onload="document.forms[0].submit()">
                <form method="post" action="\(escape(redirectURI))">
                \(inputs.joined(separator: "\n"))
                <noscript><button type="submit">Continue</button></noscript>
                </form>
                </body></html>
                """, securityPolicy: Response.formPostSecurityPolicy)
            response.headers.append(contentsOf: headers)
            return response
        }
    }

    /// The sign-in form. Deliberately trivial, so a shell script can play the browser:
    /// `sed -n 's/.*name="txn" value="\([^"]*\)".*/\1/p'` extracts the transaction id.
    ///
    /// `intro` is a line above the form; `choices` (value, label) replace the one submit button with several
    /// named `decision`, the first being the one a browser submits on Enter (the device page's approve/deny).
    static func signInPage(
        action: String, txn: String, error: String? = nil, username: String = "", intro: String? = nil,
        choices: [(value: String, label: String)] = [], status: HTTPResponse.Status = .ok
    ) -> Response {
        let message = error.map { #"<p class="error" role="alert">\#(escape($0))</p>"# } ?? ""
        let introduction = intro.map { "<p>\(escape($0))</p>\n" } ?? ""
        let buttons =
            choices.isEmpty
            ? #"<button type="submit">Sign in</button>"#
            : choices.map { #"<button type="submit" name="decision" value="\#(escape($0.value))">\#(escape($0.label))</button>"# }
                .joined(separator: "\n")
        return .html(
            """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>Sign in - idflow sandbox</title></head>
            <body>
            <h1>Sign in</h1>
            \(introduction)\(message)
            <form method="post" action="\(escape(action))">
            <input type="hidden" name="txn" value="\(escape(txn))">
            <label>Username <input type="text" name="username" value="\(escape(username))" autocomplete="username"></label>
            <label>Password <input type="password" name="password" autocomplete="current-password"></label>
            \(buttons)
            </form>
            </body></html>
            """, status: status)
    }

    /// A 400 page for errors that must not be redirected (unknown client, unregistered redirect URI).
    static func errorPage(_ error: String, _ description: String) -> Response {
        .html(
            """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>Error - idflow sandbox</title></head>
            <body>
            <h1>\(escape(error))</h1>
            <p id="error-description">\(escape(description))</p>
            </body></html>
            """, status: .badRequest)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }
}
