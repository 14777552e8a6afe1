/// Every row of a stack by handle, column by column: the id, the natural length, the
/// hidden flag, the content (interned unless it has its own properties), the size rule (two doubles) and the rarely set
/// fields (one reference, nil for most rows). Order is not kept here; `RowTree` keeps it.
///
/// A row with an id of at most 15 UTF-8 bytes, a shared content and no extras takes
/// 16 + 8 + 1 + 4 + 16 + 8 + 4 + 4 (frame style) bytes of columns plus its `IDIndex` slot.
/// Handles of removed rows are reused. Every operation is O(1) expected.
struct RowStore: Sendable {
    typealias Handle = Int32

    /// A size rule in two doubles: a fixed length as itself, `fit` as one NaN pattern (stored
    /// rows are valid, so a fixed length is never NaN).
    struct PackedSize: Sendable {
        static let fitBits: UInt64 = 0x7FF8_0000_0000_F17F
        var vertical: Double
        var horizontal: Double

        init(vertical: Double, horizontal: Double) {
            self.vertical = vertical
            self.horizontal = horizontal
        }

        init(_ rule: SizeRule) {
            vertical = Self.pack(rule.vertical)
            horizontal = Self.pack(rule.horizontal)
        }

        var rule: SizeRule { SizeRule(vertical: Self.unpack(vertical), horizontal: Self.unpack(horizontal)) }

        private static func pack(_ rule: LengthRule) -> Double {
            switch rule {
            case .fit: return Double(bitPattern: fitBits)
            case .fixed(let length):
                precondition(!length.isNaN, "a stored row has a valid size")
                return length
            }
        }

        private static func unpack(_ value: Double) -> LengthRule {
            value.bitPattern == fitBits ? .fit : .fixed(value)
        }
    }

    /// A row's own insets and separator override: all a row adds to the stack's defaults in
    /// its layout, interned so that a full layout reads a 4-byte index per row, not its extras.
    struct FrameStyle: Sendable, Hashable {
        var insets: EdgeInsets?
        var separator: SeparatorOverride

        /// The style of a row with neither insets nor a separator override.
        static let plain = FrameStyle(insets: nil, separator: .none)

        init(insets: EdgeInsets?, separator: SeparatorOverride) {
            self.insets = insets
            self.separator = separator
        }

        init(_ row: Row) {
            self.init(insets: row.insets, separator: row.separator)
        }
    }

    private(set) var ids = PagedColumn<String>()
    /// The row's length along the scroll axis as if it were shown.
    private(set) var lengths = PagedColumn<Double>()
    private(set) var hidden = PagedColumn<Bool>()
    private(set) var extras = PagedColumn<RowExtras?>()
    /// Where each row sits in `RowTree`: its chunk and its local number there, packed as
    /// `chunk << 8 | local` (`RowTree.place`), or -1 while it is in no chunk.
    var chunkOf = PagedColumn<Int32>()
    private var contents = PagedColumn<Int32>()
    /// Each row's index in `frameStyles`.
    private(set) var frameStyleOf = PagedColumn<Int32>()
    /// Interned frame styles; `plainStyle` is pinned at index 0 (one user that is never
    /// released), so a plain row takes it without a comparison.
    private(set) var frameStyles = InternTable<FrameStyle>()
    private var sizes = PagedColumn<PackedSize>()
    private var live = PagedColumn<Bool>()
    private var freeHandles: [Handle] = []
    private var contentTable = InternTable<RowContent>()
    private(set) var index = IDIndex()
    /// How many live rows embed each stack id (`Row.stack`); ids no row embeds are absent.
    private(set) var embedded: [String: Int] = [:]

    /// The index of `FrameStyle.plain`: no insets, no separator override.
    static let plainStyle: Int32 = 0

    init() {
        let pinned = frameStyles.retain(.plain)
        assert(pinned == Self.plainStyle)
    }

    /// Rows stored.
    var count: Int { index.count }

    /// The handle of the row with `id`.
    func handle(id: String) -> Handle? { index.find(id, keys: ids) }

    /// The handle of the row with `id` and its place (`chunkOf`), read while the id is
    /// confirmed (`IDIndex.find(_:keys:reading:)`).
    func handleAndChunk(id: String) -> (handle: Handle, chunk: Int32)? {
        chunkOf.withReader { chunkOf in
            index.find(id, keys: ids, reading: { chunkOf[Int($0)] }).map { ($0.handle, $0.value) }
        }
    }

