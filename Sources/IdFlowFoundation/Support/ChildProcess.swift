import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program started with `posix_spawn(3)`: the browser idflow opens, and every program the tests run (idflow itself,
/// a sandbox, bash, groff). Foundation's `Process` is not used because on Linux (Swift 6.3.1) its `run()` lists
/// `/proc/self/fd` with a read that can run past glibc's `readdir` buffer (swift-corelibs-foundation PR #5472),
/// which crashed the whole test process twice; spawning here reads no directory at all.
///
/// The names follow `Process` (`processIdentifier`, `isRunning`, `terminationStatus`, `terminate()`) so code that
/// used it reads the same. The child inherits no descriptor of the parent's besides the three it is given: pipes are
/// made close-on-exec, and every descriptor from 3 up is closed in the child before it runs (an unrelated file some
/// other thread opened without `O_CLOEXEC` included), and its signal mask and dispositions are reset to the defaults,
/// so a parent that ignores or blocks SIGINT does not hand that to a program a test interrupts.
package final class ChildProcess: @unchecked Sendable {
    /// Where one of the child's standard streams goes.
    package enum Stream: Sendable {
        /// The parent's own stream of that number.
        case inherit
        case nullDevice
        /// A descriptor the caller owns (a terminal, the parent's stderr), duplicated onto the child's stream.
        case fileDescriptor(Int32)
        /// A new pipe whose other end the parent gets as `standardInput`, `standardOutput` or `standardError`.
        case pipe
        /// For stderr only: wherever stdout goes, so one pipe carries both in the order they were written.
        case sameAsStandardOutput
    }

    /// How the child ended, as `Process` says it.
    package enum TerminationReason: Sendable, Equatable {
        case exit
        case uncaughtSignal
    }

    package struct Termination: Sendable, Equatable {
        package var reason: TerminationReason
        /// The exit code, or the number of the signal that ended it.
        package var status: Int32

        package init(reason: TerminationReason, status: Int32) {
            self.reason = reason
            self.status = status
        }
    }

    /// The program could not be started: not found, not executable, a directory that does not exist, no pipes left.
    package struct SpawnFailure: Error, CustomStringConvertible {
        package var executable: String
        package var step: String
        package var code: Int32
        package var description: String { "cannot start \(executable): \(step): \(String(cString: strerror(code)))" }
    }

    package let processIdentifier: pid_t
    /// The parent's end of each stream given as `.pipe`: write the child's stdin, read its stdout and stderr.
    package let standardInput: FileHandle?
    package let standardOutput: FileHandle?
    package let standardError: FileHandle?
    /// Set once the child has been reaped, under the lock, so it is reaped once and never signalled after
    /// (its process id may then belong to another program).
    private let ended = Locked<Termination?>(nil)

    private init(_ pid: pid_t, _ input: FileHandle?, _ output: FileHandle?, _ errors: FileHandle?) {
        processIdentifier = pid
        standardInput = input
        standardOutput = output
        standardError = errors
    }

    /// Starts `executable` (a path, not looked up in PATH) with `arguments` (without argv[0], which is the path),
    /// exactly `environment` (the parent's when nil), in `directory` (the parent's when nil).
    package static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        standardInput: Stream = .inherit, standardOutput: Stream = .inherit, standardError: Stream = .inherit
    ) throws(SpawnFailure) -> ChildProcess {
        func failure(_ step: String, _ code: Int32) -> SpawnFailure {
            SpawnFailure(executable: executable, step: step, code: code)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Descriptors to close in the parent once the child has started (the child's ends), and the parent's ends.
        var childEnds: [Int32] = []
        var parentEnds: [Int32?] = [nil, nil, nil]
        var succeeded = false
        defer {
            for fd in childEnds { close(fd) }
            if !succeeded { for fd in parentEnds.compactMap({ $0 }) { close(fd) } }
        }
        for (target, stream) in [standardInput, standardOutput, standardError].enumerated() {
            let target = Int32(target)
            switch stream {
            case .inherit:
                break
            case .nullDevice:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .fileDescriptor(let fd):
                posix_spawn_file_actions_adddup2(&actions, fd, target)
            case .sameAsStandardOutput:
                posix_spawn_file_actions_adddup2(&actions, 1, target)
            case .pipe:
                guard let (read, write) = closeOnExecPipe() else { throw failure("pipe", errno) }
                let (parent, child) = target == 0 ? (write, read) : (read, write)
                parentEnds[Int(target)] = parent
                childEnds.append(child)
                posix_spawn_file_actions_adddup2(&actions, child, target)
            }
        }
        if let directory {
            let result = Self.addDirectory(&actions, directory)
            guard result == 0 else { throw failure("chdir \(directory)", result) }
        }
        #if !canImport(Darwin)
            // After the dup2 actions above: the child keeps 0, 1 and 2 and nothing else.
            let closing = Self.addCloseFrom3(&actions)
            guard closing == 0 else { throw failure("closefrom", closing) }
        #endif
        let (pid, result) = launch(executable, arguments, environment, &actions)
        guard result == 0 else { throw failure(directory.map { "posix_spawn in \($0)" } ?? "posix_spawn", result) }
        succeeded = true
        return ChildProcess(
            pid, parentEnds[0].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) },
            parentEnds[1].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) },
            parentEnds[2].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) })
    }

    /// `posix_spawn` with `actions`, the signal mask emptied and every signal's disposition the default (an ignored
    /// SIGINT would otherwise survive the exec); returns the child's id and the error number.
    private static func launch(
        _ executable: String, _ arguments: [String], _ environment: [String: String]?, _ actions: inout posix_spawn_file_actions_t
    ) -> (pid_t, Int32) {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        #if canImport(Darwin)
            flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([executable] + arguments).map { strdup($0) }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp ?? [] { free(pointer) }
        }
        var pid: pid_t = 0
        let result = (argv + [nil]).withUnsafeBufferPointer { arguments in
            if let envp {
                return (envp + [nil]).withUnsafeBufferPointer { environment in
                    posix_spawn(&pid, executable, &actions, &attributes, arguments.baseAddress!, environment.baseAddress!)
                }
            }
            return posix_spawn(&pid, executable, &actions, &attributes, arguments.baseAddress!, environ)
        }
        return (pid, result)
    }

    /// Whether the child has not exited yet (reaping it if it has).
    package var isRunning: Bool { reap() == nil }

    /// Blocks the calling thread until the child has exited and returns how. From async code, call it on a thread of
    /// one's own, never a cooperative one.
    @discardableResult
    package func waitUntilExit() -> Termination {
        while true {
            if let termination = reap() { return termination }
            // Waits without reaping (WNOWAIT), so the reaping happens once, under the lock, in `reap()`.
            var info = siginfo_t()
            if waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) == -1, errno != EINTR {
                // Reaped by someone else (SIGCHLD ignored): the status is lost.
                return ended.withLock { ended in
                    if ended == nil { ended = Termination(reason: .exit, status: -1) }
                    return ended!
                }
            }
        }
    }

    /// After the child has exited: its exit code, or the number of the signal that ended it (as `Process`).
    package var terminationStatus: Int32 { waitUntilExit().status }
    package var terminationReason: TerminationReason { waitUntilExit().reason }

    /// Sends `signal` unless the child has already been reaped; says whether it was sent.
    @discardableResult
    package func send(_ signal: Int32) -> Bool {
        ended.withLock { ended in ended == nil && kill(processIdentifier, signal) == 0 }
    }

    /// SIGTERM, as `Process.terminate()`.
    package func terminate() { send(SIGTERM) }

    /// Writes `data` to a child's input, which fails (EPIPE) when the child has exited without reading it all, rather
    /// than ending the writing process with SIGPIPE, which neither idflow nor the test process ignores: the signal is
    /// blocked on this thread for the write and any it raised is taken before the mask is restored.
    package static func write(_ data: Data, to input: FileHandle) throws {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer {
            var now = timespec()
            while sigtimedwait(&pipeSignal, nil, &now) == SIGPIPE {}
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        try input.write(contentsOf: data)
    }

    private func reap() -> Termination? {
        ended.withLock { ended in
            if let ended { return ended }
            var status: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(processIdentifier, &status, WNOHANG) } while result == -1 && errno == EINTR
            guard result == processIdentifier else { return nil }
            // WIFEXITED, WEXITSTATUS and WTERMSIG are macros Swift does not import.
            let signal = status & 0x7f
            ended =
                signal == 0
                ? Termination(reason: .exit, status: (status >> 8) & 0xff) : Termination(reason: .uncaughtSignal, status: signal)
            return ended
        }
    }

    // `pipe2`, `posix_spawn_file_actions_addchdir_np` and `…_addclosefrom_np` sit behind _GNU_SOURCE, which the
    // Glibc module does not define, so they are looked up at run time (glibc 2.9, 2.29 and 2.34).

    private static func closeOnExecPipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [-1, -1]
        #if canImport(Darwin)
            guard pipe(&fds) == 0 else { return nil }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        #else
            typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2"),
                unsafeBitCast(symbol, to: Pipe2.self)(&fds, O_CLOEXEC) == 0
            else { return nil }
        #endif
        return (fds[0], fds[1])
    }

    private static func addDirectory(_ actions: inout posix_spawn_file_actions_t, _ directory: String) -> Int32 {
        #if canImport(Darwin)
            return posix_spawn_file_actions_addchdir_np(&actions, directory)
        #else
            typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else { return ENOSYS }
            return unsafeBitCast(symbol, to: AddChdir.self)(&actions, directory)
        #endif
    }

    #if !canImport(Darwin)
        private static func addCloseFrom3(_ actions: inout posix_spawn_file_actions_t) -> Int32 {
            typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            // Before glibc 2.34 the close-on-exec pipes are what keeps the child's descriptors to its three.
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return 0 }
            return unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
        }
    #endif
}
