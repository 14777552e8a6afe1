import CSQLite

/// Two connections to one WAL-mode file taking turns, and syncing the WAL off a lock.
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
}
