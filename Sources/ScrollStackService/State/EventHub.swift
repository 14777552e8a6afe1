import JSONCodec
import MicroHTTP
import Synchronization

/// The live event streams (Server-Sent Events) open on each stack, and the one point each
/// stack's revisions are published through.
///
/// **Publication point.** While a stack has streams, the hub keeps the last revision it
/// published for it (`published`) and sends a revision only as `published + 1`, whichever
/// thread offers it: a replica's own commits (the committing thread), the revisions it
/// applies from others (the listener or a request catching up) and those a recovery applies
/// are offered from different threads, in any order. An offer at or below `published` is
/// dropped (each revision is sent once); one further ahead is kept (`ahead`) until the ones
/// before it arrive, and its gap is fetched from the journal at once (`fill`, on the
/// offering thread) so that no revision waits for an offer that may never come. Revisions
/// kept ahead are sent as soon as the gap closes, in order. A gap the journal cannot fill
/// (unreachable, or the key was replaced) ends the stack's streams: clients resume from
/// their `Last-Event-ID`, and the journal supplies what they missed.
///
/// **Streams.** Each stream also keeps the last revision it sent: one subscribed behind the
/// point (from a state older than what was published) ends at the next publication rather
/// than skip a revision. A stream that subscribes ahead of the point (its stack was loaded
/// anew, past revisions nobody published here) moves the point to its revision and ends the
/// streams that would have a gap.
///
/// **Relays.** A stream may also subscribe to other stacks as a relay (a host's stream
/// following the stacks its rows embed): it gets their revisions by the same rules, each
/// written as a named event (`event: embedded`, with the relay's `path` and `stack`) and
/// without an `id:`, so that its client's `Last-Event-ID` stays the host's revision.
///
/// - Complexity: O(subscribers of the stack) per revision sent; O(1) per offer for a stack
///   without streams (none is kept); O(stacks with streams) when a stream ends.
final class EventHub: Sendable {
    private final class Subscriber: @unchecked Sendable {
        let stream: HTTPStream
        /// The last revision sent (guarded by the hub's mutex).
        var sent: Int
        /// For a relay: what its messages start with (`event: embedded` and `data: {` with
        /// the path and the stack, then the revision's members); nil for the stack's own streams.
        let relay: [UInt8]?
        init(_ stream: HTTPStream, sent: Int, relay: [UInt8]?) {
            self.stream = stream
            self.sent = sent
            self.relay = relay
        }

        /// The Server-Sent Event of `revision` whose `data` is `data` (a JSON object), for this subscriber.
        func message(revision: Int, data: [UInt8]) -> [UInt8] {
            guard let relay else { return Array("id: \(revision)\ndata: ".utf8) + data + Array("\n\n".utf8) }
            return relay + data.dropFirst() + Array("\n\n".utf8)
        }
    }

    /// One stack's streams and its publication point.
    private struct Channel {
        var subscribers: [ObjectIdentifier: Subscriber]
        /// The last revision published.
        var published: Int
        /// The data (`{"revision", "events"}`) of revisions offered ahead of `published + 1`, by revision.
        var ahead: [Int: [UInt8]] = [:]
    }

    /// The journal's events of a stack after revision `after`, up to `upTo`, in order (nil
    /// when the journal cannot be read): what fills a gap.
    typealias Fill = @Sendable (_ key: String, _ after: Int, _ upTo: Int) -> [(revision: Int, events: [UInt8])]?

    /// At most this many revisions are kept ahead of a stack's point; past it, its streams end.
    static let aheadLimit = 1024

    private let channels = Mutex<[String: Channel]>([:])
    private let fill: Mutex<Fill?> = Mutex(nil)

    /// Test hook: called with (key, revision) on the offering thread before an offer is
    /// taken, so a test can hold one path's offer while another's goes through.
    let offerGate = Mutex<(@Sendable (String, Int) -> Void)?>(nil)

    /// Sets where gaps are fetched from (the service's journal). Without one, a gap ends the
    /// stack's streams at once.
    func fillGaps(from fill: @escaping Fill) {
        self.fill.withLock { $0 = fill }
    }

    /// Adds a stream to `stack`'s subscribers, as having sent every revision up to `revision`
    /// (as a relay when `relay` is given: `relayPrefix`); it leaves every stack it follows
    /// when it closes (a stack's point goes with its last stream).
    func subscribe(_ stream: HTTPStream, to stack: String, after revision: Int, relay: [UInt8]? = nil) {
        let key = ObjectIdentifier(stream)
        let subscriber = Subscriber(stream, sent: revision, relay: relay)
        let ended = channels.withLock { channels -> [HTTPStream] in
            guard var channel = channels[stack] else {
                channels[stack] = Channel(subscribers: [key: subscriber], published: revision)
                return []
            }
            var ended: [HTTPStream] = []
            if revision > channel.published {
                // Revisions up to `revision` were never published here: the point moves on.
                channel.published = revision
                channel.ahead = channel.ahead.filter { $0.key > revision }
                for (id, other) in channel.subscribers where other.sent < revision {
                    ended.append(other.stream)
                    channel.subscribers[id] = nil
                }
            }
            channel.subscribers[key] = subscriber
            Self.drain(&channel, ended: &ended)
            channels[stack] = channel
            return ended
        }
        for stream in ended { stream.close() }
        // One handler per stream (a later subscription replaces it): it leaves every stack.
        stream.onClose { [weak self] in
            self?.channels.withLock { channels in
                for stack in Array(channels.keys) where channels[stack]?.subscribers[key] != nil {
                    channels[stack]?.subscribers[key] = nil
                    if channels[stack]?.subscribers.isEmpty == true { channels[stack] = nil }
                }
            }
        }
    }

