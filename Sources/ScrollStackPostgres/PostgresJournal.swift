import Postgres
import ScrollStackStore
import Synchronization

/// The shared backend: every journal in one PostgreSQL database, which any number of
/// `scrollstackd` replicas use at once (`--store postgres://…`).
///
/// Tables (made by the schema's migrations at start, `PostgresJournal+Migrations.swift`, under
/// an advisory lock so replicas starting together do not race): `journals (key PRIMARY KEY, incarnation, latest)` — one row per live key,
/// its latest revision — and `snapshots (key, revision, model)`, `records (key, revision,
/// operation, events, plan)`, each keyed by (key, revision).
///
/// `journals.latest` is also what each journal must hold: `load` checks the snapshot and
/// records it finds against it, so rows deleted behind the service's back make that key
/// `.damaged` (its stack unavailable) instead of loading as an older revision.
///
/// Every call is one statement or one transaction. An append moves `journals.latest` from n
/// to n + 1 only if it is still n (the row lock makes a second replica's append of n + 1
/// wait and then find n + 1 there: a conflict, nothing written), inserts the record (and
/// snapshot), and sends `NOTIFY scrollstack_journal`, which PostgreSQL delivers at commit, in
/// commit order. Appends are batched (`AppendQueue`): those queued while a transaction is
/// committed share the next one, one key's as one run. Durable when they complete
/// (`synchronous_commit` on, the server's default).
public final class PostgresJournal: SharedJournalBackend {
    /// The channel every change is announced on: payload one line `REVISION KEY` per key (0: deleted).
    static let channel = "scrollstack_journal"
    let pool: PostgresPool
    private let watching = Mutex<Watcher?>(nil)
    /// The group commit of appends.
    let appends: AppendQueue
    /// Told of each transaction of appends (`observeCommits`).
    let report = CommitTimer()

    /// Connects to `url` with a pool of `connections` and brings the schema to
    /// `schemaVersion` (`migrate`).
    ///
    /// - Throws: `.unavailable` when the server cannot be reached; `.schemaTooNew` when the
    ///   database's schema is newer than this binary knows (nothing is changed).
    public init(url: String, connections: Int) throws(JournalError) {
        pool = PostgresPool(url: url, size: connections)
        appends = AppendQueue(pool: pool, report: report)
        try migrate()
    }

    /// Runs `body` on a pooled connection, turning PostgreSQL's errors into the journal's:
    /// an unreachable or restarting server is `.unavailable` (503 with Retry-After).
    func run<T>(_ body: (PostgresConnection) throws(PostgresError) -> T) throws(JournalError) -> T {
        do throws(PostgresError) {
            return try pool.withConnection(body)
        } catch {
            throw Self.journalError(error)
        }
    }

    /// The journal's view of a PostgreSQL failure: an unreachable or restarting server is
    /// `.unavailable` (503 with Retry-After), anything else `.failed`.
    static func journalError(_ error: PostgresError) -> JournalError {
        error.isUnavailable ? .unavailable(error.message) : .failed("\(error)")
    }

    /// Starts the journal of key $1 with snapshot $2 unless the key has one: answers its new
    /// incarnation, or no row when the key exists; announces the creation.
    static var createStatement: String {
        """
        WITH journal AS (
            INSERT INTO journals (key, incarnation, latest) VALUES ($1, nextval('journal_incarnations'), 1)
            ON CONFLICT (key) DO NOTHING RETURNING incarnation),
        cleared AS (DELETE FROM records WHERE key = $1 AND EXISTS (SELECT 1 FROM journal)),
        old AS (DELETE FROM snapshots WHERE key = $1 AND EXISTS (SELECT 1 FROM journal)),
        snapshot AS (INSERT INTO snapshots (key, revision, model) SELECT $1, 1, $2 FROM journal),
        note AS (SELECT pg_notify('\(channel)', '1 ' || $1) FROM journal)
        SELECT incarnation, (SELECT count(*) FROM note) FROM journal
        """
    }

