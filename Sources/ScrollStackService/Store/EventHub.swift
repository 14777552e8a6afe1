import Jansson
import MicroHTTP
import Synchronization

/// The live event streams (Server-Sent Events) open on each stack.
///
/// Mutations publish under their stack's write lock and subscribers register under its read
/// lock, so a subscriber gets every revision after the one it starts from exactly once.
final class EventHub: Sendable {
    private let streams = Mutex<[String: [ObjectIdentifier: HTTPStream]]>([:])

    /// Adds a stream to `stack`'s subscribers; it leaves them when it closes.
    func subscribe(_ stream: HTTPStream, to stack: String) {
        let key = ObjectIdentifier(stream)
        streams.withLock { $0[stack, default: [:]][key] = stream }
        stream.onClose { [weak self] in
            self?.streams.withLock { $0[stack]?[key] = nil }
        }
    }

    /// Sends `message` to every subscriber of `stack`; it is made only when there is one.
    func publish(_ message: @autoclosure () -> [UInt8], to stack: String) {
        let subscribers = streams.withLock { Array(($0[stack] ?? [:]).values) }
        guard !subscribers.isEmpty else { return }
        let bytes = message()
        for stream in subscribers {
            stream.write(bytes)
        }
    }

    /// Ends every stream of `stack` (it was deleted).
    func closeAll(_ stack: String) {
        for stream in streams.withLock({ Array(($0.removeValue(forKey: stack) ?? [:]).values) }) {
            stream.close()
        }
    }

    /// One Server-Sent Event: `id:` the revision, `data:` the revision's events as JSON.
    static func message(revision: Int, events: JSON) -> [UInt8] {
        let data = JSON.object(JSONObject([("revision", .integer(Int64(revision))), ("events", events)])).serialized()
        return Array("id: \(revision)\ndata: ".utf8) + data + Array("\n\n".utf8)
    }
}
