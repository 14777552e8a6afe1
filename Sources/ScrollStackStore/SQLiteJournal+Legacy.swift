import SQLite

/// Journal formats 0 and 1 kept each revision as its HTTP request (`LegacyMutation`, table
/// `mutations`). The schema's migrations (`SQLiteJournal+Migrations.swift`) keep the table;
/// the service turns each legacy journal into records (`migrateLegacy`), one key at a time,
/// each in one transaction; the table goes once it is empty.
extension SQLiteJournal {
    func hasLegacyTable() throws(SQLiteError) -> Bool {
        try Self.hasLegacyTable(database)
    }

    /// The latest snapshot of `key` at or before `revision`, without its records (those of a
    /// legacy journal are still requests, which the caller replays): nil when there is none.
    public func legacyBase(key: String, upTo revision: Int) throws(JournalError) -> StoredJournal? {
        try sqlite(key: key) { () throws(SQLiteError) -> StoredJournal? in
            let rows = try database.query("SELECT revision, model FROM snapshots WHERE stack = ? AND revision <= ? ORDER BY revision DESC LIMIT 1",
                                          [.text(key), .integer(Int64(revision))])
            guard let row = rows.first, case .integer(let snapshotRevision) = row[0], case .blob(let model) = row[1] else { return nil }
            return StoredJournal(key: key, incarnation: 0, snapshotRevision: Int(snapshotRevision),
                                 snapshot: try snapshotBytes(model, key: key, revision: snapshotRevision), records: [])
        }
    }

    /// The keys that still have revisions in the legacy table, ordered.
    public func legacyKeys() throws(JournalError) -> [String] {
        try sqlite { () throws(SQLiteError) -> [String] in
            guard try hasLegacyTable() else { return [] }
            return try database.query("SELECT DISTINCT stack FROM mutations ORDER BY stack").compactMap {
                guard case .text(let key)? = $0.first else { return nil }
                return key
            }
        }
    }

    /// Every legacy revision of `key`, in order.
    public func legacyMutations(key: String) throws(JournalError) -> [LegacyMutation] {
        try sqlite { () throws(SQLiteError) -> [LegacyMutation] in
            guard try hasLegacyTable() else { return [] }
            return try database.query("SELECT revision, method, path, body, events FROM mutations WHERE stack = ? ORDER BY revision", [.text(key)])
                .compactMap { row in
                    guard case .integer(let revision) = row[0], case .text(let method) = row[1], case .text(let path) = row[2],
                          case .blob(let body) = row[3], case .blob(let events) = row[4] else { return nil }
                    return LegacyMutation(revision: Int(revision), method: method, path: path, body: body, events: events)
                }
        }
    }

    /// Replaces the legacy revisions of `key` by `records` (the same revisions, in the
    /// service's encoding; their plans are in `plans` already and stay), in one transaction.
    public func migrateLegacy(key: String, records: [JournalRecord]) throws(JournalError) {
        try sqlite { () throws(SQLiteError) in
            try database.transaction { () throws(SQLiteError) in
                for record in records {
                    try database.query("INSERT INTO records (stack, revision, operation, events) VALUES (?, ?, ?, ?)",
                                       [.text(key), .integer(Int64(record.revision)), .blob(record.operation), .blob(record.events)])
                }
                try database.query("DELETE FROM mutations WHERE stack = ?", [.text(key)])
                if try database.query("SELECT 1 FROM mutations LIMIT 1").isEmpty {
                    try database.execute("DROP TABLE mutations")
                }
            }
        }
    }
}
