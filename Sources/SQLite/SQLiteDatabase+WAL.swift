import CSQLite

/// What `onWALCommit` calls; SQLite holds it by an unretained pointer, the connection keeps it.
final class WALHook {
    let body: @Sendable (SQLiteDatabase, Int) -> Void
    unowned let database: SQLiteDatabase
    init(database: SQLiteDatabase, body: @escaping @Sendable (SQLiteDatabase, Int) -> Void) {
        self.database = database
        self.body = body
    }
}

/// Write-ahead-log control: who checkpoints, and commits that do not wait for the disk.
extension SQLiteDatabase {
    /// Calls `hook` after every transaction this connection commits in WAL mode, with the
    /// connection and the number of pages the WAL then holds. It replaces SQLite's automatic
    /// checkpoints (`wal_autocheckpoint`): from now on the caller decides when to checkpoint.
    /// The hook runs on the committing thread with the connection's lock held, after the
    /// commit is durable; it may call `checkpoint` on this connection.
    public func onWALCommit(_ hook: @escaping @Sendable (SQLiteDatabase, Int) -> Void) {
        try? locked { () throws(SQLiteError) in
            let box = WALHook(database: self, body: hook)
            walHook = box
            sqlite3_wal_hook(handle, { context, _, _, pages in
                guard let context else { return SQLITE_OK }
                let box = Unmanaged<WALHook>.fromOpaque(context).takeUnretainedValue()
                box.body(box.database, Int(pages))
                return SQLITE_OK
            }, Unmanaged.passUnretained(box).toOpaque())
        }
    }

    /// Runs a PASSIVE checkpoint: copies into the database file as many WAL pages as no
    /// reader still needs, without waiting for any lock held by another connection (writers
    /// go on meanwhile). Returns the WAL's pages and how many of them are now in the
    /// database file. Once every page is, the next write starts the WAL over.
    @discardableResult
    public func checkpoint() throws(SQLiteError) -> (walPages: Int, checkpointed: Int) {
        try locked { () throws(SQLiteError) in
            var log: Int32 = 0, checkpointed: Int32 = 0
            let status = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &log, &checkpointed)
            guard status == SQLITE_OK || status == SQLITE_BUSY else { throw SQLiteError(code: status, message: lastMessage) }
            return (Int(log), Int(checkpointed))
        }
    }

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
}
