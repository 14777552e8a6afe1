extension ScrollStack {
    /// The paging area's extent along the scroll axis and where a page's leading edge, centre
    /// and trailing edge sit in it, in viewport coordinates (Docs/Semantics.md, "Paging").
    public struct PagingFrame: Sendable, Hashable {
        /// Where a leading-aligned page starts: the used leading content inset + the leading position inset.
        public var leadingAnchor: Double
        /// Where a trailing-aligned page ends: the viewport less the used trailing content
        /// inset and the trailing position inset.
        public var trailingAnchor: Double
        /// The length a `fraction` applies to: the viewport less the used content insets and `sizeInsets`.
        public var area: Double

        /// The offset that puts a page at `start` of `length` (content coordinates) on its anchor.
        public func offset(_ alignment: PagingSettings.Alignment, start: Double, length: Double) -> Double {
            switch alignment {
            case .leading: start - leadingAnchor
            case .trailing: start + length - trailingAnchor
            case .center: start + length / 2 - (leadingAnchor + trailingAnchor) / 2
            }
        }
    }

    /// The paging area and anchors of `paging` in this stack's viewport, along the scroll
    /// axis (or `axis`: across it, for a stack that pages across). O(1).
    public func pagingFrame(_ paging: PagingSettings, along axis: Axis? = nil) -> PagingFrame {
        let axis = axis ?? settings.axis
        let used = paging.usedContentInsets(settings.contentInsets)
        let viewport = settings.viewport[axis]
        return PagingFrame(
            leadingAnchor: used.leading(axis) + paging.positionInsets.leading(axis),
            trailingAnchor: viewport - used.trailing(axis) - paging.positionInsets.trailing(axis),
            area: Swift.max(0, viewport - used.total(axis) - paging.sizeInsets.total(axis)))
    }

    /// The page length P for uniform pages (nil for row pages). O(1).
    public func pageLength(_ paging: PagingSettings) -> Double? {
        switch paging.size {
        case .absolute(let length): length
        case .fraction(let fraction): fraction * pagingFrame(paging).area
        case .rows: nil
        }
    }

    /// How many uniform pages of length `length` the content holds, each followed by the
    /// stack's spacing S: ⌈(content length + S) / (P + S)⌉, at least 1 (at most 10¹⁵), so
    /// n cards of length P spaced S are n pages. O(1).
    public func uniformPageCount(length: Double) -> Int {
        let step = length + settings.spacing
        guard step > 0 else { return 1 }
        let pages = ((contentSize[settings.axis] + settings.spacing) / step - 1e-9).rounded(.up)
        return Int(Swift.max(1, Swift.min(1e15, pages)))
    }

    /// The offsets (unclamped) at which the first and the last page rest on their anchor;
    /// nil when paging is off or no content is shown.
    ///
    /// - Complexity: O(1) for uniform pages; O(log n + B) for row pages (the first and the
    ///   last shown row).
    public func firstAndLastPageOffsets() -> (first: Double, last: Double)? {
        guard let paging = settings.paging else { return nil }
        let axis = settings.axis
        guard contentSize[axis] > 0 else { return nil }
        let frame = pagingFrame(paging)
        if let length = pageLength(paging) {
            let lastStart = Double(uniformPageCount(length: length) - 1) * (length + settings.spacing)
            return (frame.offset(paging.alignment, start: 0, length: length),
                    frame.offset(paging.alignment, start: lastStart, length: length))
        }
        guard let (firstNode, firstPrefix) = tree.first(where: { prefix, node in prefix.shown > 0 || !node.hidden }),
              let lastNode = tree.lastShown() else { return nil }
        let firstLength = tree[firstNode].effectiveLength
        let lastStart = mainStart(tree.prefix(before: lastNode), hidden: false)
        return (frame.offset(paging.alignment, start: mainStart(firstPrefix, hidden: false), length: firstLength),
                frame.offset(paging.alignment, start: lastStart, length: tree[lastNode].effectiveLength))
    }

    /// The automatic insets of a centred carousel: with `alignment: center`, the room added
    /// before (after) the content so the clamp range reaches the first (last) page's offset,
    /// as a carousel's collection view sets its content inset to (V − P)/2; zero otherwise.
    ///
    /// - Complexity: as `firstAndLastPageOffsets()`.
    public var centringInsets: (leading: Double, trailing: Double) {
        guard settings.paging?.alignment == .center, let (first, last) = firstAndLastPageOffsets() else { return (0, 0) }
        let axis = settings.axis
        let low = -settings.contentInsets.leading(axis)
        let high = contentSize[axis] + settings.contentInsets.trailing(axis) - settings.viewport[axis]
        return (Swift.max(0, low - first), Swift.max(0, last - high))
    }

    // MARK: Across the scroll axis

    /// The paging area and anchors across the scroll axis (a stack that scrolls across,
    /// `crossLength`): `pagingFrame` with the insets across. O(1).
    public func crossPagingFrame(_ paging: PagingSettings) -> PagingFrame {
        pagingFrame(paging, along: settings.axis.cross)
    }

    /// The page length across: `absolute` as along, a `fraction` of the area across, and for
    /// row pages (there are no rows across) the whole area across. O(1).
    public func crossPageLength(_ paging: PagingSettings) -> Double {
        switch paging.size {
        case .absolute(let length): length
        case .fraction(let fraction): fraction * crossPagingFrame(paging).area
        case .rows: crossPagingFrame(paging).area
        }
    }

    /// How many pages of `length` the content holds across, with no spacing between them:
    /// ⌈crossLength / P⌉, at least 1 (at most 10¹⁵). O(1).
    public func crossPageCount(length: Double) -> Int {
        guard length > 0 else { return 1 }
        let pages = (settings.crossExtent / length - 1e-9).rounded(.up)
        return Int(Swift.max(1, Swift.min(1e15, pages)))
    }

    /// The offsets (unclamped) at which the first and the last page across rest on their
    /// anchor; nil unless the stack pages and scrolls across. O(1).
    public func crossFirstAndLastPageOffsets() -> (first: Double, last: Double)? {
        guard let paging = settings.paging, settings.crossLength != nil, settings.crossExtent > 0 else { return nil }
        let frame = crossPagingFrame(paging)
        let length = crossPageLength(paging)
        return (frame.offset(paging.alignment, start: 0, length: length),
                frame.offset(paging.alignment, start: Double(crossPageCount(length: length) - 1) * length, length: length))
    }

    /// `centringInsets` across: with `alignment: center`, the room added so the range across
    /// reaches the first and the last page across. O(1).
    public var crossCentringInsets: (leading: Double, trailing: Double) {
        guard settings.paging?.alignment == .center, let (first, last) = crossFirstAndLastPageOffsets() else { return (0, 0) }
        let cross = settings.axis.cross
        let low = -settings.contentInsets.leading(cross)
        let high = settings.crossExtent + settings.contentInsets.trailing(cross) - settings.viewport[cross]
        return (Swift.max(0, low - first), Swift.max(0, last - high))
    }
}