    func row(_ h: Handle) -> Row {
        let i = Int(h)
        var row = Row(id: ids[i], content: contentTable[contents[i]], size: sizes[i].rule, hidden: hidden[i])
        if let extra = extras[i] {
            row.contentDescription = extra.contentDescription
            row.insets = extra.insets
            row.separator = extra.separator
            row.tappable = extra.tappable
            row.highlightable = extra.highlightable
            row.title = extra.title
            row.transition = extra.transition
            row.style = extra.style
            row.stack = extra.stack
        }
        return row
    }

    /// The content description of the row at `h` unless it embeds a stack (the measurer
    /// measures the embedded stack instead), read without making a `Row`. O(1).
    func fitContent(_ h: Handle) -> ContentDescription? {
        guard let extra = extras[Int(h)], extra.stack == nil else { return nil }
        return extra.contentDescription
    }

    /// The row as a batch element: `.plain` when it sets nothing beyond its id, content, size
    /// and hidden flag (no extras: the `Row` would hold only defaults besides them), read from
    /// the columns without making a `Row`; else `.whole(row(h))`. O(1).
    func element(_ h: Handle) -> RowBatch.Element {
        let i = Int(h)
        guard extras[i] == nil else { return .whole(row(h)) }
        return .plain(id: ids[i], content: contentTable[contents[i]], size: sizes[i].rule, hidden: hidden[i])
    }

    /// The row's own insets, or nil when it follows the stack's.
    func insets(_ h: Handle) -> EdgeInsets? { extras[Int(h)]?.insets }

    /// The row's separator overrides.
    func separator(_ h: Handle) -> SeparatorOverride { extras[Int(h)]?.separator ?? .none }

    /// Makes room for `total` rows without regrowth. The id index is left alone: the rows
    /// are added unindexed and indexed in bulk (`indexAll`, `reindexAll`, `index(_:)`), each
    /// of which sizes the index itself.
    mutating func reserve(_ total: Int) {
        ids.reserveCapacity(total)
        lengths.reserveCapacity(total)
        hidden.reserveCapacity(total)
        extras.reserveCapacity(total)
        chunkOf.reserveCapacity(total)
        contents.reserveCapacity(total)
        frameStyleOf.reserveCapacity(total)
        sizes.reserveCapacity(total)
        live.reserveCapacity(total)
        contentTable.reserveCapacity(total)
    }

    /// Stores a row whose id is not in the store yet and returns its handle; unless
    /// `indexed`, the caller indexes it later (`indexAll`).
    mutating func add(_ row: Row, length: Double, indexed: Bool = true) -> Handle {
        add(id: row.id, content: row.content, size: PackedSize(row.size), hidden: row.hidden, extras: RowExtras(row),
            frameStyle: row.insets == nil && row.separator.isEmpty ? nil : FrameStyle(row), length: length, indexed: indexed)
    }

    /// Stores a row given by its fields (`extras` nil for a row with none of them,
    /// `frameStyle` nil for `FrameStyle.plain`; the size already packed, which callers with
    /// two fixed lengths in hand do without a switch), as `add(_:length:indexed:)` does.
    ///
    /// A content with its own properties or instance is stored unshared: such contents
    /// rarely repeat, and interning each would cost a hash of the whole content per row.
    /// Contents naming only a type (which repeat) are interned.
    mutating func add(id: String, content: RowContent, size: PackedSize, hidden: Bool, extras: RowExtras?,
                      frameStyle: FrameStyle?, length: Double, indexed: Bool) -> Handle {
        let contentIndex = Self.isShared(content) ? contentTable.retain(content) : contentTable.addUnshared(content)
        let frameStyleIndex: Int32
        if let frameStyle {
            frameStyleIndex = frameStyles.retain(frameStyle)
        } else {
            frameStyles.retain(index: Self.plainStyle)
            frameStyleIndex = Self.plainStyle
        }
        let h: Handle
        if let reused = freeHandles.popLast() {
            h = reused
            let i = Int(h)
            ids[i] = id
            lengths[i] = length
            self.hidden[i] = hidden
            self.extras[i] = extras
            contents[i] = contentIndex
            frameStyleOf[i] = frameStyleIndex
            sizes[i] = size
            live[i] = true
        } else {
            h = Handle(ids.count)
            ids.append(id)
            lengths.append(length)
            self.hidden.append(hidden)
            self.extras.append(extras)
            chunkOf.append(-1)
            contents.append(contentIndex)
            frameStyleOf.append(frameStyleIndex)
            sizes.append(size)
            live.append(true)
        }
        if let stack = extras?.stack { embedded[stack, default: 0] += 1 }
        if indexed { index.insert(id, handle: h) }
        return h
    }

