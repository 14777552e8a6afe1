/// Turns a content description into a length along the scroll axis.
///
/// The stack calls it for every row whose size rule is `fit`, on insertion, on reload, and
/// whenever the axis or the cross extent changes. Implementations must be pure: the same
/// description and cross extent always give the same length.
public protocol ContentMeasuring: Sendable {
    /// The content's length along `axis` when its extent across `axis` is `crossExtent`.
    func length(of content: ContentDescription, along axis: Axis, crossExtent: Double) -> Double
}

/// Measures boxes, aspect-ratio boxes and groups with the results CSS flexbox gives for the
/// same tree (see Docs/Semantics.md, "Measuring content").
///
/// - Complexity: O(nodes × c) where c is the number of clamp passes a group across the
///   measured axis needs (at most its number of children); in practice O(nodes).
public struct FlexMeasurer: ContentMeasuring {
    public init() {}

    public func length(of content: ContentDescription, along axis: Axis, crossExtent: Double) -> Double {
        // The root stretches across the row's content frame unless it sets its own extent.
        let cross = content.clamp(content.explicitExtent(axis.cross) ?? Swift.max(0, crossExtent), axis.cross)
        return mainLength(content, axis, cross: cross)
    }

    /// The length along `axis` of `node`, whose extent across `axis` is already resolved to `cross`.
    private func mainLength(_ node: ContentDescription, _ axis: Axis, cross: Double) -> Double {
        let raw: Double
        switch node.kind {
        case .box:
            raw = node.explicitExtent(axis) ?? 0
        case .aspectRatio(let ratio):
            // ratio = width / height
            raw = axis == .vertical ? cross / ratio : cross * ratio
        case .stack(let direction, let spacing, let padding, let children):
            let inner = Swift.max(0, cross - padding.total(axis.cross))
            let gaps = spacing * Double(Swift.max(0, children.count - 1))
            if direction == axis {
                // Along the measured axis: children add up, each stretched across.
                var sum = 0.0
                for child in children {
                    let childCross = child.clamp(child.explicitExtent(axis.cross) ?? inner, axis.cross)
                    sum += mainLength(child, axis, cross: childCross)
                }
                raw = padding.total(axis) + sum + (children.isEmpty ? 0 : gaps)
            } else {
                // Across the measured axis: split the cross extent, then take the longest child.
                let extents = distribute(children, available: inner - gaps, axis: axis.cross)
                var longest = 0.0
                for (child, extent) in zip(children, extents) {
                    longest = Swift.max(longest, mainLength(child, axis, cross: extent))
                }
                raw = padding.total(axis) + longest
            }
        }
        return node.clamp(raw, axis)
    }

    /// Resolves the extents along `axis` of children laid out along it: children with a fixed
    /// extent keep it (`flex: none`); the others (`flex: 1 1 0`) share what is left equally,
    /// honouring their min/max with the flexbox "freeze the violators and redistribute" loop.
    private func distribute(_ children: [ContentDescription], available: Double, axis: Axis) -> [Double] {
        var extents = [Double](repeating: 0, count: children.count)
        var flexible: [Int] = []
        var free = available
        for (i, child) in children.enumerated() {
            if let fixed = child.explicitExtent(axis) {
                extents[i] = child.clamp(fixed, axis)
                free -= extents[i]
            } else {
                flexible.append(i)
            }
        }
        // Flex basis 0 and grow 1: nothing to shrink when there is no free space.
        var unfrozen = flexible
        while !unfrozen.isEmpty {
            let share = Swift.max(0, free) / Double(unfrozen.count)
            var violation = 0.0
            var clamped: [(index: Int, value: Double, delta: Double)] = []
            for i in unfrozen {
                let value = children[i].clamp(share, axis)
                violation += value - share
                clamped.append((i, value, value - share))
            }
            let freezeAll = violation == 0
            var next: [Int] = []
            for item in clamped {
                let freeze = freezeAll || (violation > 0 && item.delta > 0) || (violation < 0 && item.delta < 0)
                if freeze {
                    extents[item.index] = item.value
                    free -= item.value
                } else {
                    next.append(item.index)
                }
            }
            unfrozen = next
        }
        return extents
    }
}
