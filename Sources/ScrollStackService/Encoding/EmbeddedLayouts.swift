import JSONCodec
import ScrollStackCore

/// Writes the layouts of the stacks a layout's rows embed, into those rows (`"stack"`), level
/// after level down to `depth`: a composed screen's answer (Docs/Semantics.md, "Composed
/// screens").
///
/// Rules: an embedded stack is laid out with the embedding row's content frame as its
/// viewport, at its own offset. Its rows' frames are given in the root's content coordinates
/// (the root's rows' coordinates): a point p of the embedded stack's content is at
/// frame.origin − offset + p. A row's visibility is judged against the clip, the intersection
/// of every enclosing viewport in root coordinates, by the rules of a stack's own visibility.
/// Past `depth`, an embedding row names its stack only (`{"id"}`).
///
/// Each embedded stack is read under its own read lock, taken while the host's is held: locks
/// are taken down the embedding graph, which has no cycle (`Embeddings`), so readers cannot
/// wait on each other in a circle, and writers take no other stack's lock.
final class EmbeddedLayouts {
    /// The deepest level an answer follows (and `?depth=`'s largest value).
    static let maxDepth = 16

    private let entry: (String) -> StackEntry?
    let depth: Int
    private let visibleOnly: Bool
    /// Every embedded stack written, with the revision it was read at, in the order written.
    private(set) var revisions: [(id: String, revision: Int)] = []

    init(depth: Int, visibleOnly: Bool, entry: @escaping (String) -> StackEntry?) {
        self.depth = depth
        self.visibleOnly = visibleOnly
        self.entry = entry
    }

    /// Where the rows of one level are: added to a point of their stack's content to place it
    /// in root coordinates (`translation`), and the part of the root's viewport they can show in.
    struct Placement {
        var translation: Point
        /// Nil when no part of the enclosing viewports remains.
        var clip: Rect?
        /// 1 for the root's rows.
        var level: Int
    }

    /// The placement of a root laid out at `layout`'s offset in its viewport.
    static func root(_ layout: StackLayout) -> Placement {
        Placement(translation: .zero, clip: Rect(origin: layout.offset, size: layout.viewport), level: 1)
    }

    /// How many rows an answer following `stack` down to `depth` levels lays out, counting a
    /// stack once for each row that embeds it: what the caller checks against its budget.
    /// Saturates at `Int.max` (a tree of 16 levels of 16 embeddings holds 16¹⁶ rows), never
    /// wraps. O(distinct stacks in the tree × depth).
    func rowCount(of stack: ScrollStack) -> Int {
        var memo: [String: Int] = [:]
        func count(_ stack: ScrollStack, level: Int) -> Int {
            var total = stack.count
            guard level <= depth else { return total }
            for (id, rows) in stack.embeddedStackCounts {
                let key = "\(level) \(id)"
                let each: Int
                if let known = memo[key] {
                    each = known
                } else {
                    each = (try? entry(id)?.read { child, _ throws(APIError) in count(child, level: level + 1) }) ?? 0
                    memo[key] = each
                }
                let (product, overflowed) = rows.multipliedReportingOverflow(by: each)
                let (sum, overflow) = total.addingReportingOverflow(overflowed ? Int.max : product)
                total = overflow ? Int.max : sum
            }
            return total
        }
        return count(stack, level: 1)
    }

    /// The embedded stacks of `stack`'s rows by index when an answer writes `rows` of its rows
    /// and that many look-ups by id would cost more than one pass over all of them; nil
    /// otherwise (the caller then looks each row up: `ScrollStack.embeddedStack(ofRow:)`).
    static func embeddingRows(of stack: ScrollStack, answering rows: Int) -> [Int: String]? {
        rows >= 64 && rows * 8 >= stack.count ? stack.embeddingRows() : nil
    }

    /// Writes `"stack": {…}` for `row`, which embeds the stack `id`.
    func writeMember(_ w: inout JSONWriter, id: String, _ row: RowLayout, _ placement: Placement) {
        w.key(ascii: "stack")
        guard placement.level <= depth, let entry = entry(id) else {
            w.beginObject()
            w.key(ascii: "id")
            w.string(id)
            w.endObject()
            return
        }
        let frame = Self.moved(row.contentFrame, by: placement.translation)
        if let laid = read(entry, id: id, viewport: frame.size) {
            writeLayout(&w, id: id, revision: laid.revision, of: laid.stack, in: frame, placement)
        } else {
            // The stack cannot be read (its journal is damaged): named, marked unavailable.
            w.beginObject()
            w.key(ascii: "id")
            w.string(id)
            w.key(ascii: "unavailable")
            w.bool(true)
            w.endObject()
        }
    }

    /// The stack `id` embedded in a row whose content frame is `viewport` large, laid out there
    /// at its own offset and drawn (`PictureScene`); nil past `depth` (`level` is the
    /// embedding row's), or when it does not exist or cannot be read.
    func stack(_ id: String, viewport: Size, level: Int) -> (stack: ScrollStack, layout: StackLayout)? {
        guard level <= depth, let entry = entry(id), let laid = read(entry, id: id, viewport: viewport)?.stack else { return nil }
        return (laid, laid.visibleLayout(offset: nil))
    }

