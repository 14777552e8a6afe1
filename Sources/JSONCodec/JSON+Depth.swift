extension JSON {
    /// How deeply arrays and objects nest in this value: 0 for a scalar, 1 for `[]`, `{}` or
    /// `{"a": 1}`, 2 for `[[]]` or `{"a": [1]}`.
    ///
    /// jansson's parser counts every value it enters, scalars included, and refuses text
    /// nested deeper than 2048: a value of depth d placed inside w containers reads back
    /// only while w + d + 1 ≤ 2048.
    ///
    /// - Complexity: O(size of the value), with an explicit stack rather than recursion.
    public var nestingDepth: Int {
        var deepest = 0
        var pending: [(value: JSON, depth: Int)] = [(self, 0)]
        while let (value, depth) = pending.popLast() {
            switch value {
            case .array(let elements):
                deepest = max(deepest, depth + 1)
                for element in elements { pending.append((element, depth + 1)) }
            case .object(let object):
                deepest = max(deepest, depth + 1)
                for (_, member) in object { pending.append((member, depth + 1)) }
            default:
                break
            }
        }
        return deepest
    }
}
