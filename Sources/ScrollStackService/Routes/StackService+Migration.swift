import ScrollStackCore
import ScrollStackStore

extension StackService {
    /// Turns the journals an SQLite file of format 0 or 1 keeps as HTTP requests
    /// (`LegacyMutation`) into operation records: each key's requests are replayed once
    /// through the routes, from the snapshot before its first one, and the operation each
    /// made is journaled in its place, with the same revision and the same events (byte for
    /// byte); plans and snapshots stay. One transaction per key. Runs at start, before the
    /// journals load.
    ///
    /// Returns the stacks that could not be migrated, with the reason: their requests stay
    /// as they are on disk, and they answer 503 `stack_unavailable` until deleted.
    ///
    /// - Throws: a pile that cannot be migrated (as a pile that cannot be restored), or the
    ///   store's error.
    /// - Complexity: O(every legacy revision's request), once.
    func migrateLegacyJournals() throws -> [String: String] {
        guard let sqlite = journal?.backend as? SQLiteJournal else { return [:] }
        var failed: [String: String] = [:]
        for key in try sqlite.legacyKeys() {
            let mutations = try sqlite.legacyMutations(key: key)
            guard let first = mutations.first else { continue }
            let isPile = key.hasPrefix(Self.pileJournalPrefix)
            let requests = mutations.map { mutation in
                JournalRecord(revision: mutation.revision, operation: OperationRecord.request(method: mutation.method, path: mutation.path, body: mutation.body),
                              events: mutation.events)
            }
            // A revert among them goes back to a revision rebuilt the same way: its nearest
            // snapshot, then the requests after it.
            let (logger, measurer, titleMeasurer, fonts) = (logger, measurer, titleMeasurer, fonts)
            @Sendable func past(_ revision: Int) throws(APIError) -> ScrollStack {
                guard var base = try Self.journalCall({ () throws(JournalError) in try sqlite.legacyBase(key: key, upTo: revision) }) else {
                    throw .journalUnreadable("no snapshot of \(key) at or before revision \(revision)")
                }
                base.records = requests.filter { $0.revision > base.snapshotRevision && $0.revision <= revision }
                return try Self.rebuild(base, logger: logger, measurer: measurer, titleMeasurer: titleMeasurer, fonts: fonts, pastState: past).stack
            }
            do throws(APIError) {
                guard var stored = try Self.journalCall({ () throws(JournalError) in try sqlite.legacyBase(key: key, upTo: first.revision - 1) }),
                      stored.snapshotRevision == first.revision - 1 else {
                    throw .journalUnreadable("no snapshot of \(key) at revision \(first.revision - 1), before its first journaled request")
                }
                stored.records = requests
                let records = isPile
                    ? try Self.rebuildPile(stored, logger: logger, measurer: measurer, titleMeasurer: titleMeasurer, fonts: fonts, convert: true).records
                    : try Self.rebuild(stored, logger: logger, measurer: measurer, titleMeasurer: titleMeasurer, fonts: fonts, convert: true,
                                       pastState: past).records
                try Self.journalCall { () throws(JournalError) in try sqlite.migrateLegacy(key: key, records: records) }
                logger.info("journal of \(key): revisions \(first.revision)…\(stored.revision) migrated to operation records")
            } catch {
                if isPile { throw error }
                logger.error("cannot migrate the journal of stack \(key): \(error.message); it is kept as it is and answers 503 until deleted")
                failed[key] = error.message
            }
        }
        return failed
    }

    /// Runs a store call, its error as the API's.
    static func journalCall<T>(_ body: () throws(JournalError) -> T) throws(APIError) -> T {
        do throws(JournalError) { return try body() } catch { throw APIError(error) }
    }
}
