/// What keeps a replica's cached stacks current when several processes share one journal.
protocol StackReplication: Sendable {
    /// The entry of stack `id` with every revision journaled so far applied (`cached`, brought
    /// forward, or loaded from the journal). - Throws: 404 when the journal has no such
    /// stack, 503 when the journal cannot be reached.
    func current(_ id: String, cached: StackEntry?) throws(APIError) -> StackEntry
}
