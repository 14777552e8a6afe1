import ScrollStackCore

extension ScrollStack {
    /// The paging area's extent along the scroll axis and where a page's leading edge, centre
    /// and trailing edge sit in it, in viewport coordinates (Docs/Semantics.md, "Paging").
    struct PagingFrame {
        /// Where a leading-aligned page starts: the used leading content inset + the leading position inset.
        var leadingAnchor: Double
        /// Where a trailing-aligned page ends: the viewport less the used trailing content
        /// inset and the trailing position inset.
        var trailingAnchor: Double
        /// The length a `fraction` applies to: the viewport less the used content insets and `sizeInsets`.
        var area: Double

        /// The offset that puts a page at `start` of `length` (content coordinates) on its anchor.
        func offset(_ alignment: PagingSettings.Alignment, start: Double, length: Double) -> Double {
            switch alignment {
            case .leading: start - leadingAnchor
            case .trailing: start + length - trailingAnchor
            case .center: start + length / 2 - (leadingAnchor + trailingAnchor) / 2
            }
        }
    }

    func pagingFrame(_ paging: PagingSettings) -> PagingFrame {
        let axis = settings.axis
        let used = paging.usedContentInsets(settings.contentInsets)
        let viewport = settings.viewport[axis]
        return PagingFrame(
            leadingAnchor: used.leading(axis) + paging.positionInsets.leading(axis),
            trailingAnchor: viewport - used.trailing(axis) - paging.positionInsets.trailing(axis),
            area: Swift.max(0, viewport - used.total(axis) - paging.sizeInsets.total(axis)))
    }

    /// The page length for uniform pages (nil for row pages).
    public func pageLength(_ paging: PagingSettings) -> Double? {
        switch paging.size {
        case .absolute(let length): length
        case .fraction(let fraction): fraction * pagingFrame(paging).area
        case .rows: nil
        }
    }

    /// The stops of the stack's paging, nil when paging is off.
    ///
    /// Uniform pages tile the content from 0: page k covers [k·P, (k+1)·P), and there are
    /// ⌈content length / P⌉ of them. Row pages are the shown rows' frames. Each page's offset
    /// puts it on its alignment anchor; offsets are clamped to `scrollRange`, whose ends are
    /// always stops. No shown content: no stops.
    ///
    /// - Complexity: O(1) for uniform pages; O(n) for row pages (one pass over the rows).
    public func pageStops() -> PageStops? {
        guard let paging = settings.paging else { return nil }
        let axis = settings.axis
        let range = scrollRange
        let contentLength = contentSize[axis]
        guard contentLength > 0 else { return .empty(at: range.lowerBound) }
        let frame = pagingFrame(paging)
        if let step = pageLength(paging) {
            let pages = step > 0 ? Swift.min(1e15, (contentLength / step - 1e-9).rounded(.up)) : 0
            return PageStops(uniformFirst: frame.offset(paging.alignment, start: 0, length: step), step: step,
                             pages: Int(Swift.max(1, pages)), range: range)
        }
        let offsets = layout().rows.filter { $0.visibility != .hidden }.map {
            frame.offset(paging.alignment, start: $0.frame.min(axis), length: $0.frame.size[axis])
        }
        return PageStops(offsets: offsets, range: range)
    }

    /// The paging state at `offset` (the stack's own by default), nil when paging is off.
    ///
    /// - Complexity: as `pageStops()`, plus O(log count).
    public func pagingState(offset: Point? = nil) -> PagingState? {
        guard let paging = settings.paging, let stops = pageStops() else { return nil }
        let main = (offset ?? settings.offset)[settings.axis]
        let current = stops.nearestIndex(main)
        var size = pageLength(paging) ?? 0
        if paging.size == .rows, stops.count > 0 {
            // The row a row page's stop shows: the shown row on the stop's anchor.
            let shown = layout().rows.filter { $0.visibility != .hidden }
            let frame = pagingFrame(paging)
            let stop = stops[current]
            let nearest = shown.min {
                abs(frame.offset(paging.alignment, start: $0.frame.min(settings.axis), length: $0.frame.size[settings.axis]) - stop)
                    < abs(frame.offset(paging.alignment, start: $1.frame.min(settings.axis), length: $1.frame.size[settings.axis]) - stop)
            }
            size = nearest?.frame.size[settings.axis] ?? 0
        }
        return PagingState(stops: stops, pageSize: size, currentPage: current, progress: stops.progress(at: main))
    }
}