    /// Creates `key` at revision 1. Replicas share the key space, so a key that already has a
    /// journal (made by another replica) is a conflict, never overwritten.
    public func create(key: String, snapshot: [UInt8]) throws(JournalError) -> Int64 {
        let created = try run { connection throws(PostgresError) -> [[PostgresValue]] in
            do throws(PostgresError) {
                return try connection.query(Self.createStatement, [.text(key), .bytea(snapshot)])
            } catch where error.isUniqueViolation {
                return []
            }
        }
        guard let incarnation = created.first?.first?.integerValue else {
            throw .conflict(key: key, latest: try head(key: key)?.revision)
        }
        return incarnation
    }

    /// Every journal started in one PostgreSQL transaction; a key that exists already rolls
    /// all of them back (`.conflict` naming it).
    public func createAll(_ journals: [(key: String, snapshot: [UInt8])]) throws(JournalError) -> [Int64] {
        var taken: String?
        do throws(JournalError) {
            return try run { connection throws(PostgresError) -> [Int64] in
                try connection.transaction { () throws(PostgresError) -> [Int64] in
                    var incarnations: [Int64] = []
                    for journal in journals {
                        let rows = try connection.query(Self.createStatement, [.text(journal.key), .bytea(journal.snapshot)])
                        guard let incarnation = rows.first?.first?.integerValue else {
                            taken = journal.key
                            throw PostgresError(kind: .query, message: "the journal of \(journal.key) exists")
                        }
                        incarnations.append(incarnation)
                    }
                    return incarnations
                }
            }
        } catch {
            if let taken { throw .conflict(key: taken, latest: try head(key: taken)?.revision) }
            throw error
        }
    }

    public func append(key: String, record: JournalRecord, snapshot: [UInt8]?) throws(JournalError) {
        switch append(key: key, record: record, snapshot: snapshot, after: nil, incarnation: nil).wait() {
        case nil: return
        case .conflict?: throw .conflict(key: key, latest: try head(key: key)?.revision)
        case let error?: throw error
        }
    }

    public func appendLater(key: String, record: JournalRecord, snapshot: [UInt8]?) -> PendingWrite {
        append(key: key, record: record, snapshot: snapshot, after: nil, incarnation: nil)
    }

    public func appendLater(key: String, record: JournalRecord, snapshot: [UInt8]?, after: PendingWrite?) -> PendingWrite {
        append(key: key, record: record, snapshot: snapshot, after: after, incarnation: nil)
    }

    public func appendLater(key: String, record: JournalRecord, snapshot: [UInt8]?, after: PendingWrite?, incarnation: Int64) -> PendingWrite {
        append(key: key, record: record, snapshot: snapshot, after: after, incarnation: incarnation)
    }

    /// Queued for the next batch (`AppendQueue`). A conflict completes the write with
    /// `.conflict(latest: nil)`.
    private func append(key: String, record: JournalRecord, snapshot: [UInt8]?, after: PendingWrite?, incarnation: Int64?) -> PendingWrite {
        appends.enqueue(key: key, record: record, snapshot: snapshot, after: after, incarnation: incarnation)
    }

    public func delete(key: String) throws(JournalError) {
        _ = try run { connection throws(PostgresError) in
            try connection.query("""
                WITH gone AS (DELETE FROM journals WHERE key = $1 RETURNING key),
                records AS (DELETE FROM records WHERE key = $1),
                snapshots AS (DELETE FROM snapshots WHERE key = $1),
                note AS (SELECT pg_notify('\(Self.channel)', '0 ' || key) FROM gone)
                SELECT (SELECT count(*) FROM note)
                """, [.text(key)])
        }
    }

    public func putBlob(name: String, bytes: [UInt8]) throws(JournalError) -> Bool {
        try run { connection throws(PostgresError) -> Bool in
            try !connection.query("INSERT INTO blobs (name, bytes) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING 1",
                                  [.text(name), .bytea(bytes)]).isEmpty
        }
    }

    public func blobNames() throws(JournalError) -> [(name: String, bytes: Int)] {
        try run { connection throws(PostgresError) -> [(name: String, bytes: Int)] in
            try connection.query("SELECT name, octet_length(bytes)::bigint FROM blobs ORDER BY name COLLATE \"C\"").compactMap { row in
                guard case .text(let name) = row[0], case .integer(let size) = row[1] else { return nil }
                return (name, Int(size))
            }
        }
    }

    public func blob(name: String) throws(JournalError) -> [UInt8]? {
        try run { connection throws(PostgresError) in
            try connection.query("SELECT bytes FROM blobs WHERE name = $1", [.text(name)]).first?.first?.byteaValue
        }
    }

