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
    /// just above the viewport (`top`) or just below it (`bottom`). A horizontal strip on
    /// either axis: over vertical pages too the items run along x.
    public func menuFrame(_ menu: MenuSettings) -> Rect {
        let y = menu.position == .top ? -menu.height : settings.viewport.height
        return Rect(x: 0, y: y, width: settings.viewport.width, height: menu.height)
    }

    /// The menu laid out at `offset` (the stack's own by default): item k is page k. nil
    /// when the stack has no menu.
    ///
    /// Two axes meet here. The content's: the paging progress and current page are read along
    /// the stack's axis (`offset.y` over vertical pages, `offset.x` over horizontal ones).
    /// The menu's own: always horizontal, as wide as the viewport (`menuFrame`), whatever the
    /// content's axis, so a vertical stack's menu at progress p is the horizontal stack's
    /// menu at progress p.
    ///
    /// The one place the menu takes the content's progress (Parchment's `menuTransition`):
    /// `scrollAlongside` lays it out at the content's progress; `animateAfter` at the current
    /// page's whole progress, so part-way between pages the menu is the current page's at
    /// rest, and on a page both are the same.
    ///
    /// - Complexity: O(n).
    public func menuLayout(offset: Point? = nil) -> MenuLayout? {
        guard let menu = settings.menu, let state = pagingState(offset: offset) else { return nil }
        let progress = switch menu.menuTransition {
        case .scrollAlongside: state.progress
        case .animateAfter: Double(state.currentPage)
        }
        return MenuLayout(menu, entries: menuEntries().map(\.entry), width: menuFrame(menu).size.width,
                          progress: progress, selected: state.currentPage, measurer: titleMeasurer)
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
