/// A journal as `JournalBackend.load` reads it: a snapshot and the records after it.
public struct StoredJournal: Sendable, Equatable {
    public var key: String
    /// Changes whenever the key is deleted and created again (see `JournalBackend.writeSnapshot`).
    public var incarnation: Int64
    public var snapshotRevision: Int
    public var snapshot: [UInt8]
    /// The records after `snapshotRevision`, in revision order, without their plans.
    public var records: [JournalRecord]

    public init(key: String, incarnation: Int64, snapshotRevision: Int, snapshot: [UInt8], records: [JournalRecord]) {
        self.key = key
        self.incarnation = incarnation
        self.snapshotRevision = snapshotRevision
        self.snapshot = snapshot
        self.records = records
    }

    /// The revision the journal reaches.
    public var revision: Int { records.last?.revision ?? snapshotRevision }
}
