import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns Ctrl-C at a prompt into an error the flow can clean up after (exit 130, CONTRACT.md), instead of the
/// default death by SIGINT that would leave what the flow kept for the interrupted work behind.
///
/// While `body` waits for a line, SIGINT gets a handler installed without `SA_RESTART`, so the blocked `read`
/// returns `EINTR` and the prompt (`getpass`, `readLine`) returns. A process-directed signal may land on any
/// thread; the handler then forwards it to the prompting thread, whose `read` is the one that must return.
enum PromptInterruption {
    // Written by the signal handler and read after the prompt returns; a handler can only reach globals.
    nonisolated(unsafe) private static var interrupted: Int32 = 0
    nonisolated(unsafe) private static var promptThread: pthread_t?

    /// Runs `body` (a blocking prompt); throws `.interrupted` when Ctrl-C arrived while it waited.
    static func run<T>(_ body: () -> T) throws(IdFlowError) -> T {
        interrupted = 0
        promptThread = pthread_self()
        var action = sigaction()
        var previous = sigaction()
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = PromptInterruption.handle
        #else
            action.__sigaction_u.__sa_handler = PromptInterruption.handle
        #endif
        sigaction(SIGINT, &action, &previous)
        let result = body()
        sigaction(SIGINT, &previous, nil)
        promptThread = nil
        guard interrupted == 0 else {
            throw .interrupted("interrupted at the prompt")
        }
        return result
    }

    private static let handle: @convention(c) (Int32) -> Void = { _ in
        PromptInterruption.interrupted = 1
        if let target = PromptInterruption.promptThread, pthread_equal(target, pthread_self()) == 0 {
            pthread_kill(target, SIGINT)
        }
    }
}
