import ScrollStackCore
import Synchronization

/// What a scratch service that journals nothing needs to replay the requests of the old
/// journal formats (`StackService.replayRequest`): it catches the encoded operation of each
/// mutation it applies, and rebuilds a past revision a revert asks for without the journal.
final class ReplayContext: Sendable {
    private let last = Mutex<[UInt8]?>(nil)
    /// The state of a past revision of the stack being replayed.
    let pastState: (@Sendable (Int) throws(APIError) -> ScrollStack)?

    init(pastState: (@Sendable (Int) throws(APIError) -> ScrollStack)? = nil) {
        self.pastState = pastState
    }

    func record(_ operation: [UInt8]) { last.withLock { $0 = operation } }

    /// The operation recorded since the last call, if any.
    func take() -> [UInt8]? { last.withLock { value in defer { value = nil }; return value } }
}
