import Foundation

/// An optional key of a printed document that is written as `null` when there is no value, where synthesized
/// `Encodable` would leave the key out, so a script can read `.transactionId` without guessing whether it exists.
@propertyWrapper
public struct NullWhenAbsent<Value: Encodable>: Encodable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension NullWhenAbsent: Sendable where Value: Sendable {}
extension NullWhenAbsent: Equatable where Value: Equatable {}
