/// Measures boxes, aspect-ratio boxes, groups and text with the results CSS flexbox gives for
/// the same tree (see Docs/Semantics.md, "Measuring content" and "The measuring model as CSS").
/// Text goes to the `TextMeasuring` engine it is given; without one, text is refused by `check`.
///
/// - Complexity: `length` is O(nodes × c) where c is the number of clamp passes a group
///   across the measured axis needs (at most its number of children); in practice O(nodes).
///   `frames` re-measures each subtree once per level above it: O(nodes × depth × c).
public struct FlexMeasurer: ContentMeasuring {
    /// Breaks text into lines; nil when no text engine is plugged in.
    public let text: (any TextMeasuring)?

    public init(text: (any TextMeasuring)? = nil) {
        self.text = text
    }

    /// Refuses text without a text engine, and text in a font the engine cannot measure
    /// (at `….font.family`). O(nodes).
    public func check(_ content: ContentDescription, field: String) throws(StackError) {
        switch content.kind {
        case .box, .aspectRatio:
            return
        case .stack(_, _, _, let children):
            for (i, child) in children.enumerated() { try check(child, field: field + ".children[\(i)]") }
        case .text(let t):
            guard let text else { throw .invalid("text cannot be measured: no text engine", field: field) }
            if let why = text.unavailable(t.font) { throw .invalid(why, field: field + ".font.family") }
        }
    }

    /// Whether the text engine measures several texts at once.
    public var prepares: Bool { (text?.parallelism ?? 1) > 1 }

    /// Gives the text nodes of `contents` (every level of their groups) to the text engine to
    /// shape ahead (`TextMeasuring.prepare`), when it measures several at once; nothing
    /// otherwise. O(nodes).
    public func prepare(_ contents: [ContentDescription]) {
        guard let text, text.parallelism > 1 else { return }
        var texts: [TextContent] = []
        func collect(_ node: ContentDescription) {
            switch node.kind {
            case .box, .aspectRatio: break
            case .text(let t): texts.append(t)
            case .stack(_, _, _, let children): for child in children { collect(child) }
            }
        }
        for content in contents { collect(content) }
        text.prepare(texts)
    }

    /// The lines of a text node whose extent across `axis` is `cross`: along a vertical
    /// stack it wraps at its width; along a horizontal one it never wraps.
    private func lines(_ content: TextContent, _ axis: Axis, cross: Double) -> TextLines {
        text?.lines(of: content, width: axis == .vertical ? cross : nil) ?? TextLines(lineHeight: 0, widths: [])
    }

    public func length(of content: ContentDescription, along axis: Axis, crossExtent: Double) -> Double {
        mainLength(content, axis, cross: rootCross(content, axis, crossExtent))
    }

    public func frames(of content: ContentDescription, along axis: Axis, crossExtent: Double) -> ContentFrame {
        frame(content, axis, origin: .zero, cross: rootCross(content, axis, crossExtent))
    }

    /// The root stretches across the row's content frame unless it sets its own extent.
    private func rootCross(_ content: ContentDescription, _ axis: Axis, _ crossExtent: Double) -> Double {
        content.clamp(content.explicitExtent(axis.cross) ?? LayoutUnit.given(Swift.max(0, crossExtent)), axis.cross)
    }

    /// The length along `axis` of `node`, whose extent across `axis` is already resolved to `cross`.
    private func mainLength(_ node: ContentDescription, _ axis: Axis, cross: Double) -> Double {
        let raw: Double
        switch node.kind {
        case .box:
            raw = node.explicitExtent(axis) ?? 0
        case .aspectRatio(let ratio):
            // ratio = width / height; Chromium floors the derived size to its layout unit. At
            // most the longest length accepted anywhere: a ratio of 5e-324 would give infinity.
            raw = Swift.min(Check.maxLength, LayoutUnit.floor(axis == .vertical ? cross / ratio : cross * ratio))
        case .text(let content):
            let lines = lines(content, axis, cross: cross)
            raw = axis == .vertical ? lines.height : lines.widestLine
        case .stack(let direction, let givenSpacing, let given, let children):
            let (spacing, padding) = (LayoutUnit.given(givenSpacing), given.layoutUnits)
            let extents = childCrossExtents(node, axis, cross: cross)
            var lengths = 0.0
            for (child, extent) in zip(children, extents) {
                let length = mainLength(child, axis, cross: extent)
                // Along the measured axis children add up; across it the longest one counts.
                lengths = direction == axis ? lengths + length : Swift.max(lengths, length)
            }
            let gaps = direction == axis ? spacing * Double(Swift.max(0, children.count - 1)) : 0
            raw = padding.total(axis) + lengths + gaps
        }
        return node.clamp(raw, axis)
    }

    /// The extents across `axis` of a group's children when the group's own is `cross`: along
    /// the measured axis each child spans the group's inner extent unless it sets its own;
    /// across it, the children share that extent (`distribute`).
    private func childCrossExtents(_ node: ContentDescription, _ axis: Axis, cross: Double) -> [Double] {
        guard case .stack(let direction, let givenSpacing, let given, let children) = node.kind else { return [] }
        let (spacing, padding) = (LayoutUnit.given(givenSpacing), given.layoutUnits)
        let inner = Swift.max(0, cross - padding.total(axis.cross))
        if direction == axis {
            return children.map { $0.clamp($0.explicitExtent(axis.cross) ?? inner, axis.cross) }
        }
        let gaps = spacing * Double(Swift.max(0, children.count - 1))
        return distribute(children, available: inner - gaps, axis: axis.cross)
    }

