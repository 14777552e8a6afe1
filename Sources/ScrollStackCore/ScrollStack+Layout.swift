extension ScrollStack {
    /// The size of the scrollable content: across, the viewport's cross extent; along, the
    /// shown rows' lengths plus spacing between consecutive shown rows. O(1).
    public var contentSize: Size {
        var size = settings.viewport
        size[settings.axis.cross] = settings.crossExtent
        size[settings.axis] = tree.totalLength + settings.spacing * Double(Swift.max(0, tree.shownCount - 1))
        return size
    }

    /// The viewport in content coordinates: the offset and the viewport size.
    public var viewportRect: Rect { Rect(origin: settings.offset, size: settings.viewport) }

    /// Where a row starts along the scroll axis, given what comes before it. A shown row
    /// comes after the spacing that follows the previous shown row; a hidden row collapses
    /// at the end of the previous shown row (spacing is never applied next to a hidden row).
    func mainStart(_ prefix: RowTree.Prefix, hidden: Bool) -> Double {
        let gaps = hidden ? Swift.max(0, prefix.shown - 1) : prefix.shown
        return prefix.length + settings.spacing * Double(gaps)
    }

    func mainEnd(_ prefix: RowTree.Prefix, _ node: RowTree.Node) -> Double {
        mainStart(prefix, hidden: node.hidden) + node.effectiveLength
    }

    /// The full layout of one row. O(1) given its prefix and the last shown row.
    func rowLayout(_ n: RowTree.NodeID, prefix: RowTree.Prefix, lastShown: RowTree.NodeID?, viewport: Rect) -> RowLayout {
        rowLayout(n, node: tree[n], insets: tree.store.insets(n) ?? settings.rowInsets,
                  style: settings.separator.applying(tree.store.separator(n)), prefix: prefix, lastShown: lastShown, viewport: viewport)
    }

    /// The full layout of one row given its length, hidden state, insets in force and
    /// separator style in force. O(1).
    @inline(__always)
    func rowLayout(_ n: RowTree.NodeID, node: RowTree.Node, insets: EdgeInsets, style: SeparatorStyle, prefix: RowTree.Prefix,
                   lastShown: RowTree.NodeID?, viewport: Rect) -> RowLayout {
        let axis = settings.axis
        let cross = settings.crossExtent
        let start = mainStart(prefix, hidden: node.hidden)
        let length = node.effectiveLength
        let frame = Rect(axis: axis, mainOrigin: start, mainLength: length, crossOrigin: 0, crossLength: cross)
        let contentFrame = Rect(
            axis: axis,
            mainOrigin: node.hidden ? start : start + insets.leading(axis),
            mainLength: node.hidden ? 0 : Swift.max(0, length - insets.total(axis)),
            crossOrigin: insets.leading(axis.cross),
            crossLength: Swift.max(0, cross - insets.total(axis.cross))
        )
        let drawsSeparator = !node.hidden && !style.hidden && !(settings.autoHideLastRowSeparator && n == lastShown)
        var separatorFrame: Rect?
        if drawsSeparator {
            separatorFrame = Rect(
                axis: axis,
                mainOrigin: frame.max(axis) - style.thickness,
                mainLength: style.thickness,
                crossOrigin: style.insets.leading(axis.cross),
                crossLength: Swift.max(0, cross - style.insets.total(axis.cross))
            )
        }
        return RowLayout(
            id: tree.id(n), index: prefix.count, frame: frame, contentFrame: contentFrame,
            separatorFrame: separatorFrame, visibility: Visibility.of(row: frame, hidden: node.hidden, in: viewport)
        )
    }

    /// The layout of one row at the current offset. O(log n).
    public func layout(of reference: RowReference) throws(StackError) -> RowLayout {
        let n = try node(for: reference, field: "row")
        return rowLayout(n, prefix: tree.prefix(before: n), lastShown: tree.lastShown(), viewport: viewportRect)
    }

    /// Every row's layout, against the viewport placed at `offset` (default: the current one).
    ///
    /// - Complexity: O(n).
    public func layout(offset: Point? = nil) -> StackLayout {
        var rows: [RowLayout] = []
        rows.reserveCapacity(count)
        forEachRowLayout(offset: offset) { rows.append($0) }
        return StackLayout(axis: settings.axis, viewport: settings.viewport, offset: offset ?? settings.offset, contentSize: contentSize, rows: rows)
    }

    /// The layout of the rows that are partial or entire with the viewport at `offset`
    /// (default: the current one).
    ///
    /// - Complexity: O(log n + k), k the rows whose extent along the scroll axis meets the
    ///   viewport's (hidden rows collapsed inside it included).
    public func visibleLayout(offset: Point? = nil) -> StackLayout {
        let viewport = Rect(origin: offset ?? settings.offset, size: settings.viewport)
        return StackLayout(axis: settings.axis, viewport: settings.viewport, offset: viewport.origin,
                           contentSize: contentSize, rows: window(in: viewport))
    }

    /// Ids of the rows that are partial or entire, in order. O(log n + k).
    public var visibleRows: [String] { window(in: viewportRect).map(\.id) }

    /// Ids of the rows that are entire, in order. O(log n + k).
    public var entirelyVisibleRows: [String] { window(in: viewportRect).filter { $0.visibility == .entire }.map(\.id) }

    /// The visibility of one row at the current offset. O(log n).
    public func visibility(of reference: RowReference) throws(StackError) -> Visibility {
        try layout(of: reference).visibility
    }

    /// The visible rows (partial or entire) against `viewport`. O(log n + k).
    func window(in viewport: Rect) -> [RowLayout] {
        let axis = settings.axis
        let low = viewport.min(axis)
        let high = viewport.max(axis)
        // Rows end in non-decreasing order, so the first row reaching the viewport is found by descent.
        guard let (start, startPrefix) = tree.firstCursor(where: { prefix, node in mainEnd(prefix, node) >= low }) else { return [] }
        let lastShown = tree.lastShown()
        // Rows start in non-decreasing order too: a second descent finds the first row past
        // the viewport, where the walk below stops, so the result is allocated once.
        let end = tree.firstCursor(where: { prefix, node in mainStart(prefix, hidden: node.hidden) > high })?.prefix.count ?? count
        var result: [RowLayout] = []
        result.reserveCapacity(Swift.max(0, end - startPrefix.count))
        var prefix = startPrefix
        tree.walk(from: start) { n in
            let node = tree[n]
            if mainStart(prefix, hidden: node.hidden) > high { return false }
            let layout = rowLayout(n, prefix: prefix, lastShown: lastShown, viewport: viewport)
            if layout.visibility.isVisible { result.append(layout) }
            advance(&prefix, past: node)
            return true
        }
        return result
    }

    /// The row under a point given in viewport coordinates (a tap), or nil over spacing,
    /// outside the content or outside the viewport. The point must lie in the row's frame on
    /// both axes (leading edges inclusive, trailing exclusive), and the row must be visible
    /// (partial or entire): hidden rows, zero-length rows, and rows whose frame has no area
    /// in the viewport (a viewport so thin that rows are 0 wide) are never hit.
    ///
    /// - Complexity: O(log n).
    public func hitTest(_ point: Point) -> RowLayout? {
        guard point.x >= 0, point.y >= 0, point.x < settings.viewport.width, point.y < settings.viewport.height else { return nil }
        let axis = settings.axis
        let content = Point(x: settings.offset.x + point.x, y: settings.offset.y + point.y)
        let along = content[axis]
        guard content[axis.cross] >= 0, content[axis.cross] < settings.crossExtent else { return nil }
        guard let (n, prefix) = tree.first(where: { prefix, node in mainEnd(prefix, node) > along }) else { return nil }
        let node = tree[n]
        guard !node.hidden, mainStart(prefix, hidden: false) <= along else { return nil }
        let layout = rowLayout(n, prefix: prefix, lastShown: tree.lastShown(), viewport: viewportRect)
        let frame = layout.frame
        guard content.x >= frame.origin.x, content.x < frame.origin.x + frame.size.width,
              content.y >= frame.origin.y, content.y < frame.origin.y + frame.size.height,
              layout.visibility.isVisible else { return nil }
        return layout
    }

    func advance(_ prefix: inout RowTree.Prefix, past node: RowTree.Node) {
        prefix.count += 1
        prefix.length += node.effectiveLength
        prefix.shown += node.hidden ? 0 : 1
    }
}
