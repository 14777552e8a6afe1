import ScrollStackStore

extension StackService {
    /// Turns the journals an SQLite file of format 0 or 1 still keeps as HTTP requests
    /// (`LegacyMutation`) into records, one key at a time, each in one transaction; every
    /// revision and its events are kept as they were. Runs at start, before the journals load.
    func migrateLegacyJournals() throws(JournalError) {
        guard let sqlite = journal?.backend as? SQLiteJournal else { return }
        for key in try sqlite.legacyKeys() {
            let records = try sqlite.legacyMutations(key: key).map { mutation in
                JournalRecord(revision: mutation.revision, operation: OperationRecord.request(method: mutation.method, path: mutation.path, body: mutation.body),
                              events: mutation.events)
            }
            try sqlite.migrateLegacy(key: key, records: records)
            logger.info("journal of \(key): \(records.count) revisions migrated from journal format 1")
        }
    }
}
