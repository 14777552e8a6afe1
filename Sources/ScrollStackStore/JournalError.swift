/// Why a journal call failed. The service maps each case to its HTTP answer at its edge.
public enum JournalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An append found another latest revision than the one before it (`latest`; nil when
    /// the key has no journal): someone else wrote first. Nothing was written.
    case conflict(key: String, latest: Int?)
    /// The backend cannot be reached for now (connection lost, server restarting); the same
    /// call may succeed later. Nothing was written.
    case unavailable(String)
    /// The backend refused or failed the call (disk full, read-only, corrupt file).
    /// Nothing was written.
    case failed(String)
    /// The journal of `key` is damaged: the rows it must hold cannot be read or written
    /// (the backend found its pages malformed or unreadable), or some are missing (a record
    /// between its latest snapshot and its recorded head, or every snapshot it could start
    /// from). Other keys are not affected, and retrying will not help until the store is
    /// repaired. Nothing was written.
    case damaged(key: String, detail: String)
    /// The store's schema is version `found`, newer than `known`, the newest this binary's
    /// migrations reach (`store` names the file or database): a newer server wrote it, and
    /// this one refuses to start on it rather than misread it. Nothing was changed.
    case schemaTooNew(store: String, found: Int, known: Int)

    public var description: String {
        switch self {
        case .conflict(let key, let latest?): "revision conflict on \(key): its latest revision is \(latest)"
        case .conflict(let key, nil): "revision conflict on \(key): it has no journal"
        case .unavailable(let detail): "storage unavailable: \(detail)"
        case .failed(let detail): detail
        case .damaged(let key, let detail): "the journal of \(key) is damaged: \(detail)"
        case .schemaTooNew(let store, let found, let known):
            "the schema of \(store) is version \(found), newer than version \(known), the newest this scrollstackd knows: a newer server wrote it; run that server (or a newer one), nothing was changed"
        }
    }
}
