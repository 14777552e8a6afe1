/// The segments a matched route's `{name}` parameters captured, percent-decoded, by name.
///
/// The route's names (shared by every match of it) beside the values, the first two held
/// inline: a route has one to three parameters, and a `[String: String]` built and hashed per
/// request cost about 1,500 instructions (allocating and hashing every name, then hashing
/// each name looked up); this allocates nothing for two values, and a lookup compares a few
/// short names. A sequence of `(key, value)` pairs in the pattern's order, equal to a
/// dictionary literal of the same pairs.
///
/// - Complexity: lookups O(parameters).
public struct RouteParameters: Sendable, Sequence, Equatable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    private let names: [String]
    private var first = ""
    private var second = ""
    private var rest: [String] = []

    /// Values for `names`, in order, each made by `value(position)`.
    init(names: [String], value: (Int) -> String) {
        self.names = names
        for position in names.indices {
            switch position {
            case 0: first = value(0)
            case 1: second = value(1)
            default: rest.append(value(position))
            }
        }
    }

    /// Parameters with these names and values (a later duplicate name is never found).
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(names: elements.map(\.0)) { elements[$0].1 }
    }

    /// Parameters with the dictionary's names and values.
    public init(_ dictionary: [String: String]) {
        let pairs = Array(dictionary)
        self.init(names: pairs.map(\.key)) { pairs[$0].value }
    }

    private func value(at position: Int) -> String {
        switch position {
        case 0: first
        case 1: second
        default: rest[position - 2]
        }
    }

    /// The value captured for `name`, nil when the route has no such parameter.
    public subscript(name: String) -> String? {
        for position in names.indices where names[position] == name { return value(at: position) }
        return nil
    }

    /// How many parameters the route has.
    public var count: Int { names.count }

    /// Whether the route has no parameters.
    public var isEmpty: Bool { names.isEmpty }

    /// The parameters as a dictionary.
    public var dictionary: [String: String] {
        Dictionary(map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    public func makeIterator() -> some IteratorProtocol<(key: String, value: String)> {
        names.indices.lazy.map { (key: names[$0], value: value(at: $0)) }.makeIterator()
    }

    /// Equal when they hold the same names with the same values, in any order.
    public static func == (a: RouteParameters, b: RouteParameters) -> Bool {
        a.dictionary == b.dictionary
    }

    public var description: String { dictionary.description }
}
