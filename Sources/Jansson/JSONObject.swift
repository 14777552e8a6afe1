/// A JSON object that keeps its members in insertion order, as jansson does.
///
/// Lookups scan the members: O(n), which beats hashing for the small objects of a request.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Element = (key: String, value: JSON)

    private var members: [(key: String, value: JSON)]

    public init() { members = [] }

    /// Members in order; a repeated key keeps its first position and its last value.
    public init(_ pairs: [(String, JSON)]) {
        members = []
        members.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    public init(dictionaryLiteral elements: (String, JSON)...) { self.init(elements) }

    /// The value for `key`. Setting nil removes the member; setting an existing key replaces
    /// its value in place; a new key is appended. O(n).
    public subscript(key: String) -> JSON? {
        get { members.first { $0.key == key }?.value }
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

    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }

    public func makeIterator() -> IndexingIterator<[(key: String, value: JSON)]> {
        members.makeIterator()
    }

    /// Equal when they hold the same members in the same order.
    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.members.count == b.members.count && zip(a.members, b.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for member in members {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }
}
