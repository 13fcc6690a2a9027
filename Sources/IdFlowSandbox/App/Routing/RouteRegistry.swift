import HTTPTypes
import Hummingbird

/// The handler shape every sandbox route uses.
typealias SandboxHandler = @Sendable (Request, SandboxRequestContext) async throws -> Response

/// Registers routes on the router and remembers which methods each path has, so that `finish()`
/// can answer the others with 405 E0000022 instead of Hummingbird's plain 404.
final class RouteRegistry {
    let router: Router<SandboxRequestContext>
    private var methodsByPath: [(path: String, methods: Set<HTTPRequest.Method>)] = []
    /// The routes registered as taking a user's access token (`takesUserToken`): each must refuse a bound token
    /// used without its proof of possession (`UserTokenBinding`), and a test walks this list to prove it, so a new
    /// route cannot be missed.
    private(set) var userTokenRoutes: [(path: String, method: HTTPRequest.Method)] = []

    /// The methods a wrong-method request is checked against.
    private static let commonMethods: [HTTPRequest.Method] = [.get, .post, .put, .delete, .patch]

    init(router: Router<SandboxRequestContext>) {
        self.router = router
    }

    func on(_ path: String, _ method: HTTPRequest.Method, takesUserToken: Bool = false, use handler: @escaping SandboxHandler) {
        router.on(RouterPath(path), method: method, use: handler)
        if takesUserToken { userTokenRoutes.append((path, method)) }
        if let index = methodsByPath.firstIndex(where: { $0.path == path }) {
            methodsByPath[index].methods.insert(method)
        } else {
            methodsByPath.append((path, [method]))
        }
    }

    /// Every registered path and method (the 405 answers of `finish()` left out).
    var routes: [(path: String, method: HTTPRequest.Method)] {
        methodsByPath.flatMap { entry in entry.methods.map { (entry.path, $0) } }
    }

    func get(_ path: String, use handler: @escaping SandboxHandler) { on(path, .get, use: handler) }
    func post(_ path: String, use handler: @escaping SandboxHandler) { on(path, .post, use: handler) }
    func put(_ path: String, use handler: @escaping SandboxHandler) { on(path, .put, use: handler) }
    func delete(_ path: String, use handler: @escaping SandboxHandler) { on(path, .delete, use: handler) }

    /// Adds the 405 answers; call once, after every controller has registered.
    func finish() {
        for (path, methods) in methodsByPath {
            for method in Self.commonMethods where !methods.contains(method) {
                router.on(RouterPath(path), method: method) { _, _ -> Response in
                    throw OktaErrorResponse.methodNotAllowed
                }
            }
        }
    }
}
