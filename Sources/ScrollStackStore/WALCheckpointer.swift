import Dispatch
import SQLite
import Synchronization

/// Checkpoints the journal's write-ahead log off the commit path.
///
/// SQLite's automatic checkpoint runs inside the COMMIT that pushes the WAL past 1,000 pages:
/// that writer (and, the connection being shared, every writer queued behind it) waits while
/// the WAL's pages are copied into the database file and that file is synced. Here the
/// commits' connection only reports the WAL's size after each commit (`onWALCommit`); from
/// `threshold` pages on, a checkpoint runs on a thread and a connection of its own, in two
/// steps:
/// 1. a PASSIVE checkpoint while commits go on: it copies the pages committed so far and
///    syncs the database file (the bulk of the work);
/// 2. a second one holding the commits' connection: it copies only what was committed
///    during step 1. With nothing left to copy, the next commit starts the WAL over (SQLite
///    restarts a WAL only when a write begins with every page of it copied, which never
///    happens while writes keep coming during a checkpoint).
///
/// The WAL stays bounded even if checkpoints fall behind: a commit that leaves `limit` pages
/// or more checkpoints on its own thread, as SQLite would. Durability is SQLite's: a
/// checkpoint only copies committed pages, syncing the WAL before and the database after, so
/// a crash at any moment of it loses nothing committed.
final class WALCheckpointer: Sendable {
    /// The checkpoints' own connection to the file.
    private let connection: SQLiteDatabase
    private let queue = DispatchQueue(label: "scrollstack.journal.checkpoints")
    /// WAL pages from which a background checkpoint is started.
    let threshold: Int
    /// WAL pages from which the committing thread checkpoints itself (the bound).
    let limit: Int
    /// Whether a background checkpoint is queued or running (one at a time).
    private let busy = Atomic<Bool>(false)
    /// Checkpoints run in the background, and on the commit path (the bound reached).
    let background = Atomic<Int>(0)
    let inline = Atomic<Int>(0)
    /// The most pages the WAL held after a commit.
    let mostWALPages = Atomic<Int>(0)

    /// Watches the commits of `database` (a WAL-mode file at `path`).
    init(database: SQLiteDatabase, path: String, threshold: Int = 1_000, limit: Int = 16_000) throws(SQLiteError) {
        connection = try SQLiteDatabase(path: path)
        try connection.execute("PRAGMA synchronous = FULL; PRAGMA wal_autocheckpoint = 0")
        self.threshold = max(1, threshold)
        self.limit = max(self.threshold, limit)
        database.onWALCommit { [self] database, pages in committed(walPages: pages, on: database) }
    }

    /// After each commit of the watched connection (its lock held).
    private func committed(walPages: Int, on database: SQLiteDatabase) {
        mostWALPages.max(walPages, ordering: .relaxed)
        if walPages >= limit {
            inline.add(1, ordering: .relaxed)
            _ = try? database.checkpoint()
        } else if walPages >= threshold, busy.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            queue.async { [self, database] in
                defer { busy.store(false, ordering: .releasing) }
                // An error leaves the pages in the WAL: the next commit past the threshold
                // tries again, and the bound holds whatever happens here.
                _ = try? connection.checkpoint()
                _ = try? database.exclusively { () throws(SQLiteError) in try connection.checkpoint() }
                background.add(1, ordering: .relaxed)
            }
        }
    }

    /// Returns once every checkpoint started before the call is done (for tests).
    func waitForCheckpoints() {
        queue.sync {}
    }

    /// Blocks the checkpoint thread until `gate` returns (for tests).
    func hold(_ gate: @escaping @Sendable () -> Void) {
        queue.async(execute: gate)
    }
}
