internal import CCurl
import Foundation

/// The one thread that drives libcurl's multi interface for a `CurlTransport`.
///
/// Callers put configured transfers in `inbox` and wake the thread (`curl_multi_wakeup`, the one multi call
/// that is safe from another thread); the thread adds them to the multi handle, runs `curl_multi_perform`
/// and `curl_multi_poll`, and resumes each caller once its transfer is done. Every other libcurl call on the
/// multi handle happens on this thread only. The multi handle keeps the connection and DNS caches, so
/// consecutive requests to one host reuse a connection (or share one HTTP/2 connection).
///
/// The thread must be done with libcurl before the process exits: `exit` runs OpenSSL's own exit handler,
/// which frees OpenSSL's locks, and a thread still closing a TLS connection at that moment crashes on one
/// (seen in CI: a command printed its tokens, its transport shut the loop down, and it died of SIGSEGV on
/// the way out). So every running loop is ended, and waited for, by an exit handler of our own
/// (`endAllBeforeExit`), registered after libcurl's set-up so that it runs before OpenSSL's.
final class CurlMultiLoop: @unchecked Sendable {
    /// Enough for `register --batch --concurrency 64` (the CLI's maximum) to keep 64 requests in flight to one
    /// host and 64 idle connections cached.
    static let maximumConnections = 64

    /// How long to wait in `curl_multi_poll` with transfers running: libcurl's next timeout
    /// (`curl_multi_timeout`), never more than a second.
    static func busyPollMilliseconds(_ multi: UnsafeMutableRawPointer) -> Int32 {
        var next = -1
        idflow_curl_multi_timeout(multi, &next)
        return Int32(next < 0 ? 1000 : min(max(next, 0), 1000))
    }

    private struct Inbox {
        var arriving: [CurlTransfer] = []
        /// Finish what runs, then end (the transport is gone).
        var stopping = false
        /// End now, failing what runs (the process is exiting).
        var abandoning = false
        /// The thread has left its loop and frees the multi handle: nothing more is taken, and nobody may wake it
        /// (`curl_multi_wakeup` on a handle being freed). Set under this lock, so a waker holding it knows.
        var closing = false
    }

    /// Every loop whose thread has not ended yet, for `endAllBeforeExit`.
    private static let running = Locked<[ObjectIdentifier: CurlMultiLoop]>([:])
    /// How long the exit handler waits for the loops' threads; past it the process exits anyway.
    private static let exitDeadline: Double = 2

    private let multi: UnsafeMutableRawPointer
    private let inbox = Locked(Inbox())
    /// Finished easy handles, reset and kept for the next request rather than freed and allocated again.
    private let spareHandles = Locked<[UnsafeMutableRawPointer]>([])
    /// Signalled when the thread has ended (and again by each waiter that saw it).
    private let threadEnded = DispatchSemaphore(value: 0)

