import Foundation
import IdFlowCore
import IdFlowFoundation

extension FuzzTargets {
    /// The `--verbose` trace's redactor: whatever the bytes, a secret the harness planted under a secret key, form
    /// field, query parameter or credential header never comes out.
    static let redactor = FuzzTarget(
        name: "redactor",
        summary: "Redactor over arbitrary JSON, form, URL and header text with a planted secret"
    ) { input in
        let planted = "pLaNtEd5ecret0x7f3a"
        let text = String(decoding: input, as: UTF8.self)
        // A secret that was already in the input is the input's own; only the planted one is checked.
        guard !text.contains(planted) else { return }
        let mustHide = { (output: String, carrier: String) in
            precondition(!output.contains(planted), "redactor leaked the planted secret through \(carrier)")
        }

        // JSON: the secret joins every object of the document, at every depth.
        if let document = try? JSONValue(data: input) {
            let planting = plant(planted, in: document)
            if let bytes = try? JSONEncoder().encode(planting) {
                mustHide(Redactor.body(bytes, contentType: "application/json"), "a JSON body")
                mustHide(Redactor.body(bytes, contentType: nil, url: "https://x/custom-registration/a"), "a JSON body")
            }
        }
        _ = Redactor.body(input, contentType: "application/json")
        _ = Redactor.body(input, contentType: "application/x-www-form-urlencoded")

        // Form fields and query parameters, before and after the input's own.
        mustHide(Redactor.form("password=\(planted)&" + text), "a form field")
        mustHide(Redactor.form(text + "&client_secret=\(planted)"), "a form field")
        mustHide(Redactor.url("https://org.example/oauth2/v1/authorize?code=\(planted)&" + text), "a query")
        mustHide(Redactor.url("https://org.example/p?" + text + "&refresh_token=\(planted)"), "a query")
        mustHide(Redactor.url("https://org.example/welcome/\(planted)?" + text), "an activation link")

        // Credential headers: the scheme word may stay, the credential may not.
        for name in ["Authorization", "proxy-authorization", "COOKIE", "Set-Cookie", "DPoP"] {
            mustHide(Redactor.header(name: name, value: text.prefix { $0 != " " } + " " + planted), "the \(name) header")
            mustHide(Redactor.header(name: name, value: planted), "the \(name) header")
        }
        _ = Redactor.header(name: "Location", value: text)
    }

    private static func plant(_ secret: String, in value: JSONValue) -> JSONValue {
        switch value {
        case .object(var members):
            for (key, member) in members { members[key] = plant(secret, in: member) }
            members["password"] = .string(secret)
            return .object(members)
        case .array(let items):
            return .array(items.map { plant(secret, in: $0) })
        default:
            return value
        }
    }
}
