/// A password or token; its description never shows the value, so it cannot leak through string interpolation
/// or a debug print by accident.
public struct Secret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public let value: String

    public init(_ value: String) {
        self.value = value
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
}
