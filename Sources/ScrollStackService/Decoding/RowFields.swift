import JSONCodec
import ScrollStackCore

/// The rows of a body's `rows` array (create, insert), read one at a time: a row of the
/// commonest shape — `id`, a `controller` or `view` naming only its `type`, a size
/// `{"fixed": n}` and `hidden`, nothing else — in one pass over its members with no field
/// path made (`ModelDecoding.plainRow`); any other row through `ModelDecoding.decodedRow`,
/// under its path (`rows[i]`), which names its error. Either way the row decodes to the same
/// value: the first kind only ever takes rows the second accepts.
struct RowFields {
    /// The array, for the paths of the rows decoded field by field.
    let array: Field
    let elements: [JSON]

    /// The rows `field` holds. - Throws: what `Field.array()` throws.
    init(_ field: Field) throws(APIError) {
        guard let elements = field.value.arrayValue else { throw .wrongType(field.path, expected: "an array", got: field.value.typeName) }
        self.array = field
        self.elements = elements
    }

    var count: Int { elements.count }

    /// Row `i`, as `ModelDecoding.decodedRow` decodes it over the stack's settings
    /// `defaults`; `makeID` is called once when the row has no id. O(size of the row).
    func row(_ i: Int, maxDepth: Int, maxTitle: Int, defaults: StackSettings, makeID: () -> String) throws(APIError) -> DecodedRow {
        if let row = ModelDecoding.plainRow(elements[i], makeID: makeID) { return row }
        return try ModelDecoding.decodedRow(Field(elements[i], path: array.elementPath(i)), maxDepth: maxDepth, maxTitle: maxTitle,
                                            defaults: defaults, makeID: makeID)
    }
}
