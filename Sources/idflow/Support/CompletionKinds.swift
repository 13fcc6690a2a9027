import ArgumentParser
import Foundation
import IdFlowCore
import IdFlowFoundation

/// What the shells offer for values only this machine knows. The generated scripts run
/// `idflow ---completion …` with the words typed so far; `CompletionCandidates` reads the local files.
extension CompletionKind {
    static var profiles: CompletionKind {
        .custom { words, _, _ in candidates(words).profileNames() }
    }

    static var enrollments: CompletionKind {
        .custom { words, _, _ in candidates(words).enrollmentIDs() }
    }

    static var idxTransactions: CompletionKind {
        .custom { words, _, _ in candidates(words).pendingTransactionIDs() }
    }

    private static func candidates(_ words: [String]) -> CompletionCandidates {
        CompletionCandidates(words: words, environment: ProcessInfo.processInfo.environment)
    }
}
