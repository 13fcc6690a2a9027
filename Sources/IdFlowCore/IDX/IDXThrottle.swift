import IdFlowFoundation

extension IdFlowError {
    /// Whether the server was still answering 429 after the retries (`--max-retries`): the Identity Engine throttles a
    /// code asked for too soon that way ("Too many requests", idx.md §4). Nothing happened on the server, so an
    /// embedded sign-in that meets it is kept for `--resume`, where a fresh `--remediation resend` may go through.
    var isRateLimited: Bool {
        if case .rateLimited = self { return true }
        return false
    }
}
