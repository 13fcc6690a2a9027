/// Discovery documents with the keys of the recorded ones (`oidc-openid-configuration-*.json`,
/// `oauth-authorization-server-metadata-custom-as.json`), pointing at this server. Values describe
/// what the sandbox actually supports (code flow, device grant, S256, RS256, query/fragment/form_post);
/// endpoints it does not implement (PAR, registration, CIBA) are listed for shape and answer 404.
enum DiscoveryWire {
    static let authMethods: OrderedJSON = ["client_secret_basic", "client_secret_post", "none"]
    static let signingAlgorithms: OrderedJSON = ["RS256"]
    static let grantTypes: OrderedJSON = ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"]

    static let oidcClaims: [String] = [
        "iss", "ver", "sub", "aud", "iat", "exp", "jti", "auth_time", "amr", "idp", "nonce", "name", "nickname",
        "preferred_username", "given_name", "middle_name", "family_name", "email", "email_verified", "profile",
        "zoneinfo", "locale", "address", "phone_number", "picture", "website", "gender", "birthdate", "updated_at",
        "at_hash", "c_hash",
    ]
    static let accessTokenClaims: [String] = ["ver", "jti", "iss", "aud", "iat", "exp", "cid", "uid", "scp", "sub"]

    /// `{issuer}/.well-known/openid-configuration`, for the org AS or a custom AS.
    static func openIDConfiguration(_ server: HostedAuthorizationServer, orgURL: String) -> OrderedJSON {
        let issuer = server.issuer(orgURL: orgURL)
        let base = server.endpointBase(orgURL: orgURL)
        var document: JSONObject = ["authorization_endpoint": .string("\(base)/authorize")]
        if case .custom = server {
            document["backchannel_authentication_request_signing_alg_values_supported"] = signingAlgorithms
            document["backchannel_token_delivery_modes_supported"] = ["poll"]
        }
        document["claims_supported"] = .array(oidcClaims.map(OrderedJSON.string))
        document["code_challenge_methods_supported"] = ["S256"]
        document["device_authorization_endpoint"] = .string("\(base)/device/authorize")
        if case .custom = server { document["dpop_signing_alg_values_supported"] = signingAlgorithms }
        document["end_session_endpoint"] = .string("\(base)/logout")
        document["grant_types_supported"] = grantTypes
        document["id_token_signing_alg_values_supported"] = signingAlgorithms
        document["introspection_endpoint"] = .string("\(base)/introspect")
        document["introspection_endpoint_auth_methods_supported"] = authMethods
        document["issuer"] = .string(issuer)
        document["jwks_uri"] = .string("\(base)/keys")
        if case .custom = server { document["pushed_authorization_request_endpoint"] = .string("\(base)/par") }
        document["registration_endpoint"] = .string("\(orgURL)/oauth2/v1/clients")
        document["request_object_signing_alg_values_supported"] = signingAlgorithms
        document["request_parameter_supported"] = false
        document["response_modes_supported"] = ["query", "fragment", "form_post"]
        document["response_types_supported"] = ["code"]
        document["revocation_endpoint"] = .string("\(base)/revoke")
        document["revocation_endpoint_auth_methods_supported"] = authMethods
        document["scopes_supported"] = .array(server.scopesSupported.map(OrderedJSON.string))
        document["subject_types_supported"] = ["public"]
        document["token_endpoint"] = .string("\(base)/token")
        document["token_endpoint_auth_methods_supported"] = authMethods
        document["userinfo_endpoint"] = .string("\(base)/userinfo")
        return .object(document)
    }

    /// `{issuer}/.well-known/oauth-authorization-server` (custom authorization servers only).
    static func authorizationServerMetadata(_ server: HostedAuthorizationServer, orgURL: String) -> OrderedJSON {
        let base = server.endpointBase(orgURL: orgURL)
        return [
            "issuer": .string(server.issuer(orgURL: orgURL)),
            "authorization_endpoint": .string("\(base)/authorize"),
            "token_endpoint": .string("\(base)/token"),
            "registration_endpoint": .string("\(orgURL)/oauth2/v1/clients"),
            "jwks_uri": .string("\(base)/keys"),
            "response_types_supported": ["code"],
            "response_modes_supported": ["query", "fragment", "form_post"],
            "grant_types_supported": grantTypes,
            "subject_types_supported": ["public"],
            "scopes_supported": .array(server.scopesSupported.map(OrderedJSON.string)),
            "token_endpoint_auth_methods_supported": authMethods,
            "claims_supported": .array(accessTokenClaims.map(OrderedJSON.string)),
            "code_challenge_methods_supported": ["S256"],
            "introspection_endpoint": .string("\(base)/introspect"),
            "introspection_endpoint_auth_methods_supported": authMethods,
            "revocation_endpoint": .string("\(base)/revoke"),
            "revocation_endpoint_auth_methods_supported": authMethods,
            "end_session_endpoint": .string("\(base)/logout"),
            "request_parameter_supported": false,
            "request_object_signing_alg_values_supported": signingAlgorithms,
            "device_authorization_endpoint": .string("\(base)/device/authorize"),
            "pushed_authorization_request_endpoint": .string("\(base)/par"),
        ]
    }
}
