/// Where journals are kept: one per key (a stack's id, or a pile's with its prefix), each a
/// snapshot at revision 1 and then one record per revision, plus later snapshots. Records and
/// snapshots are opaque bytes: a backend knows nothing of HTTP, of stacks or of their model.
///
/// Every call is one transaction of the backend (or a part of one it shares with other
/// callers' writes, as `SQLiteJournal`'s group commit does): it happens whole or not at all.
/// Calls may come from any thread at once.
public protocol JournalBackend: Sendable {
    /// Starts the journal of `key` at revision 1 with `snapshot`, first discarding whatever
    /// the key held (a journal that was deleted, or never finished). Returns the key's new
    /// incarnation, a number no earlier incarnation of the key had (see `writeSnapshot`).
    func create(key: String, snapshot: [UInt8]) throws(JournalError) -> Int64

    /// `create` for several keys in one transaction: every journal is started, or none is.
    /// Returns their incarnations in order.
    ///
    /// - Throws: `.conflict` naming a key another writer created meanwhile (where the backend
    ///   can tell: shared backends), nothing written; `.unavailable` / `.failed` as `create`.
    func createAll(_ journals: [(key: String, snapshot: [UInt8])]) throws(JournalError) -> [Int64]

    /// Appends `record` as revision `record.revision` of `key`, with `snapshot` (the state
    /// after it) in the same transaction when given, only if `record.revision - 1` is the
    /// key's latest revision. Durable when it returns.
    ///
    /// - Throws: `.conflict` (nothing written) when the latest revision is another one, or
    ///   the key has no journal; `.unavailable` / `.failed` when the backend cannot write.
    func append(key: String, record: JournalRecord, snapshot: [UInt8]?) throws(JournalError)

    /// `append`, queued: returns at once with the write's `PendingWrite`, which completes
    /// once the write is durable (or failed, as `append` would throw). Writes queued from one
    /// thread are committed in the order queued, so a caller may queue revisions n+1, n+2, …
    /// of one key before the first is durable; if one fails, those after it conflict.
    /// The default runs `append` before returning (one write in flight at a time).
    func appendLater(key: String, record: JournalRecord, snapshot: [UInt8]?) -> PendingWrite

    /// `appendLater` of a write built on the state `after` made: the queued write of the
    /// revision before it (nil when that revision was already durable, or read from the
    /// journal). The write is committed only if `after` is; otherwise it conflicts. This
    /// matters where several processes append to one key: if `after` lost its revision to
    /// another process, the revision `record` follows is that process's, not the one `record`
    /// was built on. The default ignores `after` (a backend only this process writes to has
    /// that rule already: a failed `after` leaves its revision free, so `record` conflicts).
    func appendLater(key: String, record: JournalRecord, snapshot: [UInt8]?, after: PendingWrite?) -> PendingWrite

    /// Removes every revision, record, plan and snapshot of `key` (nothing when it has none).
    func delete(key: String) throws(JournalError)

    /// Stores a snapshot of revision `revision` of `key` (a revision already appended), only
    /// if the key is still the incarnation `incarnation` (not deleted, not created again).
    /// Returns whether it was written. Snapshots only shorten replays: losing one loses nothing.
    @discardableResult
    func writeSnapshot(key: String, revision: Int, snapshot: [UInt8], incarnation: Int64) throws(JournalError) -> Bool

    /// Each journal (only `key`'s when given), ordered by key: its latest snapshot at or before
    /// `revision` and the records after that snapshot up to `revision`, in order (their plans
    /// left out). A backend that records each key's head checks what it read against it
    /// (`StoredJournal.verified`): a journal with records missing, or with no snapshot at or
    /// before `revision`, throws `.damaged` instead of loading as an older revision.
    func load(key: String?, upTo revision: Int) throws(JournalError) -> [StoredJournal]

    /// At most `limit` records of `key` after revision `after`, in revision order, their plans
    /// left out (history, live events, catching up).
    func records(key: String, after: Int, limit: Int) throws(JournalError) -> [JournalRecord]

    /// The plan kept with revision `revision` of `key`, or nil.
    func plan(key: String, revision: Int) throws(JournalError) -> [UInt8]?

    /// Every journal, as `load(key: nil, upTo: .max)`, but each key read and checked on its
    /// own: a key whose journal is damaged (`JournalError.damaged`) is reported in
    /// `damaged` and the others load all the same. Throws only what keeps every key from
    /// loading (the backend unreachable, its list of keys unreadable).
    func loadEach() throws(JournalError) -> LoadedJournals

    /// Stores `bytes` under `name` among the store's named blobs (kept beside the journals,
    /// shared by every process using the store), unless the name already holds some: then
    /// nothing is written and this returns false. Durable when it returns true.
    func putBlob(name: String, bytes: [UInt8]) throws(JournalError) -> Bool

    /// The names of the blobs the store holds, each with its size in bytes, ordered by name.
    func blobNames() throws(JournalError) -> [(name: String, bytes: Int)]

    /// The bytes stored under `name`, or nil.
    func blob(name: String) throws(JournalError) -> [UInt8]?

    /// Removes the blob `name`; returns whether there was one.
    @discardableResult
    func deleteBlob(name: String) throws(JournalError) -> Bool
}

extension JournalBackend {
    /// A backend that keeps no blobs (test doubles) refuses to store one.
    public func putBlob(name: String, bytes: [UInt8]) throws(JournalError) -> Bool {
        throw .failed("this store keeps no blobs")
    }

    public func blobNames() throws(JournalError) -> [(name: String, bytes: Int)] { [] }

    public func blob(name: String) throws(JournalError) -> [UInt8]? { nil }

    @discardableResult
    public func deleteBlob(name: String) throws(JournalError) -> Bool { false }
}

extension JournalBackend {
    public func appendLater(key: String, record: JournalRecord, snapshot: [UInt8]?) -> PendingWrite {
        do throws(JournalError) {
            try append(key: key, record: record, snapshot: snapshot)
            return PendingWrite(completed: nil)
        } catch {
            return PendingWrite(completed: error)
        }
    }

    public func appendLater(key: String, record: JournalRecord, snapshot: [UInt8]?, after: PendingWrite?) -> PendingWrite {
        appendLater(key: key, record: record, snapshot: snapshot)
    }
}

extension JournalBackend {
    /// Every journal, `load(key: nil, upTo: .max)`, none found damaged (a backend that
    /// cannot tell one key's damage from a failure of all).
    public func loadEach() throws(JournalError) -> LoadedJournals {
        LoadedJournals(journals: try load(key: nil, upTo: Int(Int64.max)))
    }
}
