import Foundation
import IdFlowFoundation

/// The progress line of a batch on a terminal's stderr: a bar, lines done, rate and ETA, redrawn in place
/// at most a few times a second and erased before the summary. A terminal without ANSI (`TERM=dumb`) gets no
/// `ESC[K`: the line is overwritten with spaces after a carriage return instead.
public final class BatchProgress: Sendable {
    private let total: Int
    private let erasesInPlace: Bool
    private let write: @Sendable (Data) -> Void
    private let lastDrawn = Locked<ContinuousClock.Instant?>(nil)
    /// The longest line drawn, which spaces must cover when there is no erase sequence.
    private let widest = Locked(0)

    init(total: Int, erasesInPlace: Bool, write: @escaping @Sendable (Data) -> Void) {
        self.total = total
        self.erasesInPlace = erasesInPlace
        self.write = write
    }

    func update(done: Int, elapsed: Duration) {
        let now = ContinuousClock.now
        let due = lastDrawn.withLock { last -> Bool in
            guard done == total || last.map({ now - $0 >= .milliseconds(200) }) ?? true else { return false }
            last = now
            return true
        }
        guard due else { return }
        let line = Self.line(done: done, total: total, elapsed: elapsed)
        write(Data(("\r" + line + erasingRest(after: line.count)).utf8))
    }

    func clear() {
        write(Data(("\r" + erasingRest(after: 0) + (erasesInPlace ? "" : "\r")).utf8))
    }

    /// What clears the rest of the line after `width` characters: the erase sequence, or spaces up to the widest line.
    private func erasingRest(after width: Int) -> String {
        if erasesInPlace { return "\u{1B}[K" }
        let previous = widest.withLock { widest in
            defer { widest = max(widest, width) }
            return widest
        }
        return String(repeating: " ", count: max(previous - width, 0))
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
