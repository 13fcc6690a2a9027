extension Duration {
    /// The duration as fractional seconds, for Foundation APIs (`TimeInterval`), millisecond maths and messages.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
