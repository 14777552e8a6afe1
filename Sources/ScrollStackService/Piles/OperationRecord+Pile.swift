import ScrollStackCore
import ScrollStackPiles
import ScrollStackTransitions

/// A pile operation (kind 3, version 1): an opcode byte, then
///
///     1 push: view;  2 pop;  3 set: varint count, views;  4 update: u8 has id, id?, content
///
/// A view: id string, content. Content: u8 0 view (type, u8 has properties, properties?) |
/// 1 controller (type, u8 mask instance/properties, those present).
extension OperationRecord {
    static func pile(_ operation: PileOperation) -> [UInt8] {
        var w = ByteWriter(capacity: 64)
        w.byte(pileKind)
        switch operation {
        case .push(let view):
            w.byte(1)
            encode(view, into: &w)
        case .pop:
            w.byte(2)
        case .set(let views):
            w.byte(3)
            w.varint(views.count)
            for view in views { encode(view, into: &w) }
        case .update(let id, let content):
            w.byte(4)
            w.byte(id == nil ? 0 : 1)
            if let id { w.string(id) }
            encode(content, into: &w)
        }
        return w.bytes
    }

    /// - Throws: `journalUnreadable` naming `what`.
    static func decodePile(_ bytes: [UInt8], what: String) throws(APIError) -> PileOperation {
        try reading(bytes, kind: pileKind, what: what) { (r: inout ByteReader) throws(APIError) -> PileOperation in
            let opcode = try r.byte()
            switch opcode {
            case 1: return .push(try view(&r))
            case 2: return .pop
            case 3:
                let count = try r.varint()
                var views: [PileView] = []
                for _ in 0..<count { views.append(try view(&r)) }
                return .set(views)
            case 4:
                let id = try r.byte() != 0 ? try r.string() : nil
                return .update(id: id, content: try content(&r))
            default:
                throw r.damaged("pile opcode \(opcode) is unknown (a newer server wrote it?)")
            }
        }
    }

    static func encode(_ view: PileView, into w: inout ByteWriter) {
        w.string(view.id)
        encode(view.content, into: &w)
    }

    static func view(_ r: inout ByteReader) throws(APIError) -> PileView {
        PileView(id: try r.string(), content: try content(&r))
    }

    static func encode(_ content: RowContent, into w: inout ByteWriter) {
        switch content {
        case .view(let v):
            w.byte(0)
            w.string(v.type)
            w.byte(v.properties == nil ? 0 : 1)
            if let properties = v.properties { w.string(properties) }
        case .controller(let c):
            w.byte(1)
            w.string(c.type)
            w.byte(SnapshotFormat.mask(c.instance != nil, c.properties != nil))
            if let instance = c.instance { w.string(instance) }
            if let properties = c.properties { w.string(properties) }
        }
    }

    static func content(_ r: inout ByteReader) throws(APIError) -> RowContent {
        switch try r.byte() {
        case 0:
            let type = try r.string()
            return .view(ViewDescriptor(type: type, properties: try r.byte() != 0 ? try r.string() : nil))
        case 1:
            let type = try r.string()
            let m = try r.byte()
            let instance = m & 1 != 0 ? try r.string() : nil
            return .controller(ControllerDescriptor(type: type, instance: instance, properties: m & 2 != 0 ? try r.string() : nil))
        case let tag: throw r.damaged("view content tag \(tag) is unknown")
        }
    }
}
