/// Equal values stored once and named by a small index, with a count of the users of each,
/// so that a million rows with the same view type keep one copy of it. An entry whose last
/// user releases it is freed and its index reused.
///
/// `retain` and `release` are O(1) expected (one hash of the value).
struct InternTable<Value: Hashable & Sendable>: Sendable {
    private var values: [Value?] = []
    private var users: [Int32] = []
    private var lookup: [Value: Int32] = [:]
    private var free: [Int32] = []
    /// The last value retained and its index: runs of equal values skip the hash.
    private var last: (value: Value, index: Int32)?

    subscript(index: Int32) -> Value { values[Int(index)]! }

    /// Indexes in use are below this.
    var indexLimit: Int { values.count }

    /// The value at `index`, or nil for a freed index.
    func valueIfPresent(at index: Int) -> Value? { values[index] }

    /// The index of `value`, adding it if new, with one more user.
    mutating func retain(_ value: Value) -> Int32 {
        if let last, last.value == value {
            users[Int(last.index)] += 1
            return last.index
        }
        if let index = lookup[value] {
            last = (value, index)
            users[Int(index)] += 1
            return index
        }
        let index: Int32
        if let reused = free.popLast() {
            index = reused
            values[Int(index)] = value
            users[Int(index)] = 1
        } else {
            index = Int32(values.count)
            values.append(value)
            users.append(1)
        }
        lookup[value] = index
        last = (value, index)
        return index
    }

    /// One user fewer of `index`; the entry goes when it has none left.
    mutating func release(_ index: Int32) {
        users[Int(index)] -= 1
        guard users[Int(index)] == 0 else { return }
        lookup[values[Int(index)]!] = nil
        values[Int(index)] = nil
        if last?.index == index { last = nil }
        free.append(index)
    }

    mutating func removeAll() { self = InternTable() }

    /// Traps unless every entry's user count equals `uses[index]` and the lookup agrees. O(entries).
    func checkInvariants(uses: [Int]) {
        for (index, value) in values.enumerated() {
            let expected = index < uses.count ? uses[index] : 0
            if let value {
                precondition(Int(users[index]) == expected, "intern entry \(index): \(users[index]) users, \(expected) expected")
                precondition(lookup[value] == Int32(index), "intern entry \(index): lookup does not point back")
            } else {
                precondition(expected == 0 && users[index] == 0, "freed intern entry \(index) still used")
            }
        }
        precondition(lookup.count + free.count == values.count, "intern table: lost entries")
    }
}
