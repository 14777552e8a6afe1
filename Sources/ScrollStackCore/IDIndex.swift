/// A hash index from row ids to row handles that stores no strings: each slot holds 32 bits
/// of the id's hash and the handle, and a probe confirms a match against the id the handle
/// names. Open addressing with linear probing, at most 3/4 full, and backward-shift
/// deletion (no tombstones), so it takes 8 bytes per slot, about 11–21 bytes per row.
///
/// The hash is `IDHash`, keyed once per process, so colliding ids cannot be chosen ahead of
/// time; it agrees with `String`'s `==` (canonical equivalence).
/// Lookup, insertion and removal are O(1) expected; growth is O(n), amortized O(1).
struct IDIndex: Sendable {
    /// 0 is an empty slot; otherwise `hash << 32 | (handle + 1)`.
    private var slots = PagedColumn<UInt64>()
    private(set) var count = 0
    /// `slots.count - 1` (the slot count is a power of two), kept apart from the slots.
    private var mask = -1

    static func hash(_ id: String) -> UInt32 { IDHash.hash(id) }

    /// The handle whose key (`keys[handle]`) equals `id`, if any.
    func find<Keys: RandomAccessCollection<String>>(_ id: String, keys: Keys) -> Int32? where Keys.Index == Int {
        find(id, keys: keys, reading: { _ in () })?.handle
    }

    /// `find(_:keys:)` that calls `read` with each candidate handle (its hash matches) before
    /// comparing the candidate's key, and returns what it read for the match. The caller's
    /// loads for the handle then start while the key's is in flight: at a million rows both
    /// are cache misses, which overlap instead of following each other.
    @inline(__always)
    func find<Keys: RandomAccessCollection<String>, T>(_ id: String, keys: Keys, reading read: (Int32) -> T) -> (handle: Int32, value: T)?
    where Keys.Index == Int {
        guard count > 0 else { return nil }
        let tag = Self.hash(id)
        var b = Int(tag) & mask
        while true {
            let slot = slots[b]
            if slot == 0 { return nil }
            if UInt32(truncatingIfNeeded: slot >> 32) == tag {
                let handle = Int32(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1
                let value = read(handle)
                if keys[Int(handle)] == id { return (handle, value) }
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

    /// Adds `handle` under `id` unless `id` is present, hashing `id` once; returns the handle
    /// already there, or nil when `handle` was added. O(1) expected.
    mutating func insertIfAbsent<Keys: RandomAccessCollection<String>>(_ id: String, handle: Int32, keys: Keys) -> Int32?
    where Keys.Index == Int {
        if (count + 1) * 4 > slots.count * 3 { grow(to: Swift.max(16, slots.count * 2)) }
        let tag = Self.hash(id)
        var b = Int(tag) & mask
        while true {
            let slot = slots[b]
            if slot == 0 { break }
            if UInt32(truncatingIfNeeded: slot >> 32) == tag {
                let found = Int32(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1
                if keys[Int(found)] == id { return found }
            }
            b = (b + 1) & mask
        }
        slots[b] = UInt64(tag) << 32 | UInt64(UInt32(handle) + 1)
        count += 1
        return nil
    }

    /// Fills an empty index with every key, `keys[h]` under handle h, or returns false when
    /// two keys are equal (the index is then unusable). The entries are hashed first and
    /// placed in order of their home slots, so the table is written front to back instead of
    /// at random: at a million ids this avoids a cache miss per id.
    ///
    /// - Complexity: O(n) expected: one hash per key, a counting sort on the home slot's high
    ///   bits, one pass of placement.
    mutating func build<Keys: RandomAccessCollection<String>>(keys: Keys) -> Bool where Keys.Index == Int {
        precondition(count == 0)
        let n = keys.count
        guard n > 0 else { return true }
        var capacity = Swift.max(16, slots.count)
        while n * 4 > capacity * 3 { capacity *= 2 }
        let mask = capacity - 1
        let entries = [UInt64](unsafeUninitializedCapacity: n) { buffer, initialized in
            for i in 0..<n { buffer[i] = UInt64(Self.hash(keys[i])) << 32 | UInt64(i + 1) }
            initialized = n
        }
        // Placed into a flat table first (no page checks per write), then paged in one copy.
        var table = [UInt64](repeating: 0, count: capacity)
        let unique = table.withUnsafeMutableBufferPointer { table in
            for entry in sortedByHome(entries, mask: mask) {
                let tag = UInt32(truncatingIfNeeded: entry >> 32)
                var b = Int(tag) & mask
                while true {
                    let slot = table[b]
                    if slot == 0 { break }
                    if UInt32(truncatingIfNeeded: slot >> 32) == tag,
                       keys[Int(slot & 0xFFFF_FFFF) - 1] == keys[Int(entry & 0xFFFF_FFFF) - 1] { return false }
                    b = (b + 1) & mask
                }
                table[b] = entry
            }
            return true
        }
        guard unique else { return false }
        slots = PagedColumn()
        slots.append(contentsOf: table)
        self.mask = mask
        count = n
        return true
    }

    /// Adds the rows at `handles` under their keys (`keys[h]`), none of which is present yet:
    /// `insert` for each, but a large batch is placed in order of home slots, as `build`
    /// does, so that the table is written front to back rather than at random.
    ///
    /// - Complexity: O(k) expected for k handles, plus growth.
    mutating func insertAll<Keys: RandomAccessCollection<String>>(handles: [Int32], keys: Keys) where Keys.Index == Int {
        guard handles.count >= 1024 else {
            for h in handles { insert(keys[Int(h)], handle: h) }
            return
        }
        reserve(count + handles.count)
        let entries = handles.map { h in UInt64(Self.hash(keys[Int(h)])) << 32 | UInt64(UInt32(h) + 1) }
        for entry in sortedByHome(entries, mask: mask) { place(entry) }
        count += handles.count
    }

    /// `entries` grouped by their home slot's high bits (a counting sort), groups small
    /// enough to stay in the cache while they are filled. O(n + groups).
    private func sortedByHome(_ entries: [UInt64], mask: Int) -> [UInt64] {
        let groupBits = Swift.max(0, mask.nonzeroBitCount - 12)
        var starts = [Int](repeating: 0, count: (mask >> groupBits) + 2)
        for entry in entries { starts[(Int(entry >> 32) & mask) >> groupBits + 1] += 1 }
        for g in 1..<starts.count { starts[g] += starts[g - 1] }
        var sorted = [UInt64](repeating: 0, count: entries.count)
        for entry in entries {
            let g = (Int(entry >> 32) & mask) >> groupBits
            sorted[starts[g]] = entry
            starts[g] += 1
        }
        return sorted
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
        slots = PagedColumn(repeating: 0, count: capacity)
        mask = capacity - 1
        for entry in old where entry != 0 { place(entry) }
    }
}
