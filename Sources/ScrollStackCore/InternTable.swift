/// Equal values stored once and named by a small index, with a count of the users of each,
/// so that a million rows with the same view type keep one copy of it. An entry whose last
/// user releases it is freed and its index reused.
///
/// Values that rarely repeat (a row's own properties) may be stored unshared instead
/// (`addUnshared`): one user, never looked up, so they cost no hash and no lookup entry.
///
/// `retain` and `release` are O(1) expected (one hash of the value); `addUnshared` is O(1).
struct InternTable<Value: Hashable & Sendable>: Sendable {
    private var values: [Value?] = []
    /// Users of each entry: 0 for a freed one, `unshared` for one stored by `addUnshared`.
    private var users: [Int32] = []
    private static var unshared: Int32 { -1 }
    private var lookup: [Value: Int32] = [:]
    private var free: [Int32] = []
    /// The index of the last value retained (-1: none): runs of equal values skip the hash.
    private var last: Int32 = -1

    subscript(index: Int32) -> Value { values[Int(index)]! }

    /// Indexes in use are below this.
    var indexLimit: Int { values.count }

    /// The value at `index`, or nil for a freed index.
    func valueIfPresent(at index: Int) -> Value? { values[index] }

    /// The index of `value`, adding it if new, with one more user.
    mutating func retain(_ value: Value) -> Int32 {
        // Compared in place: a copy of the last value would retain and release its strings.
        if last >= 0, values[Int(last)] == value {
            users[Int(last)] += 1
            return last
        }
        if let index = lookup[value] {
            last = index
            users[Int(index)] += 1
            return index
        }
        let index = store(value, users: 1)
        lookup[value] = index
        last = index
        return index
    }

    /// `count` more users of the entry at `index`, which is in use and shared. O(1).
    mutating func retain(index: Int32, count: Int32 = 1) {
        precondition(users[Int(index)] > 0, "retaining a freed or unshared intern entry")
        users[Int(index)] += count
    }

    /// The index of a new entry holding `value` for one user, without looking it up: an
    /// equal value already stored is not shared, and `retain` never finds this one. O(1).
    mutating func addUnshared(_ value: Value) -> Int32 {
        store(value, users: Self.unshared)
    }

    /// One user fewer of `index`; the entry goes when it has none left.
    mutating func release(_ index: Int32) {
        let i = Int(index)
        if users[i] == Self.unshared {
            users[i] = 0
        } else {
            users[i] -= 1
            guard users[i] == 0 else { return }
            lookup[values[i]!] = nil
            if last == index { last = -1 }
        }
        values[i] = nil
        free.append(index)
    }

    private mutating func store(_ value: Value, users count: Int32) -> Int32 {
        if let reused = free.popLast() {
            values[Int(reused)] = value
            users[Int(reused)] = count
            return reused
        }
        values.append(value)
        users.append(count)
        return Int32(values.count - 1)
    }

    /// Makes room for `total` entries without regrowth (a builder of rows with their own
    /// contents adds one entry per row). Untouched capacity is not resident. O(total).
    mutating func reserveCapacity(_ total: Int) {
        values.reserveCapacity(total)
        users.reserveCapacity(total)
    }

    /// Traps unless every entry's user count equals `uses[index]` and the lookup agrees. O(entries).
    func checkInvariants(uses: [Int]) {
        var unsharedCount = 0
        for (index, value) in values.enumerated() {
            let expected = index < uses.count ? uses[index] : 0
            if let value, users[index] == Self.unshared {
                unsharedCount += 1
                precondition(expected == 1, "unshared intern entry \(index): \(expected) users")
                precondition(lookup[value] != Int32(index), "unshared intern entry \(index) is in the lookup")
            } else if let value {
                precondition(Int(users[index]) == expected, "intern entry \(index): \(users[index]) users, \(expected) expected")
                precondition(lookup[value] == Int32(index), "intern entry \(index): lookup does not point back")
            } else {
                precondition(expected == 0 && users[index] == 0, "freed intern entry \(index) still used")
            }
        }
        precondition(lookup.count + unsharedCount + free.count == values.count, "intern table: lost entries")
    }
}
