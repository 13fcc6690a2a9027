import Foundation

/// An OAuth client registered in the sandbox: the public native app, and optionally one
/// confidential client (client_secret_basic / client_secret_post) sharing its redirect URIs.
struct OAuthClient: Sendable, Equatable {
    let id: String
    /// nil for the public client (token endpoint auth method `none`) and a `tls_client_auth` one.
    let secret: String?
    let redirectURIs: [String]
    /// RFC 8705 `tls_client_auth`: the subject common name of the client certificate it authenticates with.
    var certificateCommonName: String? = nil

    var isPublic: Bool { secret == nil && certificateCommonName == nil }

    /// Whether the client may use the device authorization grant. Okta allows it only for native apps; the
    /// sandbox's public client is one, its confidential client stands for a web app and gets `unauthorized_client`.
    var allowsDeviceGrant: Bool { isPublic }

    /// Exact match with a registered URI; a registered loopback `http://127.0.0.1/…` or
    /// `http://localhost/…` matches any port (RFC 8252 §7.3), since native apps pick a free one.
    func allowsRedirect(to uri: String) -> Bool {
        redirectURIs.contains { registered in
            if registered == uri { return true }
            guard let wanted = URLComponents(string: registered), let given = URLComponents(string: uri),
                wanted.scheme == "http", given.scheme == "http", wanted.port == nil,
                let host = wanted.host, ["127.0.0.1", "localhost", "[::1]", "::1"].contains(host)
            else { return false }
            return given.host == host && given.path == wanted.path && given.query == wanted.query
                && given.fragment == nil && given.user == nil
        }
    }
}

extension SandboxConfiguration {
    /// Every client this configuration registers.
    var oauthClients: [OAuthClient] {
        var clients = [OAuthClient(id: clientId, secret: nil, redirectURIs: redirectURIs)]
        if let id = confidentialClientId, let secret = confidentialClientSecret {
            clients.append(OAuthClient(id: id, secret: secret, redirectURIs: redirectURIs))
        }
        // The custom-registration client gets its tokens from the complete step, never from /authorize; it
        // refreshes, introspects and revokes them like any confidential client.
        if let secret = customRegistration.clientSecret {
            clients.append(OAuthClient(id: customRegistration.clientId, secret: secret, redirectURIs: []))
        }
        if let client = tlsClientAuthClient {
            clients.append(
                OAuthClient(id: client.clientId, secret: nil, redirectURIs: redirectURIs, certificateCommonName: client.subjectCommonName))
        }
        // More public native apps, so that one can exchange another's sign-in (native-sso.md §1.3).
        for app in nativeSSO.apps {
            clients.append(OAuthClient(id: app.clientId, secret: nil, redirectURIs: app.redirectURIs ?? redirectURIs))
        }
        return clients
    }
}

/// Client authentication at `/token`, `/introspect` and `/revoke`: `client_id` alone for the public
/// client, HTTP Basic or `client_id` + `client_secret` in the form for the confidential one, `client_id` and the
/// TLS client certificate (`certificate`, RFC 8705 §2.1) for a `tls_client_auth` one.
enum ClientAuthentication {
    static func authenticate(
        form: FormParameters, authorization: String?, clients: [OAuthClient], certificate: ClientCertificate? = nil
    ) throws -> OAuthClient {
        var id = form["client_id"]
        var secret = form["client_secret"]
        if let authorization, authorization.lowercased().hasPrefix("basic ") {
            if secret != nil || form["client_assertion"] != nil {
                throw OAuthErrorResponse(
                    .badRequest, "invalid_request",
                    "Cannot supply multiple client credentials. Use one of the following: credentials in the "
                        + "Authorization header, credentials in the post body, or a client_assertion in the post body.")
            }
            guard let (basicID, basicSecret) = decodeBasic(String(authorization.dropFirst(6))) else {
                throw invalidClient("Invalid value for 'client_id' parameter.")
            }
            if let formID = id, formID != basicID { throw invalidClient("Invalid value for 'client_id' parameter.") }
            id = basicID
            secret = basicSecret
        }
        guard let id, !id.isEmpty else { throw invalidClient("No client credentials found.") }
        guard let client = clients.first(where: { $0.id == id }) else {
            throw invalidClient("Invalid value for 'client_id' parameter.")
        }
        if let commonName = client.certificateCommonName {
            guard secret == nil else {
                throw invalidClient("Client authentication failed: a tls_client_auth client must not send a client secret.")
            }
            guard let certificate else {
                throw invalidClient("Client authentication failed: no TLS client certificate was presented.")
            }
            guard certificate.commonName == commonName else {
                throw invalidClient("Client authentication failed: the TLS client certificate is not this client's.")
            }
        } else if let expected = client.secret {
            guard let secret, ConstantTime.equals(secret, expected) else {
                throw invalidClient("The client secret supplied for a confidential client is invalid.")
            }
        } else if secret != nil {
            throw invalidClient("Client authentication failed: a public client must not send a client secret.")
        }
        return client
    }

    static func invalidClient(_ description: String) -> OAuthErrorResponse {
        OAuthErrorResponse(.unauthorized, "invalid_client", description)
    }

    /// `base64(urlencode(id) ":" urlencode(secret))` (RFC 6749 §2.3.1).
    static func decodeBasic(_ encoded: String) -> (String, String)? {
        guard let data = Data(base64Encoded: encoded.trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        let id = String(text[..<colon])
        let secret = String(text[text.index(after: colon)...])
        return (id.removingPercentEncoding ?? id, secret.removingPercentEncoding ?? secret)
    }
}