    /// Appends every row of `batch`, all of them plain (`RowBatch.isAllPlain`), to a dense
    /// store, column by column and unindexed (the caller indexes them, as after
    /// `add(…, indexed: false)`), and returns their handles: what `add` row by row stores,
    /// without a retain and release of each row's content and strings. Each distinct
    /// content of the batch is interned once, with all its users at once; a content with its
    /// own properties is stored unshared for each row, as `add` does. A row's natural length
    /// is `insets` plus its fixed length along `axis`.
    ///
    /// - Complexity: O(k) for k rows, plus one hash per distinct shared content.
    mutating func appendPlain(_ batch: RowBatch, axis: Axis, insets: Double) -> Range<Handle> {
        precondition(freeHandles.isEmpty && batch.isAllPlain, "plain rows append to a dense store")
        let first = ids.count
        let k = batch.count
        // Each content entry of the batch: its index in `contentTable` when shared
        // (retained once per user), or -1 for one stored unshared row by row.
        var users = [Int32](repeating: 0, count: batch.contents.count)
        for f in batch.fields { users[Int(f.content)] += 1 }
        var entry = [Int32](repeating: -1, count: batch.contents.count)
        for (c, content) in batch.contents.enumerated() where Self.isShared(content) {
            entry[c] = contentTable.retain(content)
            if users[c] > 1 { contentTable.retain(index: entry[c], count: users[c] - 1) }
        }
        frameStyles.retain(index: Self.plainStyle, count: Int32(k))
        ids.append(contentsOf: batch.ids)
        extras.append(repeating: nil, count: k)
        chunkOf.append(repeating: -1, count: k)
        frameStyleOf.append(repeating: Self.plainStyle, count: k)
        live.append(repeating: true, count: k)
        // Each column grown by k placeholders (a fill), then written in one pass over the
        // batch's fields, run by run: cheaper than k appends, each checking its page.
        lengths.append(repeating: 0, count: k)
        hidden.append(repeating: false, count: k)
        sizes.append(repeating: PackedSize(vertical: 0, horizontal: 0), count: k)
        contents.append(repeating: -1, count: k)
        let vertical = axis == .vertical
        let rows = first..<(first + k)
        batch.fields.withUnsafeBufferPointer { fields in
            lengths.withMutableRuns(in: rows) { start, run in
                for j in run.indices {
                    let size = fields[start - first + j].size
                    run[j] = insets + (vertical ? size.vertical : size.horizontal)
                }
            }
            hidden.withMutableRuns(in: rows) { start, run in
                for j in run.indices { run[j] = fields[start - first + j].hidden }
            }
            sizes.withMutableRuns(in: rows) { start, run in
                for j in run.indices { run[j] = fields[start - first + j].size }
            }
            contents.withMutableRuns(in: rows) { start, run in
                for j in run.indices {
                    let c = Int(fields[start - first + j].content)
                    run[j] = entry[c] >= 0 ? entry[c] : contentTable.addUnshared(batch.contents[c])
                }
            }
        }
        return Handle(first)..<Handle(first + k)
    }

    /// Whether `content` is interned when added: it names a type and nothing of its own.
    private static func isShared(_ content: RowContent) -> Bool {
        switch content {
        case .controller(let c): c.instance == nil && c.properties == nil
        case .view(let v): v.properties == nil
        }
    }

    /// Indexes rows added by `add(…, indexed: false)`, a large batch in bulk
    /// (`IDIndex.insertAll`). O(k) expected.
    mutating func index(_ handles: [Handle]) {
        index.insertAll(handles: handles, keys: ids)
    }

    /// Whether no handle below `ids.count` is free: every handle is then its row's position
    /// in `ids`, and the index can be built afresh over them (`reindexAll`).
    var isDense: Bool { freeHandles.isEmpty }

    /// Builds the index afresh over every row of a dense store, those added with `indexed:
    /// false` included, in one bulk pass (`IDIndex.build`); returns false, leaving the index
    /// as it was, when two rows have the same id. O(n) expected.
    mutating func reindexAll() -> Bool {
        precondition(freeHandles.isEmpty)
        var fresh = IDIndex()
        guard fresh.build(keys: ids) else { return false }
        index = fresh
        return true
    }

    /// Takes back the rows from handle `count` on, added last with `indexed: false` to a
    /// dense store (so appended, and not in the index). O(rows taken back).
    mutating func removeUnindexed(from count: Int) {
        precondition(freeHandles.isEmpty && count <= ids.count)
        for i in count..<ids.count {
            contentTable.release(contents[i])
            frameStyles.release(frameStyleOf[i])
            if let stack = extras[i]?.stack { forgetEmbedding(stack) }
        }
        let k = ids.count - count
        ids.removeLast(k)
        lengths.removeLast(k)
        hidden.removeLast(k)
        extras.removeLast(k)
        chunkOf.removeLast(k)
        contents.removeLast(k)
        frameStyleOf.removeLast(k)
        sizes.removeLast(k)
        live.removeLast(k)
    }

