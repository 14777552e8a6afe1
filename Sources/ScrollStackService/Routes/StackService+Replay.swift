import Jansson
import Logging
import MicroHTTP
import ScrollStackCore
import ScrollStackStore
import ScrollStackText
import ScrollStackTransitions

extension StackService {
    /// A stack rebuilt from its journal, and the operation record of each revision replayed.
    struct Replayed {
        var stack: ScrollStack
        var revision: Int
        /// The records replayed, each with its operation as `OperationRecord` encodes it now
        /// (requests turned into the operations they made); filled only when asked.
        var records: [JournalRecord] = []
    }

    /// Rebuilds a stored stack: its snapshot, binary (`SnapshotFormat`) or format 1 JSON
    /// (decoded like a create body), then each record after it applied to the model directly.
    /// A request record (kind 1, from before operations were journaled) is replayed through
    /// the routes of a scratch service that journals nothing; `convert` keeps the operation
    /// it made (the migration, `migrateLegacyJournals`); a revert among them reads the
    /// revision it goes back to from `pastState`.
    ///
    /// - Throws: `journalUnreadable` naming the snapshot or the revision that fails.
    /// - Complexity: O(snapshot size + the records' model operations); no JSON for a binary
    ///   snapshot and operation records.
    static func rebuild(_ stored: StoredJournal, logger: Logger, measurer: any ContentMeasuring, titleMeasurer: (any TitleMeasuring)?,
                        fonts: FontCatalog, convert: Bool = false,
                        pastState: (@Sendable (Int) throws(APIError) -> ScrollStack)? = nil) throws(APIError) -> Replayed {
        var scratch: StackService?
        func scratchService() -> StackService {
            if let scratch { return scratch }
            let made = StackService(logger: logger, journalOrNone: nil, limits: .replay, measurer: measurer, titleMeasurer: titleMeasurer,
                                    fonts: fonts, replay: ReplayContext(pastState: pastState))
            scratch = made
            return made
        }
        let what = "the snapshot of \(stored.key) at revision \(stored.snapshotRevision)"
        // Optional so that a request record can take the state over (one owner: mutated in
        // place, where a second reference would copy every row).
        var state: ScrollStack?
        if SnapshotFormat.isBinary(stored.snapshot) {
            state = try SnapshotFormat.decode(stored.snapshot, what: what, measurer: measurer, titleMeasurer: titleMeasurer)
        } else {
            let json: JSON
            do { json = try JSON.parse(stored.snapshot) } catch { throw .journalUnreadable("\(what) does not parse: \(error)") }
            guard let object = json.objectValue else { throw .journalUnreadable("\(what) is not an object") }
            state = try scratchService().decodeStack(ObjectReader(object: object, path: ""), id: stored.key)
        }
        var revision = stored.snapshotRevision
        var records: [JournalRecord] = []
        for record in stored.records {
            let what = "revision \(record.revision) of \(stored.key)"
            guard record.revision == revision + 1 else { throw .journalUnreadable("\(what) follows revision \(revision)") }
            var operation = record.operation
            if OperationRecord.kind(record.operation) == OperationRecord.requestKind {
                let request = try OperationRecord.decodeRequest(record.operation, what: what)
                let (after, made) = try scratchService().replayRequest(request, on: &state, key: stored.key, revision: revision, what: what)
                (state, operation) = (after, made)
            } else {
                let decoded = try OperationRecord.decodeStack(record.operation, what: what, measurer: measurer, titleMeasurer: titleMeasurer)
                do throws(StackError) { _ = try decoded.apply(to: &state!) } catch {
                    throw .journalUnreadable("replaying \(what) failed: \(APIError(error).message)")
                }
            }
            revision = record.revision
            if convert { records.append(JournalRecord(revision: record.revision, operation: operation, events: record.events)) }
        }
        return Replayed(stack: state!, revision: revision, records: records)
    }