    /// A copy of `entry`'s stack with `viewport` as its viewport, read under its read lock,
    /// its revision recorded; nil when it cannot be read (its journal is damaged).
    private func read(_ entry: StackEntry, id: String, viewport: Size) -> (stack: ScrollStack, revision: Int)? {
        try? entry.read { child, revision throws(APIError) in
            revisions.append((id, revision))
            var laid = child
            if viewport != child.settings.viewport {
                do throws(StackError) { _ = try laid.update(SettingsChange(viewport: viewport)) } catch { throw APIError(error) }
            }
            return (laid, revision)
        }
    }

    /// One embedded stack's layout object: id, revision, axis, viewport, offset, content size,
    /// `frame` (its viewport in root coordinates), rows, visible rows and its carousel's members.
    private func writeLayout(_ w: inout JSONWriter, id: String, revision: Int, of stack: ScrollStack, in frame: Rect, _ host: Placement) {
        let layout = visibleOnly ? stack.visibleLayout(offset: nil) : stack.layout(offset: nil)
        let translation = Point(x: frame.origin.x - layout.offset.x, y: frame.origin.y - layout.offset.y)
        let placement = Placement(translation: translation, clip: host.clip.flatMap { Self.intersection($0, frame) }, level: host.level + 1)
        w.beginObject()
        w.key(ascii: "id")
        w.string(id)
        w.key(ascii: "revision")
        w.integer(Int64(revision))
        ModelEncoding.writeLayoutGeometry(&w, layout)
        w.key(ascii: "frame")
        w.value(ModelEncoding.rect(frame))
        w.key(ascii: "rows")
        w.beginArray()
        var visible: [String] = []
        var entire: [String] = []
        let embedding = Self.embeddingRows(of: stack, answering: layout.rows.count)
        for row in layout.rows {
            var moved = row
            moved.frame = Self.moved(row.frame, by: translation)
            moved.contentFrame = Self.moved(row.contentFrame, by: translation)
            moved.separatorFrame = row.separatorFrame.map { Self.moved($0, by: translation) }
            moved.visibility = Self.visibility(of: moved.frame, hidden: row.visibility == .hidden, in: placement.clip)
            if visibleOnly && !moved.visibility.isVisible { continue }
            if moved.visibility.isVisible { visible.append(row.id) }
            if moved.visibility == .entire { entire.append(row.id) }
            ModelEncoding.writeLayoutRowOpening(&w, id: moved.id, index: moved.index, frame: moved.frame, contentFrame: moved.contentFrame,
                                                separatorFrame: moved.separatorFrame, visibility: moved.visibility, axis: layout.axis)
            if let id = embedding.map({ $0[row.index] }) ?? stack.embeddedStack(ofRow: row.id) {
                writeMember(&w, id: id, row, placement)
            }
            w.endObject()
        }
        ModelEncoding.writeLayoutTail(&w, visible: visible, entire: entire, of: stack, offset: layout.offset)
        w.endObject()
    }

    /// A row's visibility in `clip` (nil: nothing of the enclosing viewports shows).
    static func visibility(of frame: Rect, hidden: Bool, in clip: Rect?) -> Visibility {
        if hidden { return .hidden }
        guard let clip else { return .offscreen }
        return Visibility.of(row: frame, hidden: false, in: clip)
    }

    static func moved(_ r: Rect, by t: Point) -> Rect {
        Rect(x: r.origin.x + t.x, y: r.origin.y + t.y, width: r.size.width, height: r.size.height)
    }

    /// The rect two rects share, nil when they share no area.
    static func intersection(_ a: Rect, _ b: Rect) -> Rect? {
        let minX = max(a.minX, b.minX), maxX = min(a.maxX, b.maxX)
        let minY = max(a.minY, b.minY), maxY = min(a.maxY, b.maxY)
        guard maxX > minX, maxY > minY else { return nil }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The entity tag of a composed answer: the root's revision, then a hash of every
    /// embedded stack's id and revision (`"12.3f0c9a2b5d7e1184"`), so that it changes when
    /// any stack of the tree changes. FNV-1a, 64 bits.
    /// A picture's tag adds its kind (`"12.3f0c9a2b5d7e1184.svg"`).
    func entityTag(revision: Int, suffix: String = "") -> String { Self.entityTag(revision: revision, revisions: revisions, suffix: suffix) }

    /// `entityTag(revision:)` of an answer that read `revisions` besides its root's.
    static func entityTag(revision: Int, revisions: [(id: String, revision: Int)], suffix: String = "") -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ bytes: some Sequence<UInt8>) {
            for b in bytes { hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        }
        for (id, revision) in revisions {
            mix(id.utf8)
            mix([0])
            mix(String(revision).utf8)
            mix([0])
        }
        let hex = String(hash, radix: 16)
        return "\"\(revision).\(String(repeating: "0", count: 16 - hex.count))\(hex)\(suffix)\""
    }
}
