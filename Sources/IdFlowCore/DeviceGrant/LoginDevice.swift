import Foundation
import IdFlowFoundation

/// The OAuth 2.0 device authorization grant (RFC 8628), for a machine with no browser: the user approves a
/// short code on any other device while idflow polls the token endpoint. The tokens then end the login as
/// `login-pkce`'s do (``AuthorizationServer/completeLogin(_:scope:nonce:store:grant:)``).
public struct LoginDevice: Sendable {
    public var clientSecret: Secret?
    /// Save to the profile's token store (false with `--no-store`).
    public var store: Bool
    /// How long to wait for the user (`--device-timeout`); nil waits as long as the code lives (`expires_in`).
    public var timeout: Duration?
    /// Opens `verification_uri_complete` (`--open`); nil only prints it.
    public var opener: BrowserOpener?
    public init(
        clientSecret: Secret? = nil, store: Bool = true, timeout: Duration? = nil, opener: BrowserOpener? = nil
    ) {
        self.clientSecret = clientSecret
        self.store = store
        self.timeout = timeout
        self.opener = opener
    }

    /// How often a "still waiting" line reaches stderr while nothing else happens.
    static let progressEvery = Duration.seconds(60)

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> TokenOutput {
        let server = try await AuthorizationServer.discoverForLogin(context, clientSecret: clientSecret)
        guard let endpoint = server.metadata.deviceAuthorizationEndpoint else {
            throw .configuration(
                "the issuer \(server.metadata.issuer) does not advertise a device_authorization_endpoint (RFC 8628)",
                hint:
                    "sign in with `idflow login-pkce --manual` instead (any browser, the redirect pasted back), or pass --issuer of a server that offers the device grant"
            )
        }
        try TransportSecurity.check(endpoint)
        let scope = context.configuration.scope
        let authorization = try await server.http.send(
            DeviceAuthorizationRequest(endpoint: endpoint, client: server.client, scope: scope))
        try Self.show(authorization, context)
        if let opener {
            if let problem = opener.open(authorization.verificationURIComplete ?? authorization.verificationURI) {
                context.notice(problem)
            }
        }
        let limit = timeout ?? .seconds(authorization.expiresIn)
        let output = try await server.completeLogin(
            context, scope: scope, nonce: .notInThisGrant(.deviceAuthorization), store: store
        ) { () throws(IdFlowError) in
            try await Interruption.cancellingOnInterrupt("interrupted while waiting for the device sign-in") { () throws(IdFlowError) in
                try await Self.poll(server.tokenEndpoint, authorization, limit: limit, context)
            }
        }
        return output
    }

    /// Shows what the user needs on stderr: the page, the code (grouped, so it reads at a glance), the link
    /// that carries the code, and one JSON line with the same for a script that watches stderr.
    static func show(_ authorization: DeviceAuthorization, _ context: IdFlowContext) throws(IdFlowError) {
        var lines = [
            "To sign in, open this page on any device:", "", "    \(authorization.verificationURI.absoluteString)", "",
            "and enter the code:", "", "    \(grouped(authorization.userCode))", "",
        ]
        if let complete = authorization.verificationURIComplete {
            lines += ["or open this link, which carries the code:", "", "    \(complete.absoluteString)", ""]
        }
        lines.append("The code expires in \(duration(.seconds(authorization.expiresIn))).")
        // What the person must act on: shown even with --quiet.
        for line in lines { context.notice(line) }
        let json = try JSONOutput.encode(UserCodeNotice(authorization), style: .compact)
        context.notice(String(decoding: json.dropLast(), as: UTF8.self))
    }

    /// The `{"user_code","verification_uri","verification_uri_complete","expires_in"}` line of docs/contract.md.
    struct UserCodeNotice: Encodable {
        var userCode: String
        var verificationURI: URL
        var verificationURIComplete: URL?
        var expiresIn: Int

        init(_ authorization: DeviceAuthorization) {
            userCode = authorization.userCode
            verificationURI = authorization.verificationURI
            verificationURIComplete = authorization.verificationURIComplete
            expiresIn = authorization.expiresIn
        }

        enum CodingKeys: String, CodingKey {
            case userCode = "user_code"
            case verificationURI = "verification_uri"
            case verificationURIComplete = "verification_uri_complete"
            case expiresIn = "expires_in"
        }
    }

    /// A code without separators in groups of four (`HMBS RJRC`); one that has its own (`ABCD-EFGH`) as it is.
    /// The exact code is in the JSON line and the complete link.
    static func grouped(_ code: String) -> String {
        guard code.count > 4, code.allSatisfy({ $0.isLetter || $0.isNumber }) else { return code }
        var groups: [Substring] = []
        var rest = Substring(code)
        while !rest.isEmpty {
            groups.append(rest.prefix(4))
            rest = rest.dropFirst(4)
        }
        return groups.joined(separator: " ")
    }

    /// Polls until the tokens come, the server ends the code (denied, expired), or `limit` has passed; a poll
    /// is only made a full interval after the last one, so rather than poll early it stops at the limit.
    static func poll(
        _ tokenEndpoint: TokenEndpoint, _ authorization: DeviceAuthorization, limit: Duration, _ context: IdFlowContext
    ) async throws(IdFlowError) -> TokenResponse {
        var polling = IntervalPolling(
            context, interval: .seconds(authorization.interval), limit: limit, waitingFor: "the sign-in", progressEvery: progressEvery,
            pollsAtOnce: false, interruption: .interrupted("interrupted while waiting for the device sign-in"))
        context.message("Waiting for the sign-in (polling every \(duration(polling.interval)), for up to \(duration(limit)))…")
        return try await polling.run(
            timedOut: .timedOut(
                "the sign-in was not approved within \(duration(limit))",
                hint: "approve the code sooner, or give more time with --device-timeout SECONDS")
        ) { () throws(IdFlowError) in
            switch try await tokenEndpoint.poll(deviceCode: authorization.deviceCode) {
            case .tokens(let response): return .done(response)
            case .pending: return .pending
            case .slowDown: return .slowDown
            }
        }
    }

    static func duration(_ duration: Duration) -> String { IntervalPolling.duration(duration) }
}
