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

extension StoredJournal {
    /// Checks what was loaded against the key's recorded head (its latest revision, kept
    /// apart from the records: `heads` in SQLite, `journals.latest` in PostgreSQL): the
    /// snapshot is at or before `min(head, upTo)`, and the records run from the revision
    /// after it to `min(head, upTo)` without a gap. A journal that falls short is not handed
    /// back as an older state: it is `.damaged`, naming what is missing. O(records).
    public func verified(head: Int, upTo: Int) throws(JournalError) -> StoredJournal {
        let target = min(head, upTo)
        guard snapshotRevision <= target else {
            throw .damaged(key: key, detail: "its snapshot at revision \(snapshotRevision) is past its recorded head, revision \(target)")
        }
        var expected = snapshotRevision + 1
        for record in records {
            guard record.revision == expected else { break }
            expected += 1
        }
        guard expected > target else {
            throw .damaged(key: key, detail: "its records of revisions \(expected)…\(target) are missing (recorded head \(head), replay from the snapshot at revision \(snapshotRevision))")
        }
        return self
    }

    /// The error for a key whose recorded head is `head` but which has no snapshot at or
    /// before `min(head, upTo)` to start a replay from.
    public static func noSnapshot(key: String, head: Int, upTo: Int) -> JournalError {
        .damaged(key: key, detail: "it has no snapshot at or before revision \(min(head, upTo)) to start from (recorded head \(head))")
    }
}

/// Every journal, as `JournalBackend.loadEach` reads them: those that load whole, and those
/// found damaged, each with why.
public struct LoadedJournals: Sendable, Equatable {
    /// Ordered by key.
    public var journals: [StoredJournal]
    /// Key → what is wrong with its journal (`JournalError.damaged`'s detail).
    public var damaged: [String: String]

    public init(journals: [StoredJournal], damaged: [String: String] = [:]) {
        self.journals = journals
        self.damaged = damaged
    }
}
