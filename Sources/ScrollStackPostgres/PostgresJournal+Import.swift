import Postgres
import ScrollStackStore

extension PostgresJournal {
    /// The keys of every journal in the database, ordered.
    public func journalKeys() throws(JournalError) -> [String] {
        try run { connection throws(PostgresError) in
            try connection.query("SELECT key FROM journals ORDER BY key").compactMap { $0[0].textValue }
        }
    }

    /// Copies the journals of `keys`, each as `archive` reads it, into the database in one
    /// transaction: all of them, or on any failure none. A key the database already holds is
    /// a `.conflict` (nothing is copied) unless `replacing`, which first deletes its journal
    /// there. Each key copied gets a new incarnation and is announced on the journal's
    /// channel, so running replicas drop what they cached of it and load it afresh.
    /// Returns the number of records copied.
    ///
    /// - Throws: `.failed` for an archive whose revisions are not 1, 2, … with a snapshot of
    ///   revision 1 (a damaged source), before anything of it is written.
    /// - Complexity: O(the archives' size); records and snapshots go in multi-row inserts
    ///   of at most 256 rows or 8 MiB each, one round trip per batch.
    @discardableResult
    public func importJournals(keys: [String], replacing: Bool,
                               archive: (String) throws(JournalError) -> JournalArchive) throws(JournalError) -> Int {
        // Set when the source fails, to be rethrown once the transaction is rolled back.
        var sourceError: JournalError?
        do {
            return try run { connection throws(PostgresError) -> Int in
                try connection.transaction { () throws(PostgresError) -> Int in
                    let held = Set(try connection.query("SELECT key FROM journals").compactMap { $0[0].textValue })
                    var copied = 0
                    for key in keys {
                        let journal: JournalArchive
                        do throws(JournalError) {
                            journal = try archive(key)
                            try Self.checkContiguous(journal)
                            if held.contains(key) && !replacing { throw JournalError.conflict(key: key, latest: nil) }
                        } catch {
                            sourceError = error
                            throw PostgresError(kind: .query, message: "\(error)")
                        }
                        try Self.copy(journal, into: connection)
                        copied += journal.records.count
                    }
                    return copied
                }
            }
        } catch {
            throw sourceError ?? error
        }
    }

    /// Refuses an archive that does not start at a snapshot of revision 1 or whose records
    /// skip or repeat a revision.
    static func checkContiguous(_ journal: JournalArchive) throws(JournalError) {
        guard journal.snapshots.first?.revision == 1 else { throw .failed("the journal of \(journal.key) has no snapshot of revision 1") }
        for (offset, record) in journal.records.enumerated() where record.revision != offset + 2 {
            throw .failed("the journal of \(journal.key) holds revision \(record.revision) where \(offset + 2) belongs")
        }
        guard journal.snapshots.allSatisfy({ $0.revision <= journal.revision }) else {
            throw .failed("the journal of \(journal.key) holds a snapshot after its latest revision")
        }
    }

    /// Replaces whatever `journal.key` holds with `journal`, inside the caller's transaction.
    private static func copy(_ journal: JournalArchive, into connection: PostgresConnection) throws(PostgresError) {
        let key = PostgresValue.text(journal.key)
        try connection.query("DELETE FROM records WHERE key = $1", [key])
        try connection.query("DELETE FROM snapshots WHERE key = $1", [key])
        try connection.query("""
            INSERT INTO journals (key, incarnation, latest) VALUES ($1, nextval('journal_incarnations'), $2)
            ON CONFLICT (key) DO UPDATE SET incarnation = excluded.incarnation, latest = excluded.latest
            """, [key, .integer(Int64(journal.revision))])
        try insertBatches(journal.snapshots.map { [key, .integer(Int64($0.revision)), .bytea($0.model)] }, into: connection,
                          prefix: "INSERT INTO snapshots (key, revision, model) VALUES ", casts: ["", "", "::bytea"])
        try insertBatches(journal.records.map { [key, .integer(Int64($0.revision)), .bytea($0.operation), .bytea($0.events), $0.plan.map { .bytea($0) } ?? .null] },
                          into: connection, prefix: "INSERT INTO records (key, revision, operation, events, plan) VALUES ",
                          casts: ["", "", "::bytea", "::bytea", "::bytea"])
        try connection.query("SELECT pg_notify('\(channel)', $1 || ' ' || $2)", [.text(String(journal.revision)), key])
    }

    /// Inserts `rows` with statements of `prefix` and up to 256 value lists (8 MiB) each.
    private static func insertBatches(_ rows: [[PostgresValue]], into connection: PostgresConnection, prefix: String, casts: [String]) throws(PostgresError) {
        var start = 0
        while start < rows.count {
            var end = start, bytes = 0
            while end < rows.count, end - start < 256, bytes < 8 << 20 {
                bytes += rows[end].reduce(0) { $0 + size($1) }
                end += 1
            }
            var lists: [String] = []
            for row in 0..<(end - start) {
                let base = row * casts.count
                lists.append("(" + casts.enumerated().map { "$\(base + $0.offset + 1)\($0.element)" }.joined(separator: ", ") + ")")
            }
            try connection.query(prefix + lists.joined(separator: ", "), Array(rows[start..<end].joined()))
            start = end
        }
    }

    /// About how many bytes `value` sends.
    private static func size(_ value: PostgresValue) -> Int {
        switch value {
        case .bytea(let bytes): bytes.count
        case .text(let text): text.utf8.count
        default: 8
        }
    }
}