    init() throws {
        if let problem = Self.globalInit { throw TransportFailure(.unknown, reason: problem) }
        guard let multi = idflow_curl_multi_init() else {
            throw TransportFailure(.unknown, reason: "libcurl could not start")
        }
        self.multi = multi
        _ = idflow_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, Self.maximumConnections)
        _ = idflow_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, Self.maximumConnections)
        Self.running.withLock { $0[ObjectIdentifier(self)] = self }
        Thread.detachNewThread { [self] in
            // Named from inside: corelibs Foundation does not pass a name set before `start` to the OS thread.
            Thread.current.name = "idflow-curl"
            run()
        }
    }

    /// libcurl opened (`idflow_curl_load`: dlopen, at the first transport rather than at start-up) and
    /// curl_global_init run, once per process, before any other libcurl call; nil when that worked, else why not
    /// (libcurl missing or too old). curl_global_init initialises OpenSSL, which registers its exit handler then if
    /// not before; `exit` runs handlers last-registered first, so ours, registered after, ends the loops while
    /// OpenSSL is still whole.
    private static let globalInit: String? = {
        if let problem = idflow_curl_load() { return String(cString: problem) }
        atexit { CurlMultiLoop.endAllBeforeExit() }
        return nil
    }()

    /// Ends every running loop (transfers still under way fail as cancelled) and waits for their threads,
    /// at most `exitDeadline` in all. True when every thread ended in time.
    @discardableResult
    static func endAllBeforeExit() -> Bool {
        let deadline = DispatchTime.now() + exitDeadline
        return running.withLock { Array($0.values) }.allSatisfy { $0.end(waitingUntil: deadline) }
    }

    /// The system CA bundle libcurl uses when none is set, which `--ca-file` adds to rather than replaces.
    static let defaultCAFile: String? = {
        guard globalInit == nil else { return nil }
        return idflow_curl_default_ca_file().map { String(cString: $0) }
    }()

    func takeHandle() throws -> UnsafeMutableRawPointer {
        if let spare = spareHandles.withLock({ $0.popLast() }) { return spare }
        guard let handle = idflow_curl_easy_init() else {
            throw TransportFailure(.unknown, reason: "libcurl could not start")
        }
        return handle
    }

    func returnHandle(_ handle: UnsafeMutableRawPointer?) {
        guard let handle else { return }
        idflow_curl_easy_reset(handle)
        let kept = spareHandles.withLock { spares in
            guard spares.count < Self.maximumConnections else { return false }
            spares.append(handle)
            return true
        }
        if !kept { idflow_curl_easy_cleanup(handle) }
    }

    /// Queues a configured transfer whose `continuation` is set; it is resumed exactly once, on this thread.
    func start(_ transfer: CurlTransfer) {
        let taken = inbox.withLock { inbox in
            guard !inbox.abandoning, !inbox.closing else { return false }
            inbox.arriving.append(transfer)
            idflow_curl_multi_wakeup(multi)
            return true
        }
        if !taken { abandon(transfer) }
    }

    /// Ends the thread once the transfers it runs are done (the transport is gone, so no new ones come).
    func shutdown() {
        wake { $0.stopping = true }
    }

    /// Ends the thread now, failing the transfers it runs, and waits for it until `deadline`. True once the
    /// thread has ended, so libcurl is no longer in use on it.
    func end(waitingUntil deadline: DispatchTime) -> Bool {
        wake { $0.abandoning = true }
        guard threadEnded.wait(timeout: deadline) == .success else { return false }
        threadEnded.signal()
        return true
    }

    /// Changes the inbox and wakes the thread, unless it is already closing.
    private func wake(_ change: (inout Inbox) -> Void) {
        inbox.withLock { inbox in
            change(&inbox)
            if !inbox.closing { idflow_curl_multi_wakeup(multi) }
        }
    }

    private func run() {
        var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
        while true {
            // Whether to end is decided here, under the lock that wakers take, so none wakes a closing handle.
            let (arriving, closing) = inbox.withLock { inbox in
                defer { inbox.arriving.removeAll() }
                inbox.closing = inbox.abandoning || (inbox.stopping && active.isEmpty && inbox.arriving.isEmpty)
                return (inbox.arriving, inbox.closing)
            }
            if closing {
                for (handle, transfer) in active {
                    idflow_curl_multi_remove_handle(multi, handle)
                    abandon(transfer)
                }
                arriving.forEach(abandon)
                break
            }
            for transfer in arriving {
                guard let handle = transfer.handle else { continue }
                let code = idflow_curl_multi_add_handle(multi, handle)
                if code == CURLM_OK {
                    active[handle] = transfer
                } else {
                    transfer.finish(result: CURLE_FAILED_INIT)
                    resume(transfer)
                }
            }
            var running: Int32 = 0
            _ = idflow_curl_multi_perform(multi, &running)
            collectFinished(from: &active)
            // Returns when a socket is ready, libcurl's own timeout passes, or `start`/`shutdown` wakes it. While
            // transfers run, the wait is also capped at a second: a request's timeout was once seen noticed only
            // when its server finally answered, 30 s late, so the loop looks at the clock at least that often.
            _ = idflow_curl_multi_poll(multi, nil, 0, active.isEmpty ? 60_000 : Self.busyPollMilliseconds(multi), nil)
        }
        idflow_curl_multi_cleanup(multi)
        spareHandles.withLock { spares in
            for handle in spares { idflow_curl_easy_cleanup(handle) }
            spares.removeAll()
        }
        Self.running.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(self)) }
        threadEnded.signal()
    }

    /// Fails a transfer the loop will not run (the process is exiting): its caller gets `.cancelled`.
    private func abandon(_ transfer: CurlTransfer) {
        transfer.finish(result: CURLE_ABORTED_BY_CALLBACK)
        resume(transfer)
    }

    private func collectFinished(from active: inout [UnsafeMutableRawPointer: CurlTransfer]) {
        var left: Int32 = 0
        while let message = idflow_curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
            // The message is freed by curl_multi_remove_handle, so its result is read first.
            let result = idflow_curl_msg_result(message)
            idflow_curl_multi_remove_handle(multi, handle)
            guard let transfer = active.removeValue(forKey: handle) else { continue }
            transfer.finish(result: result)
            resume(transfer)
        }
    }

    private func resume(_ transfer: CurlTransfer) {
        let continuation = transfer.continuation
        transfer.continuation = nil
        continuation?.resume()
    }
}
