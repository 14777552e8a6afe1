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
    /// database file and synced. Instead, a commit that leaves `pages` (> 0) frames not yet
    /// copied only queues a passive checkpoint of `checkpointer` (another connection to the
    /// same file, not in memory, used for nothing else) on `queue`, at most one at a time,
    /// and returns.
    ///
    /// The log starts over only at a write that begins after a checkpoint copied all of it,
    /// which checkpoints beside a steady stream of commits may never do. So once the log is
    /// `4 × pages` frames long, each commit checkpoints it itself, as SQLite would have, until
    /// one copies it all (no other write can append meanwhile; one that finds the queued
    /// checkpoint running leaves it to the next commit, since SQLite runs one checkpoint at a
    /// time): the log stays bounded, past `4 × pages` only by the commits made while a queued
    /// checkpoint runs. Setting `wal_autocheckpoint` on this connection afterwards would undo
    /// all this.
    public func checkpointElsewhere(on checkpointer: SQLiteDatabase, queue: DispatchQueue, pages: Int = 4_000) {
        precondition(pages > 0, "a checkpoint every \(pages) pages")
        let checkpoints = WALCheckpoints(checkpointer: checkpointer, queue: queue, pages: Int32(clamping: pages))
        _ = try? locked { () throws(SQLiteError) in
            walCheckpoints = checkpoints
            sqlite3_wal_hook(handle, { context, database, name, pages in
                let checkpoints = Unmanaged<WALCheckpoints>.fromOpaque(context!).takeUnretainedValue()
                if checkpoints.committed(pages: pages) {
                    var logged: Int32 = 0, copied: Int32 = 0
                    if sqlite3_wal_checkpoint_v2(database, name, SQLITE_CHECKPOINT_PASSIVE, &logged, &copied) == SQLITE_OK {
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
    /// Frames not yet copied that call for a checkpoint on `queue`.
    let pages: Int32
    /// The log's length at which a commit checkpoints it itself: 4 × `pages`.
    let bound: Int32
    /// Whether a checkpoint is queued and not yet run: at most one waits at a time.
    let queued = Atomic<Bool>(false)
    /// The log's frames the last checkpoint copied; 0 after one that copied them all, or
    /// once the log started over.
    let copied = Atomic<Int32>(0)
    /// The log's length after the previous commit (`committed` only: SQLite calls the hook
    /// under the connection's mutex, one commit at a time).
    private var lastLogged: Int32 = 0

    init(checkpointer: SQLiteDatabase, queue: DispatchQueue, pages: Int32) {
        self.checkpointer = checkpointer
        self.queue = queue
        self.pages = pages
        self.bound = pages > Int32.max / 4 ? Int32.max : pages * 4
    }

    /// After a commit that left the log `logged` frames long: true when the commit is to
    /// checkpoint the log itself (it is `bound` long); otherwise queues a passive checkpoint
    /// on `checkpointer` when `pages` or more frames are not yet copied and none is queued.
    /// O(1).
    func committed(pages logged: Int32) -> Bool {
        if logged < lastLogged { copied.store(0, ordering: .releasing) }
        lastLogged = logged
        if logged >= bound { return true }
        let pending = logged - min(copied.load(ordering: .acquiring), logged)
        guard pending >= pages, queued.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return false }
        queue.async { [self] in
            queued.store(false, ordering: .releasing)
            // Passive: copies what no reader still needs and never waits for a lock; what it
            // leaves is copied by a later one.
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
