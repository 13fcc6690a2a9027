import Foundation
import Hummingbird
import NIOCore

/// The request context of every sandbox route.
///
/// Bodies are decoded by the helpers in `Request+Body.swift` rather than a `RequestDecoder`,
/// because a malformed body must become Okta's E0000003 (or OAuth's `invalid_request`), not a
/// Hummingbird error.
struct SandboxRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection, for its TLS client certificate (RFC 8705 `tls_client_auth`, `ClientCertificate`).
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// Bodies are small JSON or form documents; 1 MiB is plenty and bounds memory.
    var maxUploadSize: Int { 1 << 20 }
}
