/// A hash index from row ids to row handles that stores no strings: each slot holds 32 bits
/// of the id's hash and the handle, and a probe confirms a match against the id the handle
/// names. Open addressing with linear probing, at most 3/4 full, and backward-shift
/// deletion (no tombstones), so it takes 8 bytes per slot, about 11–21 bytes per row.
///
/// The hash is Swift's seeded `Hasher`, so colliding ids cannot be chosen ahead of time.
/// Lookup, insertion and removal are O(1) expected; growth is O(n), amortized O(1).
struct IDIndex: Sendable {
    /// 0 is an empty slot; otherwise `hash << 32 | (handle + 1)`.
    private var slots: [UInt64] = []
    private(set) var count = 0

    private var mask: Int { slots.count - 1 }

    static func hash(_ id: String) -> UInt32 { UInt32(truncatingIfNeeded: id.hashValue) }

    /// The handle whose key (`keys[handle]`) equals `id`, if any.
    func find<Keys: RandomAccessCollection<String>>(_ id: String, keys: Keys) -> Int32? where Keys.Index == Int {
        guard count > 0 else { return nil }
        let tag = Self.hash(id)
        var b = Int(tag) & mask
        while true {
            let slot = slots[b]
            if slot == 0 { return nil }
            if UInt32(truncatingIfNeeded: slot >> 32) == tag {
                let handle = Int32(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1
                if keys[Int(handle)] == id { return handle }
            }
            b = (b + 1) & mask
        }
    }

    /// Adds `handle` under `id`, which must not be present yet.
    mutating func insert(_ id: String, handle: Int32) {
        if (count + 1) * 4 > slots.count * 3 { grow(to: Swift.max(16, slots.count * 2)) }
        place(UInt64(Self.hash(id)) << 32 | UInt64(UInt32(handle) + 1))
        count += 1
    }

    /// Removes the entry of `id`, which must be present.
    mutating func remove<Keys: RandomAccessCollection<String>>(_ id: String, keys: Keys) where Keys.Index == Int {
        let tag = Self.hash(id)
        var i = Int(tag) & mask
        while true {
            let slot = slots[i]
            precondition(slot != 0, "IDIndex: removing an absent id")
            if UInt32(truncatingIfNeeded: slot >> 32) == tag, keys[Int(slot & 0xFFFF_FFFF) - 1] == id { break }
            i = (i + 1) & mask
        }
        // Backward shift: pull later entries of the probe run into the hole when their home
        // bucket does not lie cyclically in (hole, position].
        var j = i
        while true {
            j = (j + 1) & mask
            let slot = slots[j]
            if slot == 0 { break }
            let home = Int(slot >> 32) & mask
            let stays = i <= j ? (home > i && home <= j) : (home > i || home <= j)
            if !stays {
                slots[i] = slot
                i = j
            }
        }
        slots[i] = 0
        count -= 1
    }

    /// Makes room for `total` entries without regrowth. O(n).
    mutating func reserve(_ total: Int) {
        var capacity = Swift.max(16, slots.count)
        while total * 4 > capacity * 3 { capacity *= 2 }
        if capacity > slots.count { grow(to: capacity) }
    }

    mutating func removeAll() {
        slots = []
        count = 0
    }

    /// Every (hash, handle) entry, for the invariant check.
    func forEachEntry(_ body: (UInt32, Int32) -> Void) {
        for slot in slots where slot != 0 {
            body(UInt32(truncatingIfNeeded: slot >> 32), Int32(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1)
        }
    }

    private mutating func place(_ entry: UInt64) {
        var b = Int(entry >> 32) & mask
        while slots[b] != 0 { b = (b + 1) & mask }
        slots[b] = entry
    }

    /// Rehashes from the stored hashes; the ids are not read again. O(capacity).
    private mutating func grow(to capacity: Int) {
        let old = slots
        slots = Array(repeating: 0, count: capacity)
        for entry in old where entry != 0 { place(entry) }
    }
}
