/// The version idflow reports in `--version` and in its `User-Agent`.
public enum IdFlowVersion {
    public static let string = "0.1.0"

    /// The `User-Agent` every request carries, so server logs can tell idflow's traffic apart.
    public static var userAgent: String { "idflow/\(string)" }
}
