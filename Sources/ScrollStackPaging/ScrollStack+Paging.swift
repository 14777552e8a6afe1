import ScrollStackCore

extension ScrollStack {
    /// The stops of the stack's paging, nil when paging is off.
    ///
    /// Uniform pages of length P follow each other with the stack's spacing S between them:
    /// page k covers [k·(P + S), k·(P + S) + P), so n cards of length P spaced S are n pages
    /// (`uniformPageCount`). Row pages are the shown rows' frames. Each page's offset puts it
    /// on its alignment anchor; offsets are clamped to `scrollRange` (which a centred carousel
    /// widens to its first and last page, `centringInsets`), whose ends are always stops. No
    /// shown content: no stops.
    ///
    /// - Complexity: O(1) for uniform pages; O(n) for row pages (one pass over the rows).
    public func pageStops() -> PageStops? {
        guard let paging = settings.paging else { return nil }
        let axis = settings.axis
        let range = scrollRange
        guard contentSize[axis] > 0 else { return .empty(at: range.lowerBound) }
        let frame = pagingFrame(paging)
        if let length = pageLength(paging) {
            return PageStops(uniformFirst: frame.offset(paging.alignment, start: 0, length: length), step: length + settings.spacing,
                             pages: uniformPageCount(length: length), range: range)
        }
        let offsets = layout().rows.filter { $0.visibility != .hidden }.map {
            frame.offset(paging.alignment, start: $0.frame.min(axis), length: $0.frame.size[axis])
        }
        return PageStops(offsets: offsets, range: range)
    }

    /// The first page's stop: the first page's offset clamped to `scrollRange`, rounded to
    /// 10⁻⁶ (the range's low end when nothing is shown); nil when paging is off. Where a
    /// paging stack rests when created.
    ///
    /// - Complexity: as `firstAndLastPageOffsets()`.
    public func firstPageStop() -> Double? {
        guard settings.paging != nil else { return nil }
        let range = scrollRange
        let first = firstAndLastPageOffsets()?.first ?? range.lowerBound
        return Swift.min(Swift.max(first, range.lowerBound), range.upperBound).roundedToMicro
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
