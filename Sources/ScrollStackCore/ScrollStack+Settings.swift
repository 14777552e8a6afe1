extension ScrollStack {
    /// Changes stack settings: every field set in `change` applies, or none does.
    ///
    /// Changing the axis keeps every row's own settings and re-measures fit rows; so do a
    /// new cross extent and new default insets. Stack-wide changes emit no `rowResized`:
    /// `layoutUpdated` and `contentSizeChanged` report them. A new offset emits `didScroll`.
    ///
    /// - Throws: `invalidValue` naming the field (`viewport.width`, `separator.color`, …).
    /// - Complexity: O(1) for offset, spacing, separator and content-inset changes (plus the
    ///   window); O(n) when lengths must be recomputed (axis, viewport, row insets).
    @discardableResult
    public mutating func update(_ change: SettingsChange) throws(StackError) -> OperationResult {
        let new = change.applied(to: settings)
        try new.validate()
        if new.menu != settings.menu {
            try checkMenuFonts(new.menu)
            try checkTitles(rows, menu: new.menu, field: { _ in "menu.itemSize" })
        }
        let old = settings
        let before = self.before
        settings = new
        if new.axis != old.axis || new.crossExtent != old.crossExtent || new.rowInsets != old.rowInsets {
            var lengths: [Double] = []
            lengths.reserveCapacity(count)
            tree.forEachInOrder { lengths.append(naturalLength(of: tree.row($0))) }
            tree.setLengths(lengths)
        }
        var result = OperationResult()
        finish(&result, since: before)
        return result
    }
}

extension ScrollStack {
    /// Becomes a copy of `other` (settings and rows), as one operation: emits
    /// `layoutUpdated`, `contentSizeChanged`, `didScroll` and the visibility transitions from
    /// the current state, as any operation does. Used to revert to an earlier revision.
    ///
    /// - Complexity: O(1) to take the rows over (copy on write), plus O(log n + k) for the window.
    @discardableResult
    public mutating func replaceContents(with other: ScrollStack) -> OperationResult {
        let before = self.before
        settings = other.settings
        tree = other.tree
        var result = OperationResult()
        finish(&result, since: before)
        return result
    }
}
