import JSONCodec
import ScrollStackCore

/// A stack operation (kind 2, version 1): an opcode byte, then
///
///     1 insert: varint count, rows (`SnapshotFormat` rows), location
///     2 replace, 3 setRow: varint index, row
///     4 remove, 9 reload: references;  5 removeAll;  6 move: varint index, signed to
///     7 setHidden: references, u8 hidden;  8 setInsets: references, u8 present, insets?
///     10 settings: varint length + the settings as the API writes them (JSON, 17 digits)
///     11 scroll: target;  12 revert: varint to, varint length + a `SnapshotFormat` snapshot
///     13 replaceWhole: varint length + a `SnapshotFormat` snapshot
///
/// A reference: u8 0 + id string | u8 1 + signed index; references: varint count, each.
/// A location: u8 0 top | 1 bottom | 2 + signed index | 3 before, 4 after + reference.
/// A target: u8 0 + x, y doubles | 1 + reference + position string | 2 top | 3 bottom.
extension OperationRecord {
    static func stack(_ operation: StackOperation) -> [UInt8] {
        var w = ByteWriter(capacity: 64)
        w.byte(stackKind)
        switch operation {
        case .insert(let rows, let location):
            w.byte(1)
            w.varint(rows.count)
            for row in rows { SnapshotFormat.encode(row, into: &w) }
            encode(location, into: &w)
        case .insertBatch(let batch, let location):
            w.byte(1)
            w.varint(batch.count)
            for i in 0..<batch.count { SnapshotFormat.encode(batch[i], into: &w) }
            encode(location, into: &w)
        case .replace(let index, let row):
            w.byte(2)
            w.varint(index)
            SnapshotFormat.encode(row, into: &w)
        case .update(let index, let change):
            preconditionFailure("journal the setRow an update made (journaled(after:)), not the change of row \(index): \(change)")
        case .setRow(let index, let row):
            w.byte(3)
            w.varint(index)
            SnapshotFormat.encode(row, into: &w)
        case .remove(let references):
            w.byte(4)
            encode(references, into: &w)
        case .removeAll:
            w.byte(5)
        case .move(let index, let to):
            w.byte(6)
            w.varint(index)
            w.signed(to)
        case .setHidden(let references, let hidden):
            w.byte(7)
            encode(references, into: &w)
            w.byte(hidden ? 1 : 0)
        case .setInsets(let references, let insets):
            w.byte(8)
            encode(references, into: &w)
            w.byte(insets == nil ? 0 : 1)
            if let insets { SnapshotFormat.encode(insets, into: &w) }
        case .reload(let references):
            w.byte(9)
            encode(references, into: &w)
        case .settings(let settings):
            w.byte(10)
            let json = JSON.object(JSONObject(ModelEncoding.settings(settings))).serialized(realPrecision: 17)
            w.varint(json.count)
            w.bytes(json)
        case .scroll(let target):
            w.byte(11)
            encode(target, into: &w)
        case .revert(let to, let past):
            w.byte(12)
            w.varint(to)
            let snapshot = SnapshotFormat.encode(past)
            w.varint(snapshot.count)
            w.bytes(snapshot)
        case .replaceWhole(let document):
            w.byte(13)
            let snapshot = SnapshotFormat.encode(document)
            w.varint(snapshot.count)
            w.bytes(snapshot)
        }
        return w.bytes
    }

