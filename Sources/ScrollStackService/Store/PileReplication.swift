/// What keeps a replica's cached piles current when several processes share one journal
/// (the piles' counterpart of `StackReplication`).
protocol PileReplication: Sendable {
    /// The entry of pile `id` with every revision journaled so far applied (`cached`, brought
    /// forward, or loaded from the journal). - Throws: 404 when the journal has no such
    /// pile, 503 when the journal cannot be reached.
    func current(_ id: String, cached: PileEntry?) throws(APIError) -> PileEntry
}
