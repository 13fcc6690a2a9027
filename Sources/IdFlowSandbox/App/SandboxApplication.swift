import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Builds the sandbox application: the same one `SandboxServer.start` runs, for `app.test(.router)`
/// and `app.test(.live)`.
///
/// Behaviour follows `state.configuration` (pass a `state` to drive or inspect it from a test);
/// `configuration` gives the address to bind. Nothing is generated or started until this is called. It serves
/// plain http even when `configuration.tls` is set (the URLs it writes are https then): `SandboxServer.start`
/// is what serves TLS.
public func buildApplication(configuration: SandboxConfiguration, state: SandboxState? = nil) -> some ApplicationProtocol {
    makeApplication(
        configuration: configuration, state: state ?? SandboxState(configuration: configuration),
        logger: SandboxLogger.make(), onBound: { _ in })
}

/// The concrete application; `onBound` learns the port once the server listens. `server` is plain HTTP/1.1
/// (`HTTPServerBuilder.sandboxHTTP1`, whose `Date` headers follow the sandbox clock) unless `SandboxServer.start`
/// wraps it in TLS.
func makeApplication(
    configuration: SandboxConfiguration, state: SandboxState, logger: Logger, server: HTTPServerBuilder? = nil,
    onBound: @escaping @Sendable (Int) async -> Void
) -> Application<RouterResponder<SandboxRequestContext>> {
    Application(
        router: buildRouter(state: state),
        server: server ?? .sandboxHTTP1(clock: state.clock),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? configuration.port
            await state.didBind(host: channel.localAddress?.ipAddress ?? configuration.host, port: port)
            await onBound(port)
        },
        logger: logger)
}

/// Every route and middleware. Middlewares must be added before routes (Hummingbird binds them
/// at registration); their order is: response shaping → faults → rate limit → SSWS check.
func buildRouter(state: SandboxState) -> Router<SandboxRequestContext> {
    buildRoutes(state: state).router
}

/// The registry behind `buildRouter`, which also knows which routes take a user's access token.
func buildRoutes(state: SandboxState) -> RouteRegistry {
    let router = Router(context: SandboxRequestContext.self)
    router.add(middleware: OktaResponseMiddleware(state: state))
    router.add(middleware: FaultMiddleware(state: state))
    router.add(middleware: RateLimitMiddleware(state: state))
    router.add(middleware: APITokenMiddleware(apiToken: state.apiToken, state: state))

    let routes = RouteRegistry(router: router)
    UsersController(state: state).register(in: routes)
    LifecycleController(state: state).register(in: routes)
    AuthnController(state: state).register(in: routes)
    AdminController(state: state).register(in: routes)
    DiscoveryController(state: state).register(in: routes)
    AuthorizeController(state: state).register(in: routes)
    TokenController(state: state).register(in: routes)
    DeviceAuthorizationController(state: state).register(in: routes)
    DirectAuthController(state: state).register(in: routes)
    UserInfoController(state: state).register(in: routes)
    LogoutController(state: state).register(in: routes)
    PushAuthenticatorController(state: state).register(in: routes)
    MyAccountPasswordController(state: state).register(in: routes)
    CustomRegistrationController(state: state).register(in: routes)
    IDXController(state: state).register(in: routes)
    TACController(state: state).register(in: routes)
    ResourceController(state: state).register(in: routes)
    routes.finish()
    return routes
}