    /// The stack operation `bytes` hold; rows of a revert are measured by `measurer`.
    /// - Throws: `journalUnreadable` naming `what`.
    static func decodeStack(_ bytes: [UInt8], what: String, measurer: any ContentMeasuring,
                            titleMeasurer: (any TitleMeasuring)?) throws(APIError) -> StackOperation {
        try reading(bytes, kind: stackKind, what: what) { (r: inout ByteReader) throws(APIError) -> StackOperation in
            let opcode = try r.byte()
            switch opcode {
            case 1:
                let count = try r.varint()
                guard count <= bytes.count else { throw r.damaged("it claims \(count) rows") }
                var rows: [Row] = []
                rows.reserveCapacity(count)
                for _ in 0..<count { rows.append(try SnapshotFormat.row(&r)) }
                return .insert(rows, at: try location(&r))
            case 2: return .replace(index: try r.varint(), row: try SnapshotFormat.row(&r))
            case 3: return .setRow(index: try r.varint(), row: try SnapshotFormat.row(&r))
            case 4: return .remove(try references(&r))
            case 5: return .removeAll
            case 6: return .move(index: try r.varint(), to: try r.signed())
            case 7: return .setHidden(try references(&r), try r.byte() != 0)
            case 8:
                let targets = try references(&r)
                return .setInsets(targets, try r.byte() != 0 ? try SnapshotFormat.insets(&r) : nil)
            case 9: return .reload(try references(&r))
            case 10:
                let json = try r.bytes(try r.varint())
                guard case .object(let object)? = try? JSON.parse(json) else { throw r.damaged("its settings are not a JSON object") }
                do throws(APIError) { return .settings(try ModelDecoding.settings(ObjectReader(object: object, path: "settings"), base: StackSettings())) } catch {
                    throw r.damaged("its settings are refused: \(error.message)")
                }
            case 11: return .scroll(try target(&r))
            case 12:
                let to = try r.varint()
                let snapshot = try r.bytes(try r.varint())
                return .revert(to: to, try SnapshotFormat.decode(snapshot, what: "\(r.what)'s revision \(to)", measurer: measurer, titleMeasurer: titleMeasurer))
            case 13:
                let snapshot = try r.bytes(try r.varint())
                return .replaceWhole(try SnapshotFormat.decode(snapshot, what: "\(r.what)'s replacement", measurer: measurer, titleMeasurer: titleMeasurer))
            default:
                throw r.damaged("stack opcode \(opcode) is unknown (a newer server wrote it?)")
            }
        }
    }

    static func encode(_ reference: RowReference, into w: inout ByteWriter) {
        switch reference {
        case .id(let id): w.byte(0); w.string(id)
        case .index(let index): w.byte(1); w.signed(index)
        }
    }

    static func reference(_ r: inout ByteReader) throws(APIError) -> RowReference {
        switch try r.byte() {
        case 0: return .id(try r.string())
        case 1: return .index(try r.signed())
        case let tag: throw r.damaged("row reference tag \(tag) is unknown")
        }
    }

    static func encode(_ references: [RowReference], into w: inout ByteWriter) {
        w.varint(references.count)
        for reference in references { encode(reference, into: &w) }
    }

    static func references(_ r: inout ByteReader) throws(APIError) -> [RowReference] {
        let count = try r.varint()
        var references: [RowReference] = []
        for _ in 0..<count { references.append(try reference(&r)) }
        return references
    }

    static func encode(_ location: InsertLocation, into w: inout ByteWriter) {
        switch location {
        case .top: w.byte(0)
        case .bottom: w.byte(1)
        case .index(let index): w.byte(2); w.signed(index)
        case .before(let reference): w.byte(3); encode(reference, into: &w)
        case .after(let reference): w.byte(4); encode(reference, into: &w)
        }
    }

    static func location(_ r: inout ByteReader) throws(APIError) -> InsertLocation {
        switch try r.byte() {
        case 0: return .top
        case 1: return .bottom
        case 2: return .index(try r.signed())
        case 3: return .before(try reference(&r))
        case 4: return .after(try reference(&r))
        case let tag: throw r.damaged("insert location tag \(tag) is unknown")
        }
    }

    static func encode(_ target: ScrollTarget, into w: inout ByteWriter) {
        switch target {
        case .offset(let point): w.byte(0); w.double(point.x); w.double(point.y)
        case .row(let reference, let position): w.byte(1); encode(reference, into: &w); w.string(position.rawValue)
        case .top: w.byte(2)
        case .bottom: w.byte(3)
        }
    }

    static func target(_ r: inout ByteReader) throws(APIError) -> ScrollTarget {
        switch try r.byte() {
        case 0: return .offset(Point(x: try r.double(), y: try r.double()))
        case 1:
            let reference = try reference(&r)
            let name = try r.string()
            guard let position = ScrollPosition(rawValue: name) else { throw r.damaged("scroll position \"\(name)\" is unknown") }
            return .row(reference, position)
        case 2: return .top
        case 3: return .bottom
        case let tag: throw r.damaged("scroll target tag \(tag) is unknown")
        }
    }
}
