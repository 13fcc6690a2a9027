import Foundation

@testable import IdFlowCore
@testable import IdFlowFoundation

/// One server answer given to several endpoints' readers (`APIRequest.decode`), as each of them would get it,
/// keeping the errors they end in so that each is then shown as a user would see it.
struct AnswerReader {
    let response: HTTPResponse
    private(set) var errors: [IdFlowError] = []

    init(_ response: HTTPResponse) {
        self.response = response
    }

    mutating func read<R: APIRequest>(_ request: R) -> R.Response? {
        do throws(IdFlowError) {
            return try request.decode(response)
        } catch {
            errors.append(error)
            return nil
        }
    }

    mutating func record(_ error: IdFlowError) { errors.append(error) }

    /// Each error's message, hint and JSON error document (`ErrorReport`), as a command prints them.
    func showErrors() {
        let encoder = JSONEncoder()
        for error in errors {
            _ = error.message
            _ = error.hint
            _ = try? encoder.encode(ErrorReport(error))
        }
    }
}
