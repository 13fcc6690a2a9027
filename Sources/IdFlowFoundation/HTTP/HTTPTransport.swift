import Foundation

/// The one seam between idflow and the network, so tests can script answers without a socket. It speaks
/// idflow's own types from the flow down to the transfer: `CurlTransport` turns an `HTTPRequest` into a libcurl
/// transfer and the answer into an `HTTPResponse`, with nothing translated in between.
public protocol HTTPTransport: Sendable {
    /// Sends one attempt exactly as given (signed, with its headers and `timeout`) and returns the response as
    /// received: redirects are never followed, because the authorize step reads the `Location` of a 302 (which
    /// may name a custom scheme). No answer is a `TransportFailure`; a refusal idflow makes itself (a body over
    /// the cap, a TLS failure it can name) an `IdFlowError`.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
