import Jansson
import MicroHTTP
import Synchronization

/// The live event streams (Server-Sent Events) open on each stack.
///
/// Each stream sends every revision after the one it started from exactly once, in order,
/// whatever order revisions are published in: the hub keeps the last revision each stream
/// sent. A revision at or below it is not sent again; one beyond the next (a revision
/// skipped, or published ahead of an earlier one) ends the stream, and its client resumes
/// from its `Last-Event-ID`, where the journal supplies what it missed. On one server
/// revisions are published in order; on replicas a replica's own commits and the revisions
/// it applies from others are published from different threads.
///
/// - Complexity: O(subscribers of the stack) per publication.
final class EventHub: Sendable {
    private final class Subscriber: @unchecked Sendable {
        let stream: HTTPStream
        /// The last revision sent (guarded by the hub's mutex).
        var sent: Int
        init(_ stream: HTTPStream, sent: Int) {
            self.stream = stream
            self.sent = sent
        }
    }

    private let streams = Mutex<[String: [ObjectIdentifier: Subscriber]]>([:])

    /// Adds a stream to `stack`'s subscribers, as having sent every revision up to `revision`;
    /// it leaves them when it closes.
    func subscribe(_ stream: HTTPStream, to stack: String, after revision: Int) {
        let key = ObjectIdentifier(stream)
        streams.withLock { $0[stack, default: [:]][key] = Subscriber(stream, sent: revision) }
        stream.onClose { [weak self] in
            self?.streams.withLock { $0[stack]?[key] = nil }
        }
    }

    /// Sends revision `revision` (its `events`, made only when some stream is due to get it,
    /// and outside the hub's mutex) to every subscriber of `stack` whose last revision sent is
    /// the one before; ends the streams it would leave a gap in.
    func publish(revision: Int, events: () -> JSON, to stack: String) {
        let due = streams.withLock { streams in
            streams[stack]?.values.contains { $0.sent == revision - 1 } ?? false
        }
        var message = due ? Self.message(revision: revision, events: events()) : nil
        var ended: [HTTPStream] = []
        streams.withLock { streams in
            guard let subscribers = streams[stack] else { return }
            for subscriber in subscribers.values where subscriber.sent < revision {
                if subscriber.sent == revision - 1 {
                    // (One subscribed between the two looks: made here, once.)
                    if message == nil { message = Self.message(revision: revision, events: events()) }
                    // Written under the mutex (a copy into the stream's buffer), so that two
                    // publications reach a stream in the order they were decided in.
                    subscriber.stream.write(message!)
                    subscriber.sent = revision
                } else {
                    ended.append(subscriber.stream)
                }
            }
        }
        for stream in ended { stream.close() }
    }

    /// Ends every stream of `stack` (it was deleted).
    func closeAll(_ stack: String) {
        for subscriber in streams.withLock({ Array(($0.removeValue(forKey: stack) ?? [:]).values) }) {
            subscriber.stream.close()
        }
    }

    /// One Server-Sent Event: `id:` the revision, `data:` the revision's events as JSON.
    static func message(revision: Int, events: JSON) -> [UInt8] {
        let data = JSON.object(JSONObject([("revision", .integer(Int64(revision))), ("events", events)])).serialized()
        return Array("id: \(revision)\ndata: ".utf8) + data + Array("\n\n".utf8)
    }
}
