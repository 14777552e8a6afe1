import ScrollStackStore

extension APIError {
    /// The HTTP view of a journal failure (the store's errors stop at the service's edge).
    /// A conflict is 409 `revision_conflict` with the latest revision: another writer
    /// journaled the revision first, and nothing of this change was kept.
    init(_ error: JournalError) {
        defer { journalError = error }
        switch error {
        case .conflict(let key, let latest):
            self.init(.revisionConflict,
                      message: "another writer journaled that revision of \(key) first (its latest is \(latest.map(String.init) ?? "none")); nothing was changed, retry on the new state",
                      revision: latest)
        case .unavailable(let detail):
            self.init(.storageUnavailable, message: "the store cannot be reached, so nothing was changed: \(detail)",
                      headers: [("Retry-After", "1")])
        case .failed(let detail):
            self = .storageFailed(detail)
        case .schemaTooNew:
            self = .storageFailed(error.description)
        case .damaged(let key, let detail) where key.hasPrefix(PileService.journalPrefix):
            // Piles have no unavailable state of their own: the store's error, without Retry-After.
            self.init(.storageUnavailable,
                      message: "the journal of the pile \"\(key.dropFirst(PileService.journalPrefix.count))\" is damaged, so nothing was changed: \(detail)")
        case .damaged(let key, let detail):
            // No Retry-After: the stack stays unavailable until the store is repaired.
            self = .stackUnavailable(key, reason: "its journal is damaged: \(detail)")
        }
    }
}
