import Foundation
import HTTPTypes
import Hummingbird

/// How the Identity Engine answers a code asked for too soon: HTTP 429 with the step's document and the top-level
/// message "Too many requests" (`tooManyRequests`), as `error-429-authenticator-verification-email-polling.json`
/// records it, and the `X-Rate-Limit-*` headers Okta puts on every 429, their reset being the moment another code
/// may go. A client that waits for the reset before trying again (idflow's does, `--max-retries`) then gets its code;
/// one that stops shows the message.
enum IDXThrottle {
    static func throttled(_ response: Response, retryAt: Date) -> Response {
        var response = response
        response.headers[.rateLimitLimit] = "1"
        response.headers[.rateLimitRemaining] = "0"
        response.headers[.rateLimitReset] = String(Int(retryAt.timeIntervalSince1970.rounded(.up)))
        return response
    }
}

extension SandboxState {
    /// When the step's last code allows another (`codeResendInterval` after it); now if it has none.
    func nextCodeAllowed(_ transaction: IDXTransaction) -> Date {
        switch transaction.step {
        case .challengeCode(_, let code), .enrollEmail(_, let code), .enrollPhone(_, _, let code):
            return code.sentAt.addingTimeInterval(Self.codeResendInterval)
        default:
            return clock.now
        }
    }
}