    /// Builds the id index of a store filled by `add(_:length:indexed: false)`, in one
    /// bulk pass (`IDIndex.build`). Returns false, leaving the index empty, when two rows
    /// have the same id. O(n) expected.
    mutating func indexAll() -> Bool {
        precondition(index.count == 0 && freeHandles.isEmpty)
        if index.build(keys: ids) { return true }
        index = IDIndex()
        return false
    }

    /// Replaces the row at `h`; a new id must not belong to another row.
    mutating func set(_ h: Handle, to row: Row, length: Double) {
        let i = Int(h)
        if ids[i] != row.id {
            index.remove(ids[i], keys: ids)
            ids[i] = row.id
            index.insert(row.id, handle: h)
        }
        let content = contentTable.retain(row.content)
        contentTable.release(contents[i])
        contents[i] = content
        let frameStyle = frameStyles.retain(FrameStyle(row))
        frameStyles.release(frameStyleOf[i])
        frameStyleOf[i] = frameStyle
        lengths[i] = length
        hidden[i] = row.hidden
        if let stack = extras[i]?.stack { forgetEmbedding(stack) }
        if let stack = row.stack { embedded[stack, default: 0] += 1 }
        extras[i] = RowExtras(row)
        sizes[i] = PackedSize(row.size)
    }

    /// One row less embeds `stack`.
    private mutating func forgetEmbedding(_ stack: String) {
        let left = embedded[stack, default: 0] - 1
        embedded[stack] = left > 0 ? left : nil
    }

    /// Sets the natural length of the row at `h`.
    mutating func setLength(_ length: Double, of h: Handle) { lengths[Int(h)] = length }

    /// Sets the hidden flag, size rule and natural length of the row at `h`, keeping the rest
    /// (no interning, no new extras: neither holds these fields). O(1).
    mutating func setHidden(_ isHidden: Bool, size: SizeRule, length: Double, of h: Handle) {
        let i = Int(h)
        hidden[i] = isHidden
        sizes[i] = PackedSize(size)
        lengths[i] = length
    }

    /// The row's size rule.
    func size(_ h: Handle) -> SizeRule { sizes[Int(h)].rule }

    /// Removes the row at `h` (without rebuilding its `Row`: callers that report it read it first).
    mutating func remove(_ h: Handle) {
        let i = Int(h)
        index.remove(ids[i], keys: ids)
        contentTable.release(contents[i])
        frameStyles.release(frameStyleOf[i])
        ids[i] = ""
        if let stack = extras[i]?.stack { forgetEmbedding(stack) }
        extras[i] = nil
        chunkOf[i] = -1
        live[i] = false
        freeHandles.append(h)
    }

    /// Traps unless the id index, the interned contents and the free handles agree with
    /// the live rows. O(n).
    func checkInvariants() {
        var uses: [Int] = []
        var styleUses: [Int] = [1]  // the pin of the plain style
        var liveCount = 0
        var embeddings: [String: Int] = [:]
        for i in ids.indices where live[i] {
            liveCount += 1
            if let stack = extras[i]?.stack { embeddings[stack, default: 0] += 1 }
            let content = Int(contents[i])
            if content >= uses.count { uses += Array(repeating: 0, count: content + 1 - uses.count) }
            uses[content] += 1
            let style = Int(frameStyleOf[i])
            if style >= styleUses.count { styleUses += Array(repeating: 0, count: style + 1 - styleUses.count) }
            styleUses[style] += 1
            precondition(frameStyles[frameStyleOf[i]] == FrameStyle(row(Handle(i))), "row \(ids[i]): frame style differs from its extras")
            precondition(handle(id: ids[i]) == Handle(i), "row \(ids[i]): the id index does not find its handle")
        }
        precondition(embeddings == embedded, "embedded stacks counted \(embedded), rows embed \(embeddings)")
        precondition(liveCount == index.count, "id index has \(index.count) entries for \(liveCount) rows")
        precondition(liveCount + freeHandles.count == ids.count, "leaked handles")
        for h in freeHandles { precondition(!live[Int(h)], "handle \(h) is both free and live") }
        index.forEachEntry { tag, h in
            precondition(live[Int(h)] && IDIndex.hash(ids[Int(h)]) == tag, "id index entry for handle \(h) is stale")
        }
        contentTable.checkInvariants(uses: uses)
        frameStyles.checkInvariants(uses: styleUses)
    }
}
