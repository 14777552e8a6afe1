/// A JSON object: members with unique keys, kept in insertion order (as jansson keeps them,
/// so the order of a parsed text is the order written back).
///
/// The members are an array: building one from pairs and iterating are O(n); a lookup by key
/// scans them, O(n), which beats hashing for the small objects of a request.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// A member: its key and its value.
    public typealias Element = (key: String, value: JSON)

    /// The members in order; no two have the same key.
    private(set) var members: [Element]

    /// At this many pairs and more, `init(_:)` finds repeated keys with a hash table rather
    /// than by comparing every pair with every other.
    private static let hashingThreshold = 16

    /// An empty object.
    public init() { members = [] }

    /// The members `pairs`, in order; a repeated key keeps its first position and its last
    /// value. O(n).
    public init(_ pairs: [(String, JSON)]) {
        members = []
        members.reserveCapacity(pairs.count)
        if pairs.count < Self.hashingThreshold {
            for (key, value) in pairs {
                if let i = members.firstIndex(where: { $0.key == key }) {
                    members[i].value = value
                } else {
                    members.append((key, value))
                }
            }
        } else {
            var positions: [String: Int] = [:]
            positions.reserveCapacity(pairs.count)
            for (key, value) in pairs {
                if let i = positions[key] {
                    members[i].value = value
                } else {
                    positions[key] = members.count
                    members.append((key, value))
                }
            }
        }
    }

    /// Members whose keys the caller knows to be unique (jansson's, when parsing).
    init(uniqueMembers: [Element]) { members = uniqueMembers }

    /// The members written, in order; a repeated key keeps its first position and its last
    /// value.
    public init(dictionaryLiteral elements: (String, JSON)...) { self.init(elements) }

    /// The value of the member `key`, nil when there is none. Setting a value replaces the
    /// member in place (keeping its position) or appends a new one; setting nil removes it.
    /// O(n).
    public subscript(key: String) -> JSON? {
        get {
            for member in members where member.key == key { return member.value }
            return nil
        }
        set {
            let index = members.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let i?, let value?): members[i].value = value
            case (let i?, nil): members.remove(at: i)
            case (nil, let value?): members.append((key, value))
            case (nil, nil): break
            }
        }
    }

    /// The keys, in order.
    public var keys: [String] { members.map(\.key) }

    /// The number of members.
    public var count: Int { members.count }

    /// Whether there are no members.
    public var isEmpty: Bool { members.isEmpty }

    /// The number of members (a sequence's hint, exact here).
    public var underestimatedCount: Int { members.count }

    /// Iterates over the members in order.
    public func makeIterator() -> IndexingIterator<[Element]> { members.makeIterator() }

    /// Whether `a` and `b` have the same members in the same order.
    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.members.count == b.members.count
            && zip(a.members, b.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    /// Hashes the members in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for member in members {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }
}
