import Foundation
import IdFlowTestSupport

@testable import IdFlowCore
@testable import IdFlowFoundation

extension FuzzTargets {
    /// A custom-registration token server's answers (status, headers, body arbitrary): the two-step registration
    /// of `register --idp` runs against them, its init answered by the first part, its complete by the second, and
    /// any further call by the third, as it would against a real token server.
    static let customRegistration = FuzzTarget(
        name: "custom-registration",
        summary: "custom-registration token server answers to init and complete, through register --idp's two-step flow"
    ) { input in
        let parts = FuzzInput.parts(input, 3)
        let served = Locked(0)
        let transport = RoutedTransport { request in
            let index = served.withLock { count in
                defer { count += 1 }
                return count
            }
            guard index < parts.count else { return nil }
            let response = FuzzInput.response(parts[index], url: request.url)
            return RoutedTransport.Reply(status: response.status, headers: response.headers, body: response.body)
        }
        let context = TestContext.make(transport: transport, configuration: customRegistrationConfiguration)
        let registration = RegisterWithIdentityProvider(
            identityProvider: "0oafuzzidp", initData: .text("{\"invite\":\"x\"}"), data: .text("123456"),
            tokenServer: URL(string: "https://example.okta.com"), clientSecret: Secret("fuzz-client-secret"))
        blocking {
            _ = try? await registration.run(context)
        }
    }

    private static let customRegistrationConfiguration = TestContext.configuration()
}