    /// `node`'s frame at `origin` (its leading corner) with its cross extent resolved to
    /// `cross`, and its children's frames inside it.
    private func frame(_ node: ContentDescription, _ axis: Axis, origin: Point, cross: Double) -> ContentFrame {
        let length = mainLength(node, axis, cross: cross)
        let rect = Rect(axis: axis, mainOrigin: origin[axis], mainLength: length, crossOrigin: origin[axis.cross], crossLength: cross)
        if case .text(let content) = node.kind {
            let lines = text?.drawableLines(of: content, width: axis == .vertical ? rect.size[axis.cross] : nil) ?? TextLines(lineHeight: 0, widths: [])
            let boxes = lineBoxes(content, lines, in: rect)
            let ellipsis = lines.ellipsis.flatMap { e in
                boxes.last.map { Rect(x: $0.minX + e.offset, y: $0.minY, width: e.width, height: $0.size.height) }
            }
            return ContentFrame(frame: rect, lines: boxes, ranges: lines.ranges, truncated: lines.truncated, ellipsis: ellipsis,
                                missingGlyphs: lines.missingGlyphs)
        }
        guard case .stack(let direction, let givenSpacing, let given, let children) = node.kind else { return ContentFrame(frame: rect) }
        let (spacing, padding) = (LayoutUnit.given(givenSpacing), given.layoutUnits)
        var cursor = origin
        cursor[axis] += padding.leading(axis)
        cursor[axis.cross] += padding.leading(axis.cross)
        var frames: [ContentFrame] = []
        frames.reserveCapacity(children.count)
        for (child, extent) in zip(children, childCrossExtents(node, axis, cross: cross)) {
            let placed = frame(child, axis, origin: cursor, cross: extent)
            frames.append(placed)
            cursor[direction] += placed.frame.size[direction] + spacing
        }
        return ContentFrame(frame: rect, children: frames)
    }

    /// The box of each line of a text node laid out in `rect`: each its line's height, from
    /// the top, placed across the node's width by its alignment (centred lines start at half the
    /// room left, truncated to 1/64, as Chromium's `text-align: center` does); a line wider
    /// than the node starts at its left whatever the alignment (CSS Text: overflowing
    /// content is start-aligned).
    private func lineBoxes(_ content: TextContent, _ lines: TextLines, in rect: Rect) -> [Rect] {
        var top = rect.minY
        return lines.widths.enumerated().map { i, width in
            let room = Swift.max(0, rect.size.width - width)
            let x: Double
            switch content.alignment {
            case .start: x = 0
            case .center: x = (room * LayoutUnit.scale / 2).rounded(.towardZero) / LayoutUnit.scale
            case .end: x = room
            }
            let height = lines.height(ofLine: i)
            defer { top += height }
            return Rect(x: rect.minX + x, y: top, width: width, height: height)
        }
    }

    /// Resolves the extents along `axis` of children laid out along it, as CSS flexbox §9.7
    /// "Resolving Flexible Lengths" does, in layout units the way Chromium's `LineFlexer`
    /// does: children with a fixed extent keep it (`flex: none`); the others are `flex: 1 1 0`
    /// with `box-sizing: border-box`, so their flex base size is their padding along `axis` (a
    /// border box never holds less than its padding). When the hypothetical sizes fit, the
    /// free space is shared on top of the bases, the last unfrozen child first, each taking
    /// the free space left × 1/k rounded to 1/64 (k its place among the unfrozen ones; the
    /// first takes the rest), so the shares add up exactly; when they don't fit, nothing
    /// shrinks (a zero content base has a zero scaled shrink factor). Min/max are honoured
    /// with the "freeze the violators and redistribute" loop.
    ///
    /// - Complexity: O(children × passes), at most O(children²).
    private func distribute(_ children: [ContentDescription], available: Double, axis: Axis) -> [Double] {
        var extents = [Double](repeating: 0, count: children.count)
        var bases = [Double](repeating: 0, count: children.count)
        var frozen = [Bool](repeating: true, count: children.count)
        var hypotheticalSum = 0.0
        for (i, child) in children.enumerated() {
            if let fixed = child.explicitExtent(axis) {
                extents[i] = child.clamp(fixed, axis)
            } else {
                bases[i] = child.paddingFloor(axis)
                extents[i] = child.clamp(bases[i], axis)
                // Items whose hypothetical size already moved away from the base in the
                // direction of the flex stay there (§9.7 step 2), decided below.
                frozen[i] = false
            }
            hypotheticalSum += extents[i]
        }
        let growing = hypotheticalSum < available
        for i in children.indices where !frozen[i] {
            frozen[i] = growing ? bases[i] > extents[i] : bases[i] < extents[i]
        }
        // Shrinking: every scaled shrink factor is 0, so the unfrozen keep their hypothetical size.
        guard growing else { return extents }
        while true {
            let unfrozen = children.indices.filter { !frozen[$0] }
            var free = available
            for i in children.indices { free -= frozen[i] ? extents[i] : bases[i] }
            guard !unfrozen.isEmpty, free > 0 else { return extents }
            var targets = [Double](repeating: 0, count: children.count)
            for (k, i) in unfrozen.enumerated().reversed() {
                let share = k == 0 ? free : LayoutUnit.round(free * (1 / Double(k + 1)))
                free -= share
                targets[i] = bases[i] + share
            }
            var violation = 0.0
            for i in unfrozen {
                extents[i] = children[i].clamp(targets[i], axis)
                violation += extents[i] - targets[i]
            }
            for i in unfrozen {
                let delta = extents[i] - targets[i]
                frozen[i] = violation == 0 || (violation > 0 && delta > 0) || (violation < 0 && delta < 0)
            }
        }
    }
}
