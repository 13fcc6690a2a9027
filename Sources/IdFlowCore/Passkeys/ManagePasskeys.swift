import Foundation
import IdFlowFoundation

/// `idflow passkey list`: every passkey kept here, oldest first, without keys.
public struct ListPasskeys: Sendable {
    public init() {}

    public struct Output: Encodable, Sendable, Equatable {
        public var passkeys: [PasskeySummary]
    }

    public func run(_ context: IdFlowContext) throws(IdFlowError) -> Output {
        Output(passkeys: try PasskeyStore(context).all().map(\.summary))
    }
}

/// `idflow passkey show ID`: one passkey, without its key; exit 5 when none has that id.
public struct ShowPasskey: Sendable {
    public var id: String

    public init(id: String) {
        self.id = id
    }

    public func run(_ context: IdFlowContext) throws(IdFlowError) -> PasskeySummary {
        try PasskeyStore(context).passkey(id).summary
    }
}

/// `idflow passkey delete ID`: forgets the passkey here; the org keeps its enrolment until it is removed there.
public struct DeletePasskey: Sendable {
    public var id: String

    public init(id: String) {
        self.id = id
    }

    public struct Output: Encodable, Sendable, Equatable {
        public var id: String
        public var deleted: Bool
    }

    public func run(_ context: IdFlowContext) throws(IdFlowError) -> Output {
        try PasskeyStore(context).delete(id)
        return Output(id: id, deleted: true)
    }
}

extension PasskeyStore {
    init(_ context: IdFlowContext) {
        self.init(stateDirectory: context.configuration.stateDirectory)
    }
}
