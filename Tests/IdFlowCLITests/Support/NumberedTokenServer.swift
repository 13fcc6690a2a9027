import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

@testable import idflow

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A scripted authorization server for the login and token-tool commands: it redirects with the request's own
/// state and issues numbered tokens (`at1`, `rt1`, …), and the flags that point a command at it.
enum NumberedTokenServer {
    static let configuration = [
        "--org-url", OktaReplies.org, "--client-id", "0oaclient", "--redirect-uri", "com.example.app:/callback", "--scope",
        "profile offline_access",
    ]

    /// An authorization server that redirects with the request's own state and issues numbered tokens.
    static func transport(issued: Locked<Int> = Locked(0)) -> RoutedTransport {
        RoutedTransport { request in
            switch request.route {
            case "GET /oauth2/default/.well-known/openid-configuration":
                return OktaReplies.discovery
            case "GET /oauth2/default/v1/authorize":
                let state = request.query("state") ?? ""
                return .init(status: 302, headers: ["Location": "com.example.app:/callback?code=code1&state=\(state)"])
            case "POST /oauth2/default/v1/token":
                let n = issued.withLock { count -> Int in
                    count += 1
                    return count
                }
                return .json(
                    200,
                    "{\"token_type\":\"Bearer\",\"expires_in\":3600,\"access_token\":\"at\(n)\",\"scope\":\"profile offline_access\",\"refresh_token\":\"rt\(n)\"}"
                )
            case "POST /oauth2/default/v1/revoke", "POST /oauth2/default/v1/introspect":
                return .json(200, request.route.hasSuffix("introspect") ? "{\"active\":true,\"token_type\":\"Bearer\"}" : "")
            case "GET /oauth2/default/v1/userinfo":
                return request.header("Authorization") == "Bearer at1"
                    ? .json(200, "{\"sub\":\"00u1\",\"name\":\"Jo Doe\"}")
                    : .init(status: 401, headers: ["WWW-Authenticate": "Bearer error=\"invalid_token\""])
            default:
                return nil
            }
        }
    }
}
