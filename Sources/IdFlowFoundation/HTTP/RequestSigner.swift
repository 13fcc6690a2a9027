import Foundation

/// What a request must carry that may be sent only once, made anew by `HTTPClient` for every attempt. The HTTP
/// layer knows only this protocol; the OAuth layer's `RequestSigning` (a DPoP proof, a client assertion) is the
/// one idflow has. A retry after a 429, a refused connection or a nonce challenge then signs again instead of
/// replaying what the server refuses.
public protocol RequestSigner: Sendable {
    /// Writes this attempt's signatures into `request`, with the nonces servers asked for so far.
    func sign(_ request: inout HTTPRequest, nonces: ServerNonces, now: Date) throws(IdFlowError)
    /// Reads each answer before it is judged: remembers the nonce it brings, and returns true when it refused the
    /// request for want of that nonce, so the request is signed and sent once more whatever the retry budget.
    func read(_ response: HTTPResponse, url: URL, nonces: ServerNonces) -> Bool
    /// Whether `other` signs the same way (requests are compared in tests).
    func signsLike(_ other: any RequestSigner) -> Bool
}

extension RequestSigner where Self: Equatable {
    public func signsLike(_ other: any RequestSigner) -> Bool { (other as? Self) == self }
}

/// The latest nonce each server asked to be signed into later requests (RFC 9449 §8–9), by slot; shared by every
/// copy of one `HTTPClient`, so a command's later requests use it instead of being challenged again.
public final class ServerNonces: Sendable {
    private let nonces = Locked<[String: String]>([:])

    public init() {}

    public func nonce(for slot: String) -> String? { nonces.withLock { $0[slot] } }

    public func remember(_ nonce: String, for slot: String) { nonces.withLock { $0[slot] = nonce } }
}
