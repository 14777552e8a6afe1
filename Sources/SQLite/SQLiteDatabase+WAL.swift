import CSQLite
import Dispatch
import Synchronization

/// Two connections to one WAL-mode file taking turns, syncing the WAL off a lock, and
/// checkpointing it off the commits.
extension SQLiteDatabase {
    /// Runs `body` with this connection's lock held, so no transaction of this connection
    /// runs meanwhile (another connection to the same file can then write without waiting
    /// for this one's write lock, nor this one for its).
    public func exclusively<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try locked(body)
    }

    /// Syncs this connection's write-ahead log to disk now (through SQLite's own descriptor,
    /// under this connection's lock only): what its unsynced commits wrote is then on disk
    /// before another connection's synced commit has to wait for it.
    public func syncWAL() throws(SQLiteError) {
        try locked { () throws(SQLiteError) in
            var file: UnsafeMutablePointer<sqlite3_file>?
            let status = sqlite3_file_control(handle, "main", SQLITE_FCNTL_JOURNAL_POINTER, &file)
            guard status == SQLITE_OK, let file, let sync = file.pointee.pMethods?.pointee.xSync else { return }
            let synced = sync(file, SQLITE_SYNC_NORMAL)
            guard synced == SQLITE_OK else { throw SQLiteError(code: synced, message: "syncing the WAL failed") }
        }
    }

    /// Copies what it can of the log into the database file without waiting for any lock
    /// (`PRAGMA wal_checkpoint(PASSIVE)`, which, unlike `sqlite3_wal_checkpoint_v2`, first
    /// opens the log on a connection that has not read yet): the log's length in frames, and
    /// how many of them are now copied; nil when the file is not in WAL mode.
    public func checkpointPassively() throws(SQLiteError) -> (logged: Int32, copied: Int32)? {
        let row = try query("PRAGMA wal_checkpoint(PASSIVE)").first
        guard let row, row.count == 3, case .integer(let logged) = row[1], case .integer(let copied) = row[2], logged >= 0 else { return nil }
        return (Int32(clamping: logged), Int32(clamping: copied))
    }

    /// Takes the checkpoints of this connection's write-ahead log off its commits. SQLite's
    /// automatic checkpoint runs inside the commit that takes the log past 1,000 pages: that
    /// commit, and everything queued behind it, waits while pages are copied into the
    /// database file and synced. Instead, a commit that leaves `pages` frames not yet copied
    /// only queues a passive checkpoint of `checkpointer` (another connection to the same
    /// file, not in memory, used for nothing else) on `queue`, at most one at a time, and
    /// returns. 4,000 pages (16 MB) by default: fewer checkpoints, each of them syncing
    /// beside the commits, cost the commits' fsyncs less.
    ///
    /// A passive checkpoint beside commits may never catch up with them, and the log starts
    /// over only after one that copied it all: so a commit that finds `4 × pages` frames
    /// not yet copied checkpoints itself, as SQLite would have (no other write can be in
    /// progress then), and the log stays bounded whatever the load.
    public func checkpointElsewhere(on checkpointer: SQLiteDatabase, queue: DispatchQueue, pages: Int = 4_000) {
        let checkpoints = WALCheckpoints(checkpointer: checkpointer, queue: queue, pages: Int32(clamping: pages))
        _ = try? locked { () throws(SQLiteError) in
            walCheckpoints = checkpoints
            sqlite3_wal_hook(handle, { context, database, _, pages in
                let checkpoints = Unmanaged<WALCheckpoints>.fromOpaque(context!).takeUnretainedValue()
                if checkpoints.committed(pages: pages) {
                    var logged: Int32 = 0, copied: Int32 = 0
                    if sqlite3_wal_checkpoint_v2(database, nil, SQLITE_CHECKPOINT_PASSIVE, &logged, &copied) == SQLITE_OK {
                        checkpoints.checkpointed(logged: logged, copied: copied)
                    }
                }
                return SQLITE_OK
            }, Unmanaged.passUnretained(checkpoints).toOpaque())
        }
    }
}

/// Checkpoints of a write-ahead log run off the connection that commits (`checkpointElsewhere`).
final class WALCheckpoints: @unchecked Sendable {
    let checkpointer: SQLiteDatabase
    let queue: DispatchQueue
    let pages: Int32
    /// Whether a checkpoint is queued and not yet run: at most one waits at a time.
    let queued = Atomic<Bool>(false)
    /// The log's frames the last checkpoint copied; 0 after one that copied them all (the
    /// next commit then starts the log over).
    let copied = Atomic<Int32>(0)

    init(checkpointer: SQLiteDatabase, queue: DispatchQueue, pages: Int32) {
        self.checkpointer = checkpointer
        self.queue = queue
        self.pages = pages
    }

    /// After a commit that left `logged` frames in the log: queues a passive checkpoint on
    /// `checkpointer` when `pages` or more of them are not yet copied and none is queued;
    /// true when `4 × pages` are not yet copied (the commit checkpoints itself). Counting
    /// the frames not yet copied, rather than the log's length, keeps a log that commits kept
    /// from starting over from calling for a checkpoint after every commit. O(1).
    func committed(pages logged: Int32) -> Bool {
        let pending = logged - min(copied.load(ordering: .acquiring), logged)
        if pending >= pages.multipliedReportingOverflow(by: 4).partialValue { return true }
        guard pending >= pages, queued.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return false }
        queue.async { [self] in
            queued.store(false, ordering: .releasing)
            // Passive: copies what no reader still needs and never waits for a lock; what it
            // leaves is copied by a later one. A failure leaves the log to grow until then.
            guard let (logged, copied) = try? checkpointer.checkpointPassively() else { return }
            checkpointed(logged: logged, copied: copied)
        }
        return false
    }

    /// A checkpoint left `copied` of the log's `logged` frames copied.
    func checkpointed(logged: Int32, copied: Int32) {
        self.copied.store(copied >= logged ? 0 : copied, ordering: .releasing)
    }
}
