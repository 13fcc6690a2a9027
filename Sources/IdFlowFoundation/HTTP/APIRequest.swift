/// One API call described as data: what to send and how to read the answer.
///
/// Building a request never touches the network, so a test can check the method, URL, headers, body and
/// idempotency of every call a user's command makes, and a facade or flow cannot drift from another's idea
/// of the same endpoint. Reading the answer sits beside the building because the error statuses and hints
/// belong to the endpoint, not to whoever happens to call it.
public protocol APIRequest: Sendable {
    /// What a successful call yields, already checked.
    associatedtype Response: Sendable

    /// The request to send; throws when the values cannot make a request that is safe to send (a body that
    /// does not encode, a link off the org).
    func httpRequest() throws(IdFlowError) -> HTTPRequest

    /// Turns the raw answer, whatever its status, into the typed result or the error the user should see.
    func decode(_ response: HTTPResponse) throws(IdFlowError) -> Response
}

extension HTTPClient {
    /// Sends an API request through the one client, so every call gets the same transport security,
    /// retries and trace.
    public func send<R: APIRequest>(_ request: R) async throws(IdFlowError) -> R.Response {
        let response = try await send(try request.httpRequest())
        return try request.decode(response)
    }
}
