import JSONCodec
import MicroHTTP
import ScrollStackStore

/// What stacks and piles share of their journal: a key's stored journal, its events as
/// pages of history and as live Server-Sent Events streams (the journal's backlog, then the
/// `EventHub`'s new revisions). Knows keys, not stacks or piles.
final class EventFeed: Sendable {
    /// Where the events are journaled; nil only for the scratch services of a replay.
    let journal: StackJournal?
    /// The live streams, by journal key.
    let hub: EventHub
    /// The most bytes of events one answer (a page of history, a stream's backlog) holds.
    let eventsAnswerBytes: Int

    init(journal: StackJournal?, hub: EventHub, eventsAnswerBytes: Int) {
        self.journal = journal
        self.hub = hub
        self.eventsAnswerBytes = eventsAnswerBytes
    }

    /// The journal of `key` as stored up to `revision` (its nearest snapshot at or before it and
    /// the records after it), with the store's errors mapped to API errors. A replica passes the
    /// `incarnation` it knows the key as: a journal that no longer holds it (deleted, or
    /// deleted and created again elsewhere) is then a revision conflict.
    /// - Throws: `notFound` when there is no such journal.
    func storedJournal(_ key: String, upTo revision: Int = Int(Int64.max), incarnation: Int64? = nil,
                       notFound: APIError) throws(APIError) -> StoredJournal {
        guard let journal else { throw notFound }
        let found: StoredJournal?
        do throws(JournalError) { found = try journal.load(only: key, upTo: revision).first } catch { throw APIError(error) }
        if let incarnation, found?.incarnation != incarnation { throw APIError(JournalError.conflict(key: key, latest: nil)) }
        guard let found else { throw notFound }
        return found
    }

