/// A revision as journal format 0 and 1 kept it (`SQLiteJournal`'s `mutations` table): the
/// HTTP request that made it, replayed through the service's routes, and its events.
public struct LegacyMutation: Sendable, Equatable {
    public var revision: Int
    public var method: String
    /// The path as received (percent-encoded; format 0 files are rewritten so on opening).
    public var path: String
    public var body: [UInt8]
    public var events: [UInt8]
}