    /// Replays one journaled request on `stack` (taken: it moves into this scratch service's
    /// store, so it has one owner) at `revision` through the routes, as it was answered when
    /// it was made. Returns the state after it and the operation it made, encoded.
    ///
    /// - Complexity: the request's own work (only requests journaled before operations were,
    ///   and only once: they are migrated).
    func replayRequest(_ request: (method: String, path: String, body: [UInt8]), on stack: inout ScrollStack?, key: String, revision: Int,
                       what: String) throws(APIError) -> (ScrollStack, [UInt8]) {
        try? store.remove(key)
        guard let state = stack.take() else { throw .journalUnreadable("\(what) has no state to replay on") }
        try store.insert(StackEntry(id: key, stack: state, revision: revision))
        let response = handle(HTTPRequest(method: request.method, path: request.path, headers: [("content-type", "application/json")], body: request.body))
        guard response.status == 200, response.header("etag") == "\"\(revision + 1)\"", let operation = replay?.take() else {
            let answer = String(decoding: response.body.prefix(500), as: UTF8.self)
            throw .journalUnreadable("replaying \(what) (\(request.method) \(request.path)) answered \(response.status) \(answer)")
        }
        let after = try store.entry(key).read { stack, _ throws(APIError) in stack }
        try store.remove(key)  // the last other reference: `after` is the only owner again
        return (after, operation)
    }

    /// A pile rebuilt from its journal, as `Replayed` is for a stack.
    struct ReplayedPile {
        var pile: Pile
        var revision: Int
        var records: [JournalRecord] = []
    }

    /// Rebuilds a stored pile: its snapshot (the API's JSON of the pile), then each record
    /// after it applied to the pile; request records as `rebuild` replays them.
    static func rebuildPile(_ stored: StoredJournal, logger: Logger, measurer: any ContentMeasuring, titleMeasurer: (any TitleMeasuring)?,
                            fonts: FontCatalog, convert: Bool = false) throws(APIError) -> ReplayedPile {
        let id = String(stored.key.dropFirst(pileJournalPrefix.count))
        let scratch = StackService(logger: logger, journalOrNone: nil, limits: .replay, measurer: measurer, titleMeasurer: titleMeasurer,
                                   fonts: fonts, replay: ReplayContext())
        guard case .object(let object)? = try? JSON.parse(stored.snapshot) else {
            throw .journalUnreadable("the snapshot of pile \(id) at revision \(stored.snapshotRevision) is not a JSON object")
        }
        var replayed = ReplayedPile(pile: try scratch.decodePile(ObjectReader(object: object, path: ""), id: id), revision: stored.snapshotRevision)
        for record in stored.records {
            let what = "revision \(record.revision) of pile \(id)"
            guard record.revision == replayed.revision + 1 else { throw .journalUnreadable("\(what) follows revision \(replayed.revision)") }
            var operation = record.operation
            if OperationRecord.kind(record.operation) == OperationRecord.requestKind {
                let request = try OperationRecord.decodeRequest(record.operation, what: what)
                scratch.piles.remove(id)
                try scratch.piles.insert(PileEntry(id: id, pile: replayed.pile, revision: replayed.revision))
                let response = scratch.handle(HTTPRequest(method: request.method, path: request.path, headers: [("content-type", "application/json")],
                                                          body: request.body))
                guard response.status == 200, response.header("etag") == "\"\(record.revision)\"", let made = scratch.replay?.take() else {
                    throw .journalUnreadable("replaying \(what) (\(request.method) \(request.path)) answered \(response.status)")
                }
                replayed.pile = try scratch.piles.entry(id).read { pile, _ throws(APIError) in pile }
                operation = made
            } else {
                let decoded = try OperationRecord.decodePile(record.operation, what: what)
                do throws(PileError) { _ = try decoded.apply(to: &replayed.pile) } catch {
                    throw .journalUnreadable("replaying \(what) failed: \(APIError(error).message)")
                }
            }
            replayed.revision = record.revision
            if convert { replayed.records.append(JournalRecord(revision: record.revision, operation: operation, events: record.events)) }
        }
        return replayed
    }
}