    /// `{revision, events, next?}`: the events journaled under `key` (a stack's id, or a pile's
    /// with its prefix) for at most `limit` revisions after `after`, each tagged with its
    /// revision, in at most `eventsAnswerBytes` bytes of answer (but at least one
    /// revision, however big). When it stops before `revision` (the latest), `next` is this
    /// URL with `after` set to the last revision answered.
    ///
    /// - Complexity: O(events answered); the journal is read a few revisions at a time
    ///   (`journalPiece`), so no more than about the budget is held at once.
    func journaledHistory(key: String, after: Int, limit: Int, revision: Int, _ c: RequestContext) throws(APIError) -> HTTPResponse {
        let piece = try journalPiece(key: key, after: after, upTo: .max, limit: limit, budget: eventsAnswerBytes) { eventRevision, blob in
            // The revision's events, without the array's brackets: joined with the others'.
            var w = JSONWriter(capacity: blob.count + 64)
            w.beginArray()
            for case .object(var event) in (try? JSON.parse(blob))?.arrayValue ?? [] {
                event["revision"] = .integer(Int64(eventRevision))
                w.value(.object(event))
            }
            w.endArray()
            return Array(w.take().dropFirst().dropLast())
        }
        var text = Array(#"{"revision":\#(revision),"events":["#.utf8)
        text.reserveCapacity(piece.bytes + 256)
        var first = true
        for part in piece.parts where !part.bytes.isEmpty {
            if !first { text.append(UInt8(ascii: ",")) }
            first = false
            text += part.bytes
        }
        text.append(UInt8(ascii: "]"))
        if let last = piece.parts.last?.revision, last < revision, piece.atBudget || piece.parts.count == limit {
            text += Array(#","next":"#.utf8) + JSON.string(c.link(replacing: "after", with: String(last))).serialized()
        }
        text.append(UInt8(ascii: "}"))
        return .json(200, text: text, revision: revision)
    }

    /// The journaled revisions of `key` after `after`, up to revision `upTo` and at most
    /// `limit` of them, each rendered by `render` (its revision and its events as journaled),
    /// until the rendered bytes would pass `budget`: always at least one revision, however
    /// big. `atBudget`: it stopped there, with a further revision read and left out.
    ///
    /// The journal is read one revision first, then as many as the rest of the budget holds
    /// at the largest size seen (at most 256), so a read never holds much more than the
    /// budget. O(revisions read + their bytes).
    func journalPiece(key: String, after: Int, upTo: Int, limit: Int, budget: Int,
                      render: (Int, [UInt8]) -> [UInt8]) throws(APIError) -> (parts: [(revision: Int, bytes: [UInt8])], bytes: Int, atBudget: Bool) {
        guard let journal else { throw .storageFailed("this service keeps no journal") }
        var parts: [(revision: Int, bytes: [UInt8])] = []
        var bytes = 0
        var cursor = after
        var step = 1
        var largest = 1
        while parts.count < limit && cursor < upTo {
            let want = Swift.min(step, limit - parts.count)
            let page: [(revision: Int, events: [UInt8])]
            do throws(JournalError) { page = try journal.events(id: key, after: cursor, limit: want) } catch { throw APIError(error) }
            for (revision, blob) in page {
                guard revision <= upTo else { return (parts, bytes, false) }
                let rendered = render(revision, blob)
                if !parts.isEmpty && bytes + rendered.count > budget { return (parts, bytes, true) }
                parts.append((revision, rendered))
                bytes += rendered.count
                cursor = revision
                largest = Swift.max(largest, rendered.count)
            }
            if page.count < want { break }
            step = Swift.max(1, Swift.min(256, (budget - bytes) / largest))
        }
        return (parts, bytes, false)
    }

    /// The revision a `Last-Event-ID` header names: decimal digits only (spaces around them
    /// allowed), so `+3` and `-0` are 400 `bad_header` like any other malformed value.
    static func revision(lastEventID: String) throws(APIError) -> Int {
        let digits = Substring(lastEventID).trimmingSpaces
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let id = Int(digits) else {
            throw APIError(.badHeader, message: "Last-Event-ID must be a revision (decimal digits), got \"\(lastEventID)\"", field: "Last-Event-ID")
        }
        return id
    }

    /// A Server-Sent Events stream on journal `key`: the backlog after the client's last
    /// revision (`Last-Event-ID`, else `?after=`, else none), then every new revision as it is
    /// made. `locked` runs its body under the entry's read lock with the revision now.
    ///
    /// The backlog is read from the journal off the lock, in at most
    /// `eventsAnswerBytes` of messages (at least one revision); only what was made
    /// meanwhile is read under the lock, where the stream subscribes, so no revision is missed
    /// or sent twice. A backlog past the budget is sent a piece per connection: the stream
    /// ends after the piece and the client reconnects with its `Last-Event-ID` (EventSource
    /// does so itself) for the next one.
    func liveStream(_ c: RequestContext, key: String,
                    locked: ((Int) throws(APIError) -> Void) throws(APIError) -> Void,
                    then: ((HTTPStream) -> Void)? = nil) throws(APIError) -> HTTPResponse {
        guard journal != nil else { throw .storageFailed("this service keeps no journal") }
        // The heartbeat is an SSE comment: clients ignore it; a gone one makes the write fail.
        let stream = HTTPStream(heartbeat: Array(":\n\n".utf8))
        let lastEventID = c.request.header("last-event-id")
        var after = 0
        var current = 0
        try locked { revision throws(APIError) in
            current = revision
            if let lastEventID {
                after = try Self.revision(lastEventID: lastEventID)
            } else {
                after = try c.queryInt("after", in: 0...Int(Int64.max)) ?? revision
            }
        }
        let budget = eventsAnswerBytes
        let render: (Int, [UInt8]) -> [UInt8] = { revision, blob in EventHub.message(revision: revision, events: EventHub.answerText(ofJournaled: blob)) }
        let response = HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")], stream: stream)
        var sent = 0
        if after < current {
            let piece = try journalPiece(key: key, after: after, upTo: current, limit: .max, budget: budget, render: render)
            for part in piece.parts { stream.write(part.bytes) }
            sent = piece.bytes
            if let last = piece.parts.last?.revision { after = last }
            if piece.atBudget {
                stream.close()
                return response
            }
        }
        try locked { revision throws(APIError) in
            guard revision >= after else {
                // The stack was replaced meanwhile: the client starts again from its last revision.
                stream.close()
                return
            }
            if after < revision {
                let rest = try journalPiece(key: key, after: after, upTo: revision, limit: .max, budget: Swift.max(1, budget - sent), render: render)
                for part in rest.parts { stream.write(part.bytes) }
                if rest.atBudget {
                    stream.close()
                    return
                }
            }
            hub.subscribe(stream, to: key, after: revision)
        }
        if !stream.isClosed { then?(stream) }
        return response
    }
}
