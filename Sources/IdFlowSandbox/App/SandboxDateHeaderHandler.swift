import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTPTypes

extension HTTPServerBuilder {
    /// HTTP/1.1 whose responses carry the sandbox clock's `Date` (`SandboxDateHeaderHandler`).
    static func sandboxHTTP1(clock: SandboxClock) -> HTTPServerBuilder {
        .http1(additionalChannelHandlers: [SandboxDateHeaderHandler(clock: clock)])
    }
}

/// Puts the sandbox clock's time in every response's `Date` header, on the connection itself.
///
/// Hummingbird 2's `ApplicationProtocol.run()` sets `Date` from its own real-time cache on every response after
/// the router has answered (`response.headers[.date] = dateCache.date`, unconditionally, with no setting to turn it
/// off), so the value `OktaResponseMiddleware` writes never reaches a live client. A channel handler added through
/// `HTTP1Channel`'s `additionalChannelHandlers` sees each response head after that, on its way out, so the header a
/// client reads follows `POST /sandbox/clock` as the token times do: that is what `idflow doctor`'s clock check and
/// the skew `token verify` and `token inspect` measure read. One handler per connection (the builder's closure makes
/// a new one each time).
final class SandboxDateHeaderHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let clock: SandboxClock

    init(clock: SandboxClock) {
        self.clock = clock
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        head.headerFields[.date] = Timestamps.httpDate(clock.now)
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}
