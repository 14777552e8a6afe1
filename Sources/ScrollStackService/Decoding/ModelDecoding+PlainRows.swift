import JSONCodec
import ScrollStackCore

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
