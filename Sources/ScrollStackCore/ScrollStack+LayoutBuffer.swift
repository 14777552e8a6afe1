extension ScrollStack {
    /// Every row's layout against the viewport placed at `offset` (default: the current
    /// one), written into `buffer`: the same values as `layout(offset:)`, without building a
    /// `RowLayout` (and retaining its id) per row. A buffer that already holds `count` rows
    /// is overwritten in place, so a caller that lays out repeatedly allocates nothing.
    ///
    /// - Complexity: O(n + s) for s distinct (insets, separator override) pairs among the
    ///   rows: one pass over the chunks' handles reading each row's length, hidden flag and
    ///   frame style index, whose geometry is computed once per call.
    public func layout(into buffer: inout LayoutBuffer, offset: Point? = nil) {
        let axis = settings.axis
        let viewport = Rect(origin: offset ?? settings.offset, size: settings.viewport)
        let cross = settings.crossExtent
        let n = count
        buffer.axis = axis
        buffer.viewport = settings.viewport
        buffer.offset = viewport.origin
        buffer.contentSize = contentSize
        buffer.ids = tree.store.ids
        if buffer.records.count != n {
            // Every record is written below before anything reads it.
            buffer.records = Array(unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
        }
        let store = tree.store
        let geometries = (0..<store.frameStyles.indexLimit).map { index in
            store.frameStyles.valueIfPresent(at: index).map { FrameGeometry($0, settings: settings) }
        }
        let spacing = settings.spacing
        let lastShown = settings.autoHideLastRowSeparator ? tree.lastShown() ?? RowTree.none : RowTree.none
        var prefixLength = 0.0
        var shown = 0
        var i = 0
        buffer.records.withUnsafeMutableBufferPointer { out in
            store.lengths.withReader { lengths in
                store.hidden.withReader { hiddenFlags in
                    store.frameStyleOf.withReader { styles in
                        for chunk in tree.order {
                            for h in tree.chunks[Int(chunk)] {
                                let k = Int(h)
                                let hidden = hiddenFlags[k]
                                let length = hidden ? 0 : lengths[k]
                                let start = prefixLength + spacing * Double(hidden ? Swift.max(0, shown - 1) : shown)
                                let geometry = geometries[Int(styles[k])].unsafelyUnwrapped
                                let frame = Rect(axis: axis, mainOrigin: start, mainLength: length, crossOrigin: 0, crossLength: cross)
                                let draws = !hidden && geometry.drawsSeparator && h != lastShown
                                out[i] = LayoutBuffer.Record(
                                    start: start, length: length,
                                    contentStart: hidden ? start : start + geometry.leading,
                                    contentLength: hidden ? 0 : Swift.max(0, length - geometry.total),
                                    contentCrossStart: geometry.crossStart, contentCrossLength: geometry.crossLength,
                                    separatorThickness: draws ? geometry.thickness : .nan,
                                    separatorCrossStart: geometry.separatorCrossStart, separatorCrossLength: geometry.separatorCrossLength,
                                    visibility: Visibility.of(row: frame, hidden: hidden, in: viewport), handle: h)
                                prefixLength += length
                                shown += hidden ? 0 : 1
                                i += 1
                            }
                        }
                    }
                }
            }
        }
    }
}

/// What a row's insets and separator style in force make of its layout, apart from its
/// place: computed once per layout for each frame style the rows use.
private struct FrameGeometry {
    let drawsSeparator: Bool
    let thickness: Double
    let leading: Double
    let total: Double
    let crossStart: Double
    let crossLength: Double
    let separatorCrossStart: Double
    let separatorCrossLength: Double

    init(_ style: RowStore.FrameStyle, settings: StackSettings) {
        let axis = settings.axis
        let cross = settings.crossExtent
        let insets = style.insets ?? settings.rowInsets
        let separator = settings.separator.applying(style.separator)
        drawsSeparator = !separator.hidden
        thickness = separator.thickness
        leading = insets.leading(axis)
        total = insets.total(axis)
        crossStart = insets.leading(axis.cross)
        crossLength = Swift.max(0, cross - insets.total(axis.cross))
        separatorCrossStart = separator.insets.leading(axis.cross)
        separatorCrossLength = Swift.max(0, cross - separator.insets.total(axis.cross))
    }
}
