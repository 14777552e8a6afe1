import ScrollStackCore
import ScrollStackTransitions

/// The three positions of a pile.
public struct PileMetrics: Sendable, Hashable {
    public var leading: PileMetric
    public var active: PileMetric
    public var trailing: PileMetric

    public init(leading: PileMetric = .leading, active: PileMetric = .active, trailing: PileMetric = .trailing) {
        self.leading = leading
        self.active = active
        self.trailing = trailing
    }
}
