import Foundation
import Hummingbird

/// The request context of every sandbox route.
///
/// Bodies are decoded by the helpers in `Request+Body.swift` rather than a `RequestDecoder`,
/// because a malformed body must become Okta's E0000003 (or OAuth's `invalid_request`), not a
/// Hummingbird error.
struct SandboxRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    /// Bodies are small JSON or form documents; 1 MiB is plenty and bounds memory.
    var maxUploadSize: Int { 1 << 20 }
}
