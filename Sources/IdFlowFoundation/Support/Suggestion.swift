/// "Did you mean": the known name closest to a mistyped one, for errors that name what the user could have typed.
public enum Suggestion {
    /// The candidate within a small edit distance of `word` (a third of its length, at least 2), the closest
    /// first; nil when nothing is close enough to be a typo of it.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let limit = max(2, word.count / 3)
        return
            candidates
            .map { (candidate: $0, distance: distance(word.lowercased(), $0.lowercased())) }
            .filter { $0.distance <= limit && $0.distance < max(word.count, $0.candidate.count) }
            .min { $0.distance < $1.distance }?.candidate
    }

    /// ` (did you mean "x"?)`, or nothing when no candidate is close.
    public static func didYouMean(_ word: String, among candidates: [String]) -> String {
        closest(to: word, among: candidates).map { " (did you mean \"\($0)\"?)" } ?? ""
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours each
    /// cost one, so `emial` is one step from `email`.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
    }
}