    /// What a relay's messages start with: `event: embedded`, then the data object's first
    /// members, `path` (each level's `stack` and the `row` that embeds the next) and `stack`.
    static func relayPrefix(path: [(stack: String, row: String)], stack: String) -> [UInt8] {
        let levels = path.map { JSON.object(JSONObject([("stack", .string($0.stack)), ("row", .string($0.row))])) }
        let head = JSON.object(JSONObject([("path", .array(levels)), ("stack", .string(stack))])).serialized()
        return Array("event: embedded\ndata: ".utf8) + head.dropLast() + Array(",".utf8)
    }

    /// Offers revision `revision` of `stack` (its `events`, made only when the stack has
    /// streams that have not had it, and outside the hub's mutex): sent now if it is the
    /// point's next, kept if it is further ahead (its gap fetched), dropped if published.
    func publish(revision: Int, events: () -> [UInt8], to stack: String) {
        if let gate = offerGate.withLock({ $0 }) { gate(stack, revision) }
        if let gap = offer(revision: revision, events: events, to: stack) { fillGap(stack, after: gap.after, upTo: gap.upTo) }
    }

    /// Takes an offer at the point; returns the gap before the revisions kept ahead, if any.
    private func offer(revision: Int, events: () -> [UInt8], to stack: String) -> (after: Int, upTo: Int)? {
        let wanted = channels.withLock { $0[stack].map { revision > $0.published } ?? false }
        guard wanted else { return nil }
        let message = Self.data(revision: revision, events: events())
        var ended: [HTTPStream] = []
        let gap = channels.withLock { channels -> (after: Int, upTo: Int)? in
            guard var channel = channels[stack], revision > channel.published else { return nil }
            defer { channels[stack] = channel }
            channel.ahead[revision] = message
            Self.drain(&channel, ended: &ended)
            guard let first = channel.ahead.keys.min() else { return nil }
            if channel.ahead.count > Self.aheadLimit {
                ended += channel.subscribers.values.map(\.stream)
                channel.subscribers = [:]
                channel.ahead = [:]
                return nil
            }
            return (channel.published, first - 1)
        }
        for stream in ended { stream.close() }
        return gap
    }

    /// Offers the journal's revisions `after + 1 … upTo` of `stack`; ends its streams if the
    /// gap is still open then (the journal unreachable, or without those revisions).
    private func fillGap(_ stack: String, after: Int, upTo: Int) {
        let found = fill.withLock({ $0 })?(stack, after, upTo)
        for (revision, events) in found ?? [] where revision > after && revision <= upTo {
            _ = offer(revision: revision, events: { events }, to: stack)
        }
        let stuck = channels.withLock { channels -> [HTTPStream] in
            guard let channel = channels[stack], let first = channel.ahead.keys.min(), first > channel.published + 1,
                  channel.published < upTo else { return [] }
            channels[stack] = nil
            return channel.subscribers.values.map(\.stream)
        }
        for stream in stuck { stream.close() }
    }

    /// Sends the revisions kept ahead that now follow the point, in order.
    private static func drain(_ channel: inout Channel, ended: inout [HTTPStream]) {
        while let message = channel.ahead.removeValue(forKey: channel.published + 1) {
            channel.published += 1
            for (id, subscriber) in channel.subscribers where subscriber.sent < channel.published {
                if subscriber.sent == channel.published - 1 {
                    // Written under the mutex (a copy into the stream's buffer), so that two
                    // revisions reach a stream in the order they were published in.
                    subscriber.stream.write(subscriber.message(revision: channel.published, data: message))
                    subscriber.sent = channel.published
                } else {
                    ended.append(subscriber.stream)
                    channel.subscribers[id] = nil
                }
            }
        }
    }

    /// The last revision published for `stack`, nil when it has no streams.
    func published(_ stack: String) -> Int? {
        channels.withLock { $0[stack]?.published }
    }

    /// Every stack with streams, with the last revision published for it.
    ///
    /// - Complexity: O(stacks with streams).
    func streamed() -> [String: Int] {
        channels.withLock { $0.mapValues(\.published) }
    }

    /// Ends every stream of `stack` (it was deleted, or replaced) and drops its point.
    func closeAll(_ stack: String) {
        for subscriber in channels.withLock({ Array(($0.removeValue(forKey: stack)?.subscribers ?? [:]).values) }) {
            subscriber.stream.close()
        }
    }

    /// One Server-Sent Event: `id:` the revision, `data:` the revision's events (the text of
    /// a JSON array, as answers write it).
    static func message(revision: Int, events: [UInt8]) -> [UInt8] {
        Array("id: \(revision)\ndata: ".utf8) + data(revision: revision, events: events) + Array("\n\n".utf8)
    }

    /// A revision's event data: `{"revision", "events"}`, `events` being the text of a JSON array.
    static func data(revision: Int, events: [UInt8]) -> [UInt8] {
        Array(#"{"revision":\#(revision),"events":"#.utf8) + events + Array("}".utf8)
    }

    /// The journal's text of a revision's events (reals at 17 digits) as answers write it
    /// (at 15); an empty array for a text that is not JSON. O(its bytes).
    static func answerText(ofJournaled events: [UInt8]) -> [UInt8] {
        (try? JSON.parse(events))?.serialized() ?? Array("[]".utf8)
    }
}
