/// One revision of a journal: what made it and what it answered, as opaque bytes.
public struct JournalRecord: Sendable, Equatable {
    public var revision: Int
    /// The change, in the service's encoding (replaying it rebuilds the revision).
    public var operation: [UInt8]
    /// The events it answered with, in the service's encoding (history reads them back).
    public var events: [UInt8]
    /// Its transition plan, when one is kept (read back by `JournalBackend.plan` only).
    public var plan: [UInt8]?

    public init(revision: Int, operation: [UInt8], events: [UInt8], plan: [UInt8]? = nil) {
        self.revision = revision
        self.operation = operation
        self.events = events
        self.plan = plan
    }
}
