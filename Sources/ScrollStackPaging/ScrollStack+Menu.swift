import ScrollStackCore

extension ScrollStack {
    /// The menu's entries: one per shown row, in order, with the row's index.
    ///
    /// - Complexity: O(n).
    public func menuEntries() -> [(entry: MenuLayout.Entry, rowIndex: Int)] {
        rows.enumerated().compactMap { index, row in
            row.hidden ? nil : (MenuLayout.Entry(id: row.id, title: row.title), index)
        }
    }

    /// The menu's frame in viewport coordinates: as wide as the viewport, `menu.height` tall,
    /// just above the viewport (`top`) or just below it (`bottom`), on either scroll axis
    /// (Parchment's menu is always a horizontal strip).
    public func menuFrame(_ menu: MenuSettings) -> Rect {
        let y = menu.position == .top ? -menu.height : settings.viewport.height
        return Rect(x: 0, y: y, width: settings.viewport.width, height: menu.height)
    }

    /// The progress and selected item the menu shows at `offset` (the stack's own by
    /// default), nil when the stack has no menu. With `scrollAlongside`, the pages' progress
    /// and current page there (along the scroll axis, vertical pages included). With
    /// `animateAfter` (Parchment leaves the menu alone until the pages settle), the whole
    /// page nearest the stack's own offset, where a drag begins and a settle ends: the menu
    /// moves only when the stack's offset does.
    ///
    /// - Complexity: O(n) for row pages, O(1) otherwise.
    public func menuProgress(offset: Point? = nil) -> (progress: Double, selected: Int)? {
        guard let menu = settings.menu else { return nil }
        let at = menu.transition == .animateAfter ? nil : offset
        guard let state = pagingState(offset: at) else { return nil }
        if menu.transition == .animateAfter { return (Double(state.currentPage), state.currentPage) }
        return (state.progress, state.currentPage)
    }

    /// The menu laid out at `offset` (the stack's own by default): item k is page k, at
    /// `menuProgress(offset:)`. nil when the stack has no menu.
    ///
    /// - Complexity: O(n).
    public func menuLayout(offset: Point? = nil) -> MenuLayout? {
        guard let menu = settings.menu, let shown = menuProgress(offset: offset) else { return nil }
        return MenuLayout(menu, entries: menuEntries().map(\.entry), width: settings.viewport.width,
                          progress: shown.progress, selected: shown.selected, measurer: titleMeasurer)
    }

    /// The page indicator at `offset`, nil when the stack has none. O(1) for uniform pages.
    public func pageIndicatorLayout(offset: Point? = nil) -> PageIndicatorLayout? {
        guard let indicator = settings.pageIndicator, let state = pagingState(offset: offset) else { return nil }
        return PageIndicatorLayout(indicator, pages: state.pageCount, currentPage: state.currentPage, viewport: settings.viewport)
    }

    /// The settle of a drag released at `release` along the scroll axis with `velocity`
    /// (points per second): with paging, `Settle.page` from the page nearest the stack's
    /// current offset (where the drag began); without, `Settle.decelerate` with `rate`.
    public func settle(release: Double, velocity: Double, rate: Double) -> Settle {
        guard let stops = pageStops() else {
            return .decelerate(release: release, velocity: velocity, rate: rate, range: scrollRange)
        }
        let startPage = stops.nearestIndex(settings.offset[settings.axis])
        return .page(release: release, velocity: velocity, startPage: startPage, stops: stops)
    }
}
