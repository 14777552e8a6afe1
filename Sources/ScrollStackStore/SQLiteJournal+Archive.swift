import SQLite

extension SQLiteJournal {
    /// The keys of every journal in the file, ordered.
    public func archivedKeys() throws(JournalError) -> [String] {
        try sqlite { () throws(SQLiteError) -> [String] in
            return try database.query("SELECT stack FROM heads ORDER BY stack").compactMap { row in
                if case .text(let key) = row[0] { return key }
                return nil
            }
        }
    }

    /// Everything the journal of `key` holds, read in one transaction: every snapshot, and
    /// every record with its plan.
    ///
    /// - Complexity: O(the journal's size), three indexed range reads.
    public func archive(key: String) throws(JournalError) -> JournalArchive {
        try sqlite { () throws(SQLiteError) -> JournalArchive in
            try database.transaction { () throws(SQLiteError) -> JournalArchive in
                let id = SQLiteDatabase.Value.text(key)
                var snapshots: [JournalSnapshot] = []
                for row in try database.query("SELECT revision, model FROM snapshots WHERE stack = ? ORDER BY revision", [id]) {
                    guard case .integer(let revision) = row[0], case .blob(let model) = row[1] else { continue }
                    snapshots.append(JournalSnapshot(revision: Int(revision), model: try snapshotBytes(model, key: key, revision: revision)))
                }
                var plans: [Int64: [UInt8]] = [:]
                for row in try database.query("SELECT revision, plan FROM plans WHERE stack = ?", [id]) {
                    if case .integer(let revision) = row[0], case .blob(let plan) = row[1] { plans[revision] = plan }
                }
                let records = try database.query("SELECT revision, operation, events FROM records WHERE stack = ? ORDER BY revision", [id]).compactMap { row -> JournalRecord? in
                    guard case .integer(let revision) = row[0], case .blob(let operation) = row[1], case .blob(let events) = row[2] else { return nil }
                    return JournalRecord(revision: Int(revision), operation: operation, events: events, plan: plans[revision])
                }
                return JournalArchive(key: key, snapshots: snapshots, records: records)
            }
        }
    }
}
