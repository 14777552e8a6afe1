/// A cache bounded by the bytes its entries are estimated to take (not by their count),
/// evicting with CLOCK (second chance): a hit marks its entry; eviction sweeps a hand over the
/// entries, clearing marks and dropping the first unmarked one, until the new entry fits. Entries
/// in use keep their place however many others pass through once, so a working set that fits is
/// never flushed by a scan (unlike clearing everything when full).
///
/// An entry larger than the whole capacity is not kept.
///
/// - Complexity: `value(for:)` O(1) besides hashing; `insert` amortized O(1) per entry evicted
///   (each step of the hand clears a mark a hit set, passes a hole an eviction left, or evicts).
struct ByteBoundedCache<Key: Hashable, Value> {
    private struct Slot {
        var key: Key
        var value: Value
        var bytes: Int
        var referenced: Bool
    }

    /// The most bytes held.
    let capacity: Int
    /// The bytes held now (the sum of the entries' estimates), at most `capacity`.
    private(set) var bytes = 0
    /// How many entries were dropped to make room, since the cache was made.
    private(set) var evictions = 0
    private var slots: [Slot?] = []
    private var index: [Key: Int] = [:]
    /// Slots emptied by evictions, reused before the array grows.
    private var holes: [Int] = []
    private var hand = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    var count: Int { index.count }

    /// The value kept for `key`, marked as used.
    mutating func value(for key: Key) -> Value? {
        guard let i = index[key] else { return nil }
        slots[i]!.referenced = true
        return slots[i]!.value
    }

    /// Keeps `value` for `key` (not yet held), estimated at `bytes`, evicting until it fits;
    /// one larger than `capacity` is not kept. `marked` keeps it as if it had been used once
    /// (a value made ahead of its use, which the hand must not take before that use).
    mutating func insert(_ value: Value, for key: Key, bytes cost: Int, marked: Bool = false) {
        let cost = max(1, cost)
        guard cost <= capacity else { return }
        while bytes + cost > capacity && !index.isEmpty { evictOne() }
        let slot = Slot(key: key, value: value, bytes: cost, referenced: marked)
        let i: Int
        if let hole = holes.popLast() {
            i = hole
            slots[i] = slot
        } else {
            i = slots.count
            slots.append(slot)
        }
        index[key] = i
        bytes += cost
    }

    /// Drops every entry.
    mutating func removeAll() {
        slots.removeAll()
        index.removeAll()
        holes.removeAll()
        hand = 0
        bytes = 0
    }

    /// Advances the hand to the first unmarked entry (clearing marks on the way) and drops it.
    private mutating func evictOne() {
        while true {
            if hand >= slots.count { hand = 0 }
            if let slot = slots[hand] {
                if slot.referenced {
                    slots[hand]!.referenced = false
                } else {
                    index[slot.key] = nil
                    bytes -= slot.bytes
                    evictions += 1
                    slots[hand] = nil
                    holes.append(hand)
                    hand += 1
                    return
                }
            }
            hand += 1
        }
    }
}
