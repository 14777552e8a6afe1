extension ScrollStack {
    /// The offsets along the scroll axis that `scroll` clamps to:
    /// [−leading inset, max(that, content length + trailing inset − viewport length)], each
    /// inset the content inset plus, for a centred carousel, its `centringInsets`; the ends
    /// within ±10¹⁵, the largest offsets a stack accepts.
    ///
    /// - Complexity: O(1), or O(log n + B) for a centred carousel of row pages.
    public var scrollRange: ClosedRange<Double> {
        let axis = settings.axis
        let centring = centringInsets
        let low = Swift.max(-Check.maxOffset, -settings.contentInsets.leading(axis) - centring.leading)
        let high = contentSize[axis] + settings.contentInsets.trailing(axis) + centring.trailing - settings.viewport[axis]
        // Content can outgrow the offsets a stack accepts (±1e15, `Check.maxOffset`): the
        // range stops there, so every offset a scroll computes is one a restore accepts.
        return low...Swift.min(Swift.max(low, high), Check.maxOffset)
    }

    /// The offsets across the scroll axis a scroll keeps the offset in, for a stack whose
    /// content is longer across than its viewport (`crossLength`): [−leading inset,
    /// max(that, crossLength + trailing inset − viewport)] across, each inset the content
    /// inset plus, for centred pages, the centring inset across (`crossCentringInsets`).
    ///
    /// - Complexity: O(1).
    public var crossScrollRange: ClosedRange<Double> {
        let cross = settings.axis.cross
        let centring = crossCentringInsets
        let low = Swift.max(-Check.maxOffset, -settings.contentInsets.leading(cross) - centring.leading)
        let high = settings.crossExtent + settings.contentInsets.trailing(cross) + centring.trailing - settings.viewport[cross]
        return low...Swift.min(Swift.max(low, high), Check.maxOffset)
    }

    /// The offset `target` leads to from the current state, without scrolling.
    ///
    /// Row targets compute the offset along the scroll axis from the row's frame (a hidden
    /// row's collapsed frame) and clamp it to `scrollRange`; across, rows span the viewport,
    /// so the offset becomes 0, unless the stack scrolls across (`crossLength`): then the
    /// offset across is kept, clamped to `crossScrollRange`. `automatic` moves as little as possible: not at all when the
    /// row already shows entirely, to its leading edge when the row is longer than the viewport.
    ///
    /// An offset computed here (every target but `offset`) is rounded to 10⁻⁶ unless it is the
    /// current one: lengths are summed in an order that depends on the row tree's shape, so
    /// the exact sum can differ in its last bits between two trees holding the same rows (a
    /// stack built incrementally and one restored from a snapshot); rounded, the offset is a
    /// function of the rows alone, and the state holds exactly what answers show.
    ///
    /// - Throws: `unknownRow` (`row`), `invalidValue` (`offset.x`, `offset.y`).
    /// - Complexity: O(log n).
    public func offset(for target: ScrollTarget) throws(StackError) -> Point {
        let axis = settings.axis
        let viewportLength = settings.viewport[axis]
        var offset = settings.offset
        switch target {
        case .offset(let point):
            try Check.point(point, "offset")
            return point
        case .top:
            offset[axis] = scrollRange.lowerBound.roundedToMicro
            return offset
        case .bottom:
            offset[axis] = scrollRange.upperBound.roundedToMicro
            return offset
        case .row(let reference, let position):
            let frame = try layout(of: reference).frame
            let start = frame.min(axis)
            let length = frame.size[axis]
            let current = offset[axis]
            var main: Double
            switch position {
            case .initial:
                main = start
            case .final:
                main = start - (viewportLength - length)
            case .middle:
                main = start - (viewportLength - length) / 2
            case .automatic:
                if length > viewportLength || start < current {
                    main = start
                } else if frame.max(axis) > current + viewportLength {
                    main = frame.max(axis) - viewportLength
                } else {
                    main = current
                }
            }
            let range = scrollRange
            let clamped = Swift.min(Swift.max(main, range.lowerBound), range.upperBound)
            offset[axis] = clamped == current ? current : clamped.roundedToMicro
            if settings.crossLength == nil {
                offset[axis.cross] = 0
            } else {
                let across = crossScrollRange
                offset[axis.cross] = Swift.min(Swift.max(offset[axis.cross], across.lowerBound), across.upperBound)
            }
            return offset
        }
    }

    /// Scrolls to `target` (see `offset(for:)`). Emits `didScroll` if the offset changed, and
    /// the visibility transitions.
    ///
    /// - Complexity: O(log n + k).
    @discardableResult
    public mutating func scroll(to target: ScrollTarget) throws(StackError) -> OperationResult {
        let offset = try offset(for: target)
        let before = self.before
        settings.offset = offset
        var result = OperationResult()
        finish(&result, since: before)
        return result
    }
}
