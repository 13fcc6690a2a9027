import Foundation
import IdFlowFoundation

/// Asks the device authorization endpoint for a device code and a user code (RFC 8628 §3.1), with the client's
/// credentials as at the token endpoint.
struct DeviceAuthorizationRequest: APIRequest {
    var endpoint: URL
    var client: ClientCredentials
    var scope: String

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        TokenGrant.request(endpoint, client: client, fields: [("scope", scope)])
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> DeviceAuthorization {
        guard response.isSuccess else {
            let failure = response.failure()
            guard case .oauth(let status, let body, nil) = failure else { throw failure }
            switch body.error {
            case "invalid_client":
                throw .oauth(status: status, body: body, hint: "check --client-id (and --client-secret-file for a confidential client)")
            case "unauthorized_client":
                throw .oauth(
                    status: status, body: body,
                    hint:
                        "the app is not allowed the device authorization grant; enable it for the app (Okta: a native app with the Device Authorization grant type)"
                )
            case "invalid_scope":
                throw .oauth(status: status, body: body, hint: "check --scope (IDFLOW_SCOPE) against the scopes the server offers")
            default:
                throw failure
            }
        }
        return try response.decode(DeviceAuthorization.self)
    }
}

/// The device authorization response (RFC 8628 §3.2): what the user needs (the user code and where to enter it)
/// and what the client keeps (the device code, how long it lives, how often to poll).
public struct DeviceAuthorization: Decodable, Sendable, Equatable {
    public var deviceCode: String
    public var userCode: String
    public var verificationURI: URL
    /// The verification URI with the user code in it, for a link or a QR code; optional in the RFC.
    public var verificationURIComplete: URL?
    /// Seconds until both codes expire.
    public var expiresIn: Int
    /// Seconds to wait between polls; RFC 8628 says 5 when the server leaves it out.
    public var interval: Int

    public init(
        deviceCode: String, userCode: String, verificationURI: URL, verificationURIComplete: URL?, expiresIn: Int, interval: Int = 5
    ) {
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresIn = expiresIn
        self.interval = interval
    }

    enum CodingKeys: String, CodingKey {
        case deviceCode = "device_code"
        case userCode = "user_code"
        case verificationURI = "verification_uri"
        case verificationURIComplete = "verification_uri_complete"
        case expiresIn = "expires_in"
        case interval
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        deviceCode = try container.decode(String.self, forKey: .deviceCode)
        userCode = try container.decode(String.self, forKey: .userCode)
        verificationURI = try container.decode(URL.self, forKey: .verificationURI)
        verificationURIComplete = try container.decodeIfPresent(URL.self, forKey: .verificationURIComplete)
        expiresIn = try container.decode(Int.self, forKey: .expiresIn)
        interval = try container.decodeIfPresent(Int.self, forKey: .interval) ?? 5
    }
}

/// Polls the token endpoint with a device code (RFC 8628 §3.4). Waiting answers are outcomes, not errors:
/// `authorization_pending` and `slow_down` keep the poll going; `access_denied` (exit 8) and `expired_token`
/// (exit 9) end it as errors carrying the server's body.
struct DeviceCodeTokenRequest: APIRequest {
    static let grantType = "urn:ietf:params:oauth:grant-type:device_code"

    var tokenEndpoint: URL
    var client: ClientCredentials
    var deviceCode: String

    /// What one poll learned.
    enum Outcome: Sendable, Equatable {
        /// The user approved: the tokens (issued once; the device code is spent).
        case tokens(TokenResponse)
        /// The user has not answered yet; poll again after the interval.
        case pending
        /// Polled too often; poll again after the interval plus 5 seconds, and keep the longer interval (§3.5).
        case slowDown
    }

    func httpRequest() throws(IdFlowError) -> HTTPRequest {
        TokenGrant.request(tokenEndpoint, client: client, fields: [("grant_type", Self.grantType), ("device_code", deviceCode)])
    }

    func decode(_ response: HTTPResponse) throws(IdFlowError) -> Outcome {
        if !response.isSuccess, case .oauth(let status, let body, nil) = response.failure() {
            switch body.error {
            case "authorization_pending": return .pending
            case "slow_down": return .slowDown
            case "access_denied":
                throw .oauth(
                    status: status, body: body, hint: "the sign-in was denied at the verification page; run login-device again to retry")
            case "expired_token":
                throw .oauth(
                    status: status, body: body, hint: "the code expired before it was approved; run login-device again for a new one")
            default: break
            }
        }
        return .tokens(
            try TokenGrant.decode(response, client: client, hint: "the device code was refused; run login-device again for a new one"))
    }
}

extension TokenEndpoint {
    /// Polls once with a device code (RFC 8628 §3.4): tokens, or an answer to keep waiting. The device grant's own
    /// use of the token endpoint, so it lives with the grant rather than in the foundation's `TokenEndpoint`.
    func poll(deviceCode: String) async throws(IdFlowError) -> DeviceCodeTokenRequest.Outcome {
        try await http.send(DeviceCodeTokenRequest(tokenEndpoint: url, client: client, deviceCode: deviceCode))
    }
}
