import Jansson
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

    /// Row `i`, as `ModelDecoding.decodedRow` decodes it; `makeID` is called once when the
    /// row has no id. O(size of the row).
    func row(_ i: Int, maxDepth: Int, makeID: () -> String) throws(APIError) -> DecodedRow {
        if let row = ModelDecoding.plainRow(elements[i], makeID: makeID) { return row }
        return try ModelDecoding.decodedRow(Field(elements[i], path: array.elementPath(i)), maxDepth: maxDepth, makeID: makeID)
    }
}

extension ModelDecoding {
    /// A row of the commonest shape (`RowFields`) as `decodedRow` decodes it, or nil for any
    /// other row: a member besides `id`, `controller` or `view`, `size` and `hidden`, a
    /// descriptor with more than its `type`, a size other than `{"fixed": n}`, or a value of
    /// another kind than `decodedRow` takes. `makeID` is called only for a row it returns
    /// without an id. O(members).
    static func plainRow(_ value: JSON, makeID: () -> String) -> DecodedRow? {
        guard case .object(let object) = value else { return nil }
        var id: String?, content: RowContent?, length: Double?, hidden = false
        for (key, member) in object {
            switch key {
            case "id":
                guard case .string(let text) = member else { return nil }
                id = text
            case "controller", "view":
                guard content == nil, case .object(let descriptor) = member, descriptor.count == 1,
                      case .string(let type)? = descriptor["type"] else { return nil }
                content = key == "controller" ? .controller(ControllerDescriptor(type: type)) : .view(ViewDescriptor(type: type))
            case "size":
                guard case .object(let size) = member, size.count == 1, let fixed = size["fixed"]?.doubleValue else { return nil }
                length = fixed
            case "hidden":
                guard case .bool(let flag) = member else { return nil }
                hidden = flag
            default:
                return nil
            }
        }
        guard let content, let length else { return nil }
        return .plain(id: id ?? makeID(), content: content, size: .fixed(length), hidden: hidden)
    }
}
