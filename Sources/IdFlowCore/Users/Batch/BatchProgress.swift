import Foundation

/// The progress line of a batch on a terminal's stderr: a bar, lines done, rate and ETA, redrawn in place
/// at most a few times a second and erased before the summary.
public final class BatchProgress: Sendable {
    private let total: Int
    private let write: @Sendable (Data) -> Void
    private let lastDrawn = Locked<ContinuousClock.Instant?>(nil)

    init(total: Int, write: @escaping @Sendable (Data) -> Void) {
        self.total = total
        self.write = write
    }

    func update(done: Int, elapsed: Duration) {
        let now = ContinuousClock.now
        let due = lastDrawn.withLock { last -> Bool in
            guard done == total || last.map({ now - $0 >= .milliseconds(200) }) ?? true else { return false }
            last = now
            return true
        }
        if due { write(Data(("\r" + Self.line(done: done, total: total, elapsed: elapsed) + "\u{1B}[K").utf8)) }
    }

    func clear() {
        write(Data("\r\u{1B}[K".utf8))
    }

    /// `[#########...........]  120/1000  37.5 lines/s  ETA 0:23`.
    public static func line(done: Int, total: Int, elapsed: Duration) -> String {
        let width = 20
        let filled = total > 0 ? min(width, done * width / total) : width
        let seconds = elapsed.inSeconds
        let rate = seconds > 0 ? Double(done) / seconds : 0
        var eta = "--:--"
        if rate > 0 {
            let left = Int((Double(total - done) / rate).rounded(.up))
            eta = String(format: "%d:%02d", left / 60, left % 60)
        }
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
            + String(format: "  %d/%d  %.1f lines/s  ETA ", done, total, rate) + eta
    }
}
