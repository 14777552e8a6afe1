/// Everything one journal keeps — every snapshot, and every record with its plan — so it can
/// be copied whole from one backend to another (`scrollstackd migrate`).
public struct JournalArchive: Sendable, Equatable {
    public var key: String
    /// Every snapshot, by increasing revision; the first is revision 1's.
    public var snapshots: [JournalSnapshot]
    /// Every record (revisions 2…latest), in order, plans included.
    public var records: [JournalRecord]

    public init(key: String, snapshots: [JournalSnapshot], records: [JournalRecord]) {
        self.key = key
        self.snapshots = snapshots
        self.records = records
    }

    /// The latest revision: its last record's, or its last snapshot's.
    public var revision: Int { max(records.last?.revision ?? 0, snapshots.last?.revision ?? 0) }
}

/// One stored snapshot: the state at `revision`, in the service's encoding.
public struct JournalSnapshot: Sendable, Equatable {
    public var revision: Int
    public var model: [UInt8]

    public init(revision: Int, model: [UInt8]) {
        self.revision = revision
        self.model = model
    }
}
