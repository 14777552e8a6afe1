import ScrollStackCore

/// Paging across the scroll axis: a stack whose content is longer across than its viewport
/// (`crossLength`, a grid) pages along both axes, as CustomPageableCollectionView pages a
/// collection view's two axes with one configuration (Docs/Semantics.md, "Paging").
extension ScrollStack {
    /// The stops across the scroll axis, nil unless the stack pages and scrolls across
    /// (`crossLength`). Uniform pages of `crossPageLength` follow each other with no spacing
    /// (rows have none across): page k covers [k·P, k·P + P) across, rests on its alignment
    /// anchor across, clamped to `crossScrollRange`, whose ends are stops.
    ///
    /// - Complexity: O(1).
    public func crossPageStops() -> PageStops? {
        guard let paging = settings.paging, settings.crossLength != nil else { return nil }
        let range = crossScrollRange
        guard settings.crossExtent > 0 else { return .empty(at: range.lowerBound) }
        let length = crossPageLength(paging)
        let first = crossPagingFrame(paging).offset(paging.alignment, start: 0, length: length)
        return PageStops(uniformFirst: first, step: length, pages: crossPageCount(length: length), range: range)
    }

    /// The paging state across at `offset` (the stack's own by default); nil unless the stack
    /// pages and scrolls across. O(log count).
    public func crossPagingState(offset: Point? = nil) -> PagingState? {
        guard let paging = settings.paging, let stops = crossPageStops() else { return nil }
        let across = (offset ?? settings.offset)[settings.axis.cross]
        return PagingState(stops: stops, pageSize: crossPageLength(paging), currentPage: stops.nearestIndex(across),
                           progress: stops.progress(at: across))
    }

    /// The settle across the scroll axis of a drag released at `release` (across) with
    /// `velocity`: `Settle.page` over `crossPageStops` from the stop nearest the stack's
    /// offset across, or without paging `Settle.decelerate` in `crossScrollRange`; nil when
    /// the stack does not scroll across. O(log count + duration in ms).
    public func crossSettle(release: Double, velocity: Double, rate: Double) -> Settle? {
        guard settings.crossLength != nil else { return nil }
        guard let stops = crossPageStops() else {
            return .decelerate(release: release, velocity: velocity, rate: rate, range: crossScrollRange)
        }
        let startPage = stops.nearestIndex(settings.offset[settings.axis.cross])
        return .page(release: release, velocity: velocity, startPage: startPage, stops: stops)
    }
}
