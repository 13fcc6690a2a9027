import Foundation

/// A request that got no answer: the kind `HTTPClient` and `RetryPolicy` classify (was a connection ever made,
/// may the request be sent again), and the reason in libcurl's own words for the message.
public struct TransportFailure: LocalizedError, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as far as retrying and the message care.
    public enum Kind: Sendable, Equatable {
        case cannotConnectToHost
        case cannotFindHost
        case notConnectedToInternet
        case timedOut
        /// The connection broke after the request went out (reset, a short read, an HTTP/2 stream error).
        case networkConnectionLost
        /// Nothing, or something that is not HTTP, came back.
        case badServerResponse
        case secureConnectionFailed
        case serverCertificateUntrusted
        case clientCertificateRejected
        /// idflow gave up on it itself (an interrupted batch, the process exiting).
        case cancelled
        case badURL
        case unsupportedURL
        case unknown
    }

    public var kind: Kind
    /// libcurl's error text, or idflow's when the failure is its own.
    public var reason: String
    /// The `CURLcode`, when libcurl reported the failure (a TLS failure's message names it).
    public var curlCode: Int?

    public init(_ kind: Kind, reason: String? = nil, curlCode: Int? = nil) {
        self.kind = kind
        self.reason = reason ?? "\(kind)"
        self.curlCode = curlCode
    }

    public var description: String { reason }
    /// The reason, so `localizedDescription` says what libcurl said.
    public var errorDescription: String? { reason }
}
