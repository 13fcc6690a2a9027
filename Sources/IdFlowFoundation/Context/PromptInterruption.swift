import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns Ctrl-C (or SIGTERM) at a prompt into something the program can act on: a flow cleans up and exits 130
/// (docs/contract.md) instead of dying by the signal and leaving what it kept for the interrupted work behind.
///
/// While `body` waits for a line, SIGINT and SIGTERM get a handler installed without `SA_RESTART`, so the blocked
/// `read` returns `EINTR` and the prompt returns. A process-directed signal may land on any thread; the handler
/// then forwards it to the prompting thread, whose `read` is the one that must return.
package enum PromptInterruption {
    // Written by the signal handler and read after the prompt returns; a handler can only reach globals.
    /// The signal that arrived during the innermost `catching`, 0 for none.
    nonisolated(unsafe) private static var interrupted: Int32 = 0
    nonisolated(unsafe) private static var promptThread: pthread_t?

    /// Runs `body` (a blocking prompt); throws `.interrupted` when Ctrl-C or SIGTERM arrived while it waited.
    package static func run<T>(_ body: () -> T) throws(IdFlowError) -> T {
        let (result, caught) = catching(body)
        guard !caught else { throw .interrupted("interrupted at the prompt") }
        return result
    }

    /// Runs `body` with SIGINT and SIGTERM caught and returns whether one arrived. Calls nest: the inner one
    /// restores the outer one's handlers and state when it returns.
    static func catching<T>(_ body: () -> T) -> (T, Bool) {
        let outer = (interrupted, promptThread)
        interrupted = 0
        promptThread = pthread_self()
        var action = sigaction()
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = PromptInterruption.handle
        #else
            action.__sigaction_u.__sa_handler = PromptInterruption.handle
        #endif
        var previous: [(Int32, sigaction)] = []
        for signal in Interruption.signals {
            var old = sigaction()
            sigaction(signal, &action, &old)
            previous.append((signal, old))
        }
        // Worker threads (Dispatch, Swift concurrency) block most signals; this one must take them for its read
        // to return.
        let result = withSignalsUnblocked(body)
        for (signal, var old) in previous { sigaction(signal, &old, nil) }
        caughtSignal = interrupted
        let caught = interrupted != 0
        (interrupted, promptThread) = outer
        return (result, caught)
    }

    /// The signal the latest `catching` on this process caught, for `raiseAgain`.
    nonisolated(unsafe) private static var caughtSignal: Int32 = 0

    /// Delivers the signal just caught (SIGINT when none is known) again, synchronously, to whoever handled it
    /// before the innermost `catching`: an outer `catching` records it, a wait's `Interruption` watch cancels the
    /// wait, the default disposition ends the process.
    static func raiseAgain() {
        let signal = caughtSignal != 0 ? caughtSignal : SIGINT
        withSignalsUnblocked { _ = raise(signal) }
    }

    /// Runs `body` with SIGINT and SIGTERM unblocked on this thread, then puts the thread's mask back.
    private static func withSignalsUnblocked<T>(_ body: () -> T) -> T {
        var unblock = sigset_t()
        var mask = sigset_t()
        sigemptyset(&unblock)
        for signal in Interruption.signals { sigaddset(&unblock, signal) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, &mask)
        defer { pthread_sigmask(SIG_SETMASK, &mask, nil) }
        return body()
    }

    /// Whether a signal arrived during the innermost `catching`; a read loop checks it after `EINTR`.
    static var wasInterrupted: Bool { interrupted != 0 }

    private static let handle: @convention(c) (Int32) -> Void = { signal in
        PromptInterruption.interrupted = signal
        if let target = PromptInterruption.promptThread, pthread_equal(target, pthread_self()) == 0 {
            pthread_kill(target, signal)
        }
    }
}

/// The terminal prompt behind `Console.live.promptSecret` and `promptLine`: the prompt on the terminal, one line
/// read with echo off (or on). Unlike getpass(3), which also turns off signals so Ctrl-C would only add a character, Ctrl-C still
/// interrupts: the terminal is put back and the signal (SIGINT, or SIGTERM) raised again for whoever handles it (a
/// flow's `PromptInterruption.run`, or the default, which ends the process).
enum TerminalPrompt {
    static func ask(_ prompt: String, echo: Bool) -> String? {
        let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        let input = tty >= 0 ? tty : 0
        let output = tty >= 0 ? tty : 2
        defer { if tty >= 0 { close(tty) } }
        var saved = termios()
        let hidesEcho = !echo && tcgetattr(input, &saved) == 0
        // Echo goes off before the prompt is shown, and nothing typed is flushed: an answer typed (or pasted, or
        // sent by a program watching the terminal) as soon as the prompt appears is read, not discarded, and
        // never echoed.
        if hidesEcho {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ECHONL)
            tcsetattr(input, TCSANOW, &quiet)
        }
        write(output, prompt, prompt.utf8.count)
        let (line, caught) = PromptInterruption.catching { readLine(input) }
        if hidesEcho { tcsetattr(input, TCSANOW, &saved) }
        if caught {
            write(output, "\n", 1)
            PromptInterruption.raiseAgain()
            return nil
        }
        guard let line, !line.isEmpty else { return nil }
        return line
    }

    /// Reads up to a newline; nil at the end of input or when interrupted.
    private static func readLine(_ fd: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(fd, &byte, 1)
            if count < 0, errno == EINTR, !PromptInterruption.wasInterrupted { continue }
            if count <= 0 { return bytes.isEmpty || PromptInterruption.wasInterrupted ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