    @discardableResult
    public func deleteBlob(name: String) throws(JournalError) -> Bool {
        try run { connection throws(PostgresError) -> Bool in
            try !connection.query("DELETE FROM blobs WHERE name = $1 RETURNING 1", [.text(name)]).isEmpty
        }
    }

    @discardableResult
    public func writeSnapshot(key: String, revision: Int, snapshot: [UInt8], incarnation: Int64) throws(JournalError) -> Bool {
        try run { connection throws(PostgresError) -> Bool in
            try !connection.query("""
                INSERT INTO snapshots (key, revision, model)
                SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM journals WHERE key = $1 AND incarnation = $4)
                ON CONFLICT (key, revision) DO UPDATE SET model = excluded.model
                RETURNING 1
                """, [.text(key), .integer(Int64(revision)), .bytea(snapshot), .integer(incarnation)]).isEmpty
        }
    }

    /// Reads in one `REPEATABLE READ` transaction, so every key's snapshot and records come
    /// from the same committed state, each checked against the key's `journals.latest`
    /// (`StoredJournal.verified`): the first damaged key throws. No journal has a revision
    /// below 1: none is loaded up to one.
    ///
    /// - Complexity: one query for the snapshots, one per key for its records.
    public func load(key: String?, upTo revision: Int) throws(JournalError) -> [StoredJournal] {
        guard revision >= 1 else { return [] }
        return try loadChecked(key: key, upTo: revision).map { (result) throws(JournalError) in try result.get() }
    }

    /// Every key loaded as `load` does, a damaged one reported instead of thrown.
    public func loadEach() throws(JournalError) -> LoadedJournals {
        var loaded = LoadedJournals(journals: [])
        for result in try loadChecked(key: nil, upTo: Int(Int64.max)) {
            switch result {
            case .success(let journal): loaded.journals.append(journal)
            case .failure(.damaged(let key, let detail)): loaded.damaged[key] = detail
            case .failure(let error): throw error
            }
        }
        return loaded
    }

    /// Each key of `journals` (only `key`), ordered: its journal, or why it is damaged (no
    /// snapshot to start from, records missing before `latest`).
    private func loadChecked(key: String?, upTo revision: Int) throws(JournalError) -> [Result<StoredJournal, JournalError>] {
        try run { connection throws(PostgresError) -> [Result<StoredJournal, JournalError>] in
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            defer { try? connection.execute("COMMIT") }
            let snapshots = try connection.query("""
                SELECT j.key, j.incarnation, j.latest, s.revision, s.model FROM journals j
                LEFT JOIN LATERAL (SELECT revision, model FROM snapshots WHERE key = j.key AND revision <= LEAST($2, j.latest) ORDER BY revision DESC LIMIT 1) s ON true
                WHERE $1::text IS NULL OR j.key = $1::text ORDER BY j.key
                """, [key.map { .text($0) } ?? .null, .integer(Int64(revision))])
            var journals: [Result<StoredJournal, JournalError>] = []
            for row in snapshots {
                guard let key = row[0].textValue, let incarnation = row[1].integerValue, let latest = row[2].integerValue else { continue }
                guard let snapshotRevision = row[3].integerValue, let model = row[4].byteaValue else {
                    journals.append(.failure(StoredJournal.noSnapshot(key: key, head: Int(latest), upTo: revision)))
                    continue
                }
                let records = try Self.records(connection, key: key, after: Int(snapshotRevision), upTo: min(revision, Int(latest)), limit: Int(Int64.max))
                let stored = StoredJournal(key: key, incarnation: incarnation, snapshotRevision: Int(snapshotRevision), snapshot: model, records: records)
                journals.append(Result { () throws(JournalError) in try stored.verified(head: Int(latest), upTo: revision) })
            }
            return journals
        }
    }

    public func records(key: String, after: Int, limit: Int) throws(JournalError) -> [JournalRecord] {
        try run { connection throws(PostgresError) in try Self.records(connection, key: key, after: after, upTo: Int(Int64.max), limit: limit) }
    }

