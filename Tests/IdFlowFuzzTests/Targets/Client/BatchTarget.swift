import Foundation
import IdFlowTestSupport

@testable import IdFlowCore
@testable import IdFlowFoundation

extension FuzzTargets {
    /// A `register --batch` file, CSV or NDJSON: its format told from the bytes, its lines read, and (for a short
    /// file) the batch run against an org that creates every user, so each line's output is written as it would be.
    static let batch = FuzzTarget(
        name: "batch",
        summary: "register --batch input, CSV and NDJSON, parsed and run against an org that creates every user"
    ) { input in
        let format = BatchFormat.detect(fileName: nil, data: input)
        for other in BatchFormat.allCases {
            _ = try? BatchInput.parse(input, format: other)
        }
        guard let lines = try? BatchInput.parse(input, format: format), lines.count <= 32 else { return }
        let context = TestContext.make(transport: batchOrg, configuration: batchConfiguration)
        let encoder = JSONEncoder()
        blocking {
            _ = try? await BatchRegistration(source: .data(input), concurrency: 2).run(context) { line in
                _ = try? encoder.encode(line)
            }
        }
    }

    /// Answers every user creation with the recorded STAGED user.
    private static let batchOrg: RoutedTransport = {
        let user = (try? Fixtures.data("okta-core/user-staged-create-activate-false-oie.json")) ?? Data("{}".utf8)
        return RoutedTransport { request in
            guard request.route == "POST /api/v1/users" else { return nil }
            return RoutedTransport.Reply(status: 200, headers: ["Content-Type": "application/json"], body: user)
        }
    }()

    private static let batchConfiguration = TestContext.configuration()
}