    public func records(key: String, after: Int, limit: Int, incarnation: Int64) throws(JournalError) -> [JournalRecord]? {
        // The journal's row comes first: no row at all means another incarnation (or none);
        // one row of nulls means no record after `after`.
        let rows = try run { connection throws(PostgresError) in
            try connection.query("""
                SELECT r.revision, r.operation, r.events FROM journals j
                LEFT JOIN records r ON r.key = j.key AND r.revision > $2
                WHERE j.key = $1 AND j.incarnation = $4 ORDER BY r.revision LIMIT $3
                """, [.text(key), .integer(Int64(after)), .integer(Int64(limit)), .integer(incarnation)])
        }
        guard !rows.isEmpty else { return nil }
        return rows.compactMap { row in
            guard let revision = row[0].integerValue, let operation = row[1].byteaValue, let events = row[2].byteaValue else { return nil }
            return JournalRecord(revision: Int(revision), operation: operation, events: events)
        }
    }

    static func records(_ connection: PostgresConnection, key: String, after: Int, upTo: Int, limit: Int) throws(PostgresError) -> [JournalRecord] {
        try connection.query(
            "SELECT revision, operation, events FROM records WHERE key = $1 AND revision > $2 AND revision <= $3 ORDER BY revision LIMIT $4",
            [.text(key), .integer(Int64(after)), .integer(Int64(upTo)), .integer(Int64(limit))]
        ).compactMap { row in
            guard let revision = row[0].integerValue, let operation = row[1].byteaValue, let events = row[2].byteaValue else { return nil }
            return JournalRecord(revision: Int(revision), operation: operation, events: events)
        }
    }

    public func plan(key: String, revision: Int) throws(JournalError) -> [UInt8]? {
        try run { connection throws(PostgresError) in
            try connection.query("SELECT plan FROM records WHERE key = $1 AND revision = $2", [.text(key), .integer(Int64(revision))])
                .first?.first?.byteaValue
        }
    }

    public func head(key: String) throws(JournalError) -> JournalHead? {
        try run { connection throws(PostgresError) in
            try connection.query("SELECT incarnation, latest FROM journals WHERE key = $1", [.text(key)]).first.flatMap(Self.head)
        }
    }

    public func heads() throws(JournalError) -> [String: JournalHead] {
        try heads(where: "", [])
    }

    public func heads(keys: [String]) throws(JournalError) -> [String: JournalHead] {
        keys.isEmpty ? [:] : try heads(where: " WHERE key = ANY($1::text[])", [.textArray(keys)])
    }

    /// The heads of the journals `condition` (an SQL `WHERE` clause, or nothing) selects.
    private func heads(where condition: String, _ parameters: [PostgresValue]) throws(JournalError) -> [String: JournalHead] {
        try run { connection throws(PostgresError) in
            var heads: [String: JournalHead] = [:]
            for row in try connection.query("SELECT key, incarnation, latest FROM journals" + condition, parameters) {
                if let key = row[0].textValue, let head = Self.head(Array(row.dropFirst())) { heads[key] = head }
            }
            return heads
        }
    }

    private static func head(_ row: [PostgresValue]) -> JournalHead? {
        guard let incarnation = row[0].integerValue, let latest = row[1].integerValue else { return nil }
        return JournalHead(incarnation: incarnation, revision: Int(latest))
    }

    public func watch(changed: @escaping @Sendable (String, Int) -> Void, resynchronize: @escaping @Sendable () -> Void,
                      poll: @escaping @Sendable () -> Void) {
        let watcher = Watcher(url: pool.url, channel: Self.channel, changed: changed, resynchronize: resynchronize, poll: poll)
        watching.withLock { $0 = watcher }
        watcher.start()
    }

    public func stopWatching() {
        watching.withLock { $0 }?.stop()
    }

    public func members(refreshing address: String?, liveness: Int) throws(JournalError) -> [String] {
        try run { connection throws(PostgresError) in
            if let address {
                try connection.query("INSERT INTO members (address, seen) VALUES ($1, now()) ON CONFLICT (address) DO UPDATE SET seen = now()",
                                     [.text(address)])
            }
            return try connection.query("SELECT address FROM members WHERE seen > now() - make_interval(secs => $1) ORDER BY address",
                                        [.integer(Int64(liveness))]).compactMap { $0.first?.textValue }
        }
    }

    public func leave(address: String) throws(JournalError) {
        try run { connection throws(PostgresError) in
            _ = try connection.query("DELETE FROM members WHERE address = $1", [.text(address)])
        }
    }
}
